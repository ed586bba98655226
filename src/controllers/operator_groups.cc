// ExpandWorkloads' last step (operator_plan.h): each operator workload's
// groups, declared as its operator (or the scheduler's pod-grouper) would
// create them.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "gpusched/controllers/operator_expansion.h"
#include "gpusched/model/gang.h"
#include "gpusched/util/plural.h"
#include "operator_plan.h"

namespace gpusched {
namespace {

int32_t ClampCount32(int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, 0, INT32_MAX)); }

// Pods per Job of a replicated job: min(parallelism, completions).
int64_t PodsPerJob(const Controller& job) {
  return job.completions ? std::min(job.parallelism, *job.completions) : job.parallelism;
}

class Declarer {
 public:
  explicit Declarer(ClusterObjects& m) : m_(m) {
    for (const ControllerPods& r : m_.controller_pods) {
      const std::string key = std::string(KindName(r.kind)) + "/" + r.ns + "/" + r.name;
      reports_[key] = &r;
    }
    for (const PodGroupDecl& d : m_.pod_groups)
      if (!d.implied) declared_.insert(std::to_string(static_cast<int>(d.api)) + "/" + d.ns + "/" + d.name);
  }

  void Run(const std::vector<OperatorPlan>& plans) {
    for (const OperatorPlan& plan : plans) Declare(plan);
  }

 private:
  // The pods (active and created) a child Job or StatefulSet has.
  std::vector<std::string> PodsOf(const std::string& child) const {
    auto it = reports_.find(child);
    if (it == reports_.end()) return {};
    std::vector<std::string> out = it->second->had;
    out.insert(out.end(), it->second->created.begin(), it->second->created.end());
    return out;
  }

  Pod* FindPod(const std::string& key) {
    if (pod_index_.empty())
      for (size_t i = 0; i < m_.pods.size(); ++i) pod_index_[m_.pods[i].pod.ns() + "/" + m_.pods[i].pod.name()] = i;
    auto it = pod_index_.find(key);
    return it == pod_index_.end() ? nullptr : &m_.pods[it->second].pod;
  }

  void Add(PodGroupDecl d, std::vector<PodGroupDecl>& out) {
    if (d.api != GangApi::kOperator &&
        declared_.count(std::to_string(static_cast<int>(d.api)) + "/" + d.ns + "/" + d.name))
      return;  // the input holds the object its operator created
    out.push_back(std::move(d));
  }

  void Declare(const OperatorPlan& plan) {
    const OperatorWorkload& w = plan.op->workload;
    OperatorPods report;
    report.kind = w.kind;
    report.ns = w.ns();
    report.name = w.name();
    report.file = plan.op->file;
    report.line = plan.op->line;
    std::unordered_set<std::string> created(plan.created.begin(), plan.created.end());
    for (const std::string& p : plan.pods)
      if (!created.count(p)) report.had.push_back(p);
    report.created = plan.created;

    PodGroupDecl base;
    base.api = plan.api;
    base.ns = w.ns();
    base.implied = true;
    base.owner = OperatorId(w.kind, w.ns(), w.name());
    base.file = plan.op->file;
    base.line = plan.op->line;
    base.queue = w.queue;
    base.priority_class_name = w.priority_class;
    base.min_resources = w.min_resources;
    std::vector<PodGroupDecl> decls;
    const int64_t total = w.TotalPods();

    if (IsKubeflowKind(w.kind) || w.kind == OperatorKind::kVolcanoJob) {
      PodGroupDecl d = base;
      d.name = plan.api == GangApi::kOperator ? w.name() : plan.group_names.front();
      d.min_count = ClampCount32(w.min_available.value_or(total));
      // KAI's PyTorchJob grouper (pkg/podgrouper/podgrouper/plugins/kubeflow/
      // pytorch/pytorch_grouper.go): an elastic job's minReplicas, unless
      // schedulingPolicy.minAvailable is set. training-operator's own
      // PodGroups ignore it (pkg/controller.v1/common/job.go: minAvailable,
      // else every replica).
      if (plan.api == GangApi::kKai && w.kind == OperatorKind::kPyTorchJob && !w.min_available &&
          w.elastic_min_replicas)
        d.min_count = ClampCount32(*w.elastic_min_replicas);
      // Else Coscheduling's permitWaitingTimeSeconds, from its args.
      if (plan.api == GangApi::kCoscheduling && w.schedule_timeout_seconds && *w.schedule_timeout_seconds > 0)
        d.timeout_seconds = static_cast<double>(*w.schedule_timeout_seconds);
      if (plan.api == GangApi::kVolcano && IsKubeflowKind(w.kind) && d.queue.empty()) d.queue = "default";
      if (w.kind == OperatorKind::kVolcanoJob) {
        // createOrUpdatePodGroup: MinTaskMember per task.
        for (const OperatorRole& r : w.roles) d.subgroups.push_back(GangSubgroup{r.name, r.min_available.value_or(0), ""});
        auto restarts = [](const std::vector<std::pair<std::string, std::string>>& ps) {
          for (const auto& [event, action] : ps)
            if ((event == "PodEvicted" || event == "*") && action == "RestartJob") return true;
          return false;
        };
        d.restarts_whole_group = restarts(w.policies);
        for (const OperatorRole& r : w.roles) d.restarts_whole_group = d.restarts_whole_group || restarts(r.policies);
      }
      if (plan.api == GangApi::kKai && w.kind == OperatorKind::kPyTorchJob) {
        // KAI's PyTorchJob grouper: master (its replicas) and worker (the rest of minAvailable).
        int64_t masters = 0;
        for (const OperatorRole& r : w.roles)
          if (r.name == "Master") masters = r.replicas;
        if (masters > 0) d.subgroups.push_back(GangSubgroup{"master", ClampCount32(masters), ""});
        for (const OperatorRole& r : w.roles)
          if (r.name == "Worker") d.subgroups.push_back(GangSubgroup{"worker", ClampCount32(d.min_count - masters), ""});
      }
      if (plan.api == GangApi::kOperator) d.members = plan.pods;
      Add(std::move(d), decls);
      report.summary = Summary(w, plan, total, report);
    } else if (w.kind == OperatorKind::kJobSet) {
      PodGroupDecl d = base;
      d.name = plan.api == GangApi::kOperator ? w.name() : plan.group_names.front();
      int64_t first = 0;
      for (size_t r = 0; r < w.roles.size(); ++r) {
        const int64_t pods = w.roles[r].replicas * PodsPerJob(w.roles[r].job);
        if (r == 0) first = pods;
        d.subgroups.push_back(GangSubgroup{w.roles[r].name, ClampCount32(pods), ""});
      }
      // KAI's JobSet grouper: every replicated job (AnyOrder) or one at a
      // time (InOrder: the JobSet controller creates them in order).
      d.min_count = ClampCount32(w.startup_policy_order == "InOrder" ? first : total);
      for (const auto& [child, role] : plan.children) {
        report.children.push_back(child);
        for (const std::string& p : PodsOf(child)) {
          report.created.push_back(p);
          if (plan.api == GangApi::kOperator) d.members.push_back(p);
        }
      }
      Add(std::move(d), decls);
      report.summary = Summary(w, plan, total, report);
    } else {
      // LeaderWorkerSet: a group per leader. Its leader pod is the leader
      // StatefulSet's ordinal; its workers the group's StatefulSet's pods.
      std::vector<std::vector<std::string>> members(plan.group_names.size());
      std::string leader_sts;
      for (const auto& [child, group] : plan.children) {
        report.children.push_back(child);
        if (group < 0) leader_sts = child;
      }
      for (const std::string& p : PodsOf(leader_sts)) {
        const std::string prefix = w.ns() + "/" + w.name() + "-";
        int64_t g = -1;
        if (p.rfind(prefix, 0) == 0) {
          const std::string ord = p.substr(prefix.size());
          if (!ord.empty() && std::all_of(ord.begin(), ord.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
              ord.size() < 10)
            g = std::stoll(ord);
        }
        if (g < 0 || g >= static_cast<int64_t>(members.size())) continue;
        members[g].push_back(p);
        StampLeader(plan, p, static_cast<int>(g));
      }
      for (const auto& [child, group] : plan.children)
        if (group >= 0 && group < static_cast<int>(members.size()))
          for (const std::string& p : PodsOf(child)) members[group].push_back(p);
      for (const auto& g : members)
        for (const std::string& p : g) report.created.push_back(p);
      for (size_t g = 0; g < members.size(); ++g) {
        PodGroupDecl d = base;
        d.name = plan.api == GangApi::kOperator ? w.name() + "-" + std::to_string(g) : plan.group_names[g];
        // VolcanoProvider: minMember size, 1 with LeaderReady (the leader
        // must be ready before its workers exist).
        d.min_count = plan.api == GangApi::kVolcano && w.startup_policy == "LeaderReady" ? 1 : w.group_size;
        d.restarts_whole_group =
            w.restart_policy == "RecreateGroupOnPodRestart" || w.restart_policy == "RecreateGroupAfterStart";
        if (plan.api == GangApi::kKai) {
          d.subgroups.push_back(GangSubgroup{"leader", 1, ""});
          if (w.group_size > 1) d.subgroups.push_back(GangSubgroup{"workers", w.group_size - 1, ""});
        }
        if (plan.api == GangApi::kOperator) d.members = members[g];
        Add(std::move(d), decls);
      }
      report.summary = Summary(w, plan, total, report);
    }
    // The created lists hold every pod the children have; split by origin.
    if (w.kind == OperatorKind::kJobSet || w.kind == OperatorKind::kLeaderWorkerSet) {
      std::vector<std::string> all = std::move(report.created);
      report.created.clear();
      for (const std::string& p : all) (created_by_children(p) ? report.created : report.had).push_back(p);
    }
    std::sort(report.had.begin(), report.had.end());
    for (PodGroupDecl& d : decls) m_.pod_groups.push_back(std::move(d));
    m_.operator_pods.push_back(std::move(report));
  }

  bool created_by_children(const std::string& pod) {
    if (created_children_.empty())
      for (const ControllerPods& r : m_.controller_pods)
        for (const std::string& p : r.created) created_children_.insert(p);
    return created_children_.count(pod) > 0;
  }

  // The LWS pod webhook's labels on a leader pod gpusched created, and the
  // group link (Volcano's InjectPodGroupMetadata, KAI's pod-grouper).
  void StampLeader(const OperatorPlan& plan, const std::string& key, int group) {
    if (!created_by_children(key)) return;
    Pod* p = FindPod(key);
    if (!p) return;
    p->meta.labels[kLwsGroupIndexLabel] = std::to_string(group);
    const std::string& name = plan.group_names[static_cast<size_t>(group)];
    if (plan.api == GangApi::kVolcano) p->meta.annotations[kVolcanoGroupNameAnnotation] = name;
    if (plan.api == GangApi::kKai) {
      p->meta.annotations[kKaiPodGroupAnnotation] = name;
      p->meta.labels[kKaiSubGroupLabel] = "leader";
    }
  }

  static std::string Summary(const OperatorWorkload& w, const OperatorPlan& plan, int64_t total,
                             const OperatorPods& report) {
    std::string roles;
    for (const OperatorRole& r : w.roles) {
      if (w.kind == OperatorKind::kLeaderWorkerSet) break;
      roles += (roles.empty() ? "" : ", ") + r.name + " " + std::to_string(r.replicas);
    }
    std::string s;
    if (w.kind == OperatorKind::kLeaderWorkerSet) {
      s = std::to_string(w.roles.front().replicas) + " groups of " + std::to_string(w.group_size) + " (" +
          Plural(total, "pod") + ")";
    } else if (w.kind == OperatorKind::kJobSet) {
      s = roles + " Jobs (" + Plural(total, "pod") + ")";
    } else {
      s = roles + " (" + Plural(total, "pod") + ")";
    }
    if (IsKubeflowKind(w.kind) || w.kind == OperatorKind::kVolcanoJob)
      s += ", " + std::to_string(report.had.size()) + " present: creates " + std::to_string(report.created.size());
    if (w.finished) s += " (finished)";
    if (w.suspend) s += " (suspended)";
    s += "; group: ";
    s += plan.api == GangApi::kOperator
             ? std::string("none created (its pods are scheduled by ") + plan.scheduler + ")"
             : std::string(GangApiName(plan.api)) + " " + plan.group_names.front() +
                   (plan.group_names.size() > 1 ? " ..." : "");
    return s;
  }

  ClusterObjects& m_;
  std::unordered_map<std::string, const ControllerPods*> reports_;
  std::unordered_set<std::string> declared_;
  std::unordered_map<std::string, size_t> pod_index_;
  std::unordered_set<std::string> created_children_;
};

}  // namespace

void DeclareOperatorGroups(ClusterObjects& m, const std::vector<OperatorPlan>& plans) {
  if (plans.empty()) return;
  Declarer(m).Run(plans);
}

}  // namespace gpusched

#include "gpusched/controllers/operator_expansion.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

#include "gpusched/controllers/controller_expansion.h"
#include "gpusched/controllers/workload_names.h"
#include "gpusched/model/gang.h"
#include "gpusched/util/ascii.h"
#include "kai_job_groups.h"
#include "operator_plan.h"

namespace gpusched {
namespace {

std::optional<int64_t> IntLabel(const LabelMap& labels, const char* key) {
  auto it = labels.find(key);
  if (it == labels.end()) return std::nullopt;
  int64_t v = 0;
  const std::string& s = it->second;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

// training-operator's ControllerName() per kind ("pytorchjob-controller").
std::string KubeflowOperatorName(OperatorKind kind) {
  return AsciiLower(OperatorKindName(kind)) + "-controller";
}

// The role whose pod gets training.kubeflow.org/job-role=master
// (IsMasterRole of each framework's reconciler).
bool IsMasterRole(const OperatorWorkload& w, const std::string& role, int64_t index) {
  switch (w.kind) {
    case OperatorKind::kPyTorchJob:
    case OperatorKind::kXGBoostJob:
    case OperatorKind::kPaddleJob: return role == "Master";
    case OperatorKind::kMPIJob: return role == "Launcher";
    case OperatorKind::kTFJob: {
      bool chief = false;
      for (const OperatorRole& r : w.roles) chief = chief || r.name == "Chief" || r.name == "Master";
      return chief ? role == "Chief" || role == "Master" : role == "Worker" && index == 0;
    }
    default: return false;
  }
}

// What a workload's roles ask pods to be scheduled by.
std::string SchedulerOf(const OperatorWorkload& w) {
  if (w.kind == OperatorKind::kJobSet) return w.roles.empty() ? kDefaultSchedulerName : w.roles.front().job.tmpl.scheduler_name;
  return w.roles.empty() ? kDefaultSchedulerName : w.roles.front().tmpl.scheduler_name;
}

class Planner {
 public:
  explicit Planner(ClusterObjects& m) : m_(m) {}

  std::vector<OperatorPlan> Run() {
    for (const LoadedOperator& lo : m_.operators) {
      OperatorPlan plan;
      plan.op = &lo;
      const OperatorWorkload& w = lo.workload;
      plan.scheduler = SchedulerOf(w);
      plan.api = GroupApiFor(w, plan.scheduler);
      const int groups = w.kind == OperatorKind::kLeaderWorkerSet ? static_cast<int>(std::max<int64_t>(0, w.roles.front().replicas)) : 1;
      for (int g = 0; g < groups; ++g)
        plan.group_names.push_back(GroupNameFor(w, plan.api, w.kind == OperatorKind::kLeaderWorkerSet ? g : -1));
      plans_.push_back(std::move(plan));
    }
    IndexOwnership();
    for (size_t i = 0; i < plans_.size(); ++i) {
      const OperatorWorkload& w = plans_[i].op->workload;
      if (IsKubeflowKind(w.kind)) {
        Kubeflow(i);
      } else if (w.kind == OperatorKind::kVolcanoJob) {
        VolcanoJob(i);
      } else if (w.kind == OperatorKind::kJobSet) {
        JobSet(i);
      } else {
        LeaderWorkerSet(i);
      }
    }
    m_.pods.reserve(m_.pods.size() + created_.size());
    for (LoadedPod& lp : created_) {
      m_.pod_keys.insert(lp.pod.ns() + "/" + lp.pod.name());
      m_.pods.push_back(std::move(lp));
    }
    for (LoadedController& lc : new_controllers_) m_.controllers.push_back(std::move(lc));
    return std::move(plans_);
  }

 private:
  const OperatorWorkload& W(size_t i) const { return plans_[i].op->workload; }

  void Warn(size_t i, const std::string& text) {
    const LoadedOperator& lo = *plans_[i].op;
    m_.warnings.push_back(lo.file + ":" + std::to_string(lo.line) + ": " +
                          OperatorId(lo.workload.kind, lo.workload.ns(), lo.workload.name()) + ": " + text);
  }

  // Which operator each pod in the input belongs to.
  void IndexOwnership() {
    std::unordered_map<std::string, size_t> by_uid, by_name;
    for (size_t i = 0; i < plans_.size(); ++i) {
      const OperatorWorkload& w = W(i);
      if (!w.meta.uid.empty()) by_uid.emplace(w.meta.uid, i);
      by_name.emplace(OperatorId(w.kind, w.ns(), w.name()), i);
    }
    owned_.resize(plans_.size());
    auto visit = [&](const LoadedPod& lp) {
      const Pod& p = lp.pod;
      std::optional<size_t> owner;
      if (p.controller_ref) {
        const OwnerReference& r = *p.controller_ref;
        const std::optional<OperatorKind> kind = ParseOperatorKind(r.api_version, r.kind);
        // Any served version of the group counts; the kind decides.
        std::optional<OperatorKind> k = kind;
        if (!k)
          for (OperatorKind c : {OperatorKind::kPyTorchJob, OperatorKind::kTFJob, OperatorKind::kMPIJob,
                                 OperatorKind::kXGBoostJob, OperatorKind::kPaddleJob, OperatorKind::kJAXJob,
                                 OperatorKind::kVolcanoJob})
            if (r.kind == OperatorKindName(c) && ApiGroup(r.api_version) == ApiGroup(std::string(OperatorApiVersion(c))))
              k = c;
        if (!k) return;
        if (!r.uid.empty())
          if (auto it = by_uid.find(r.uid); it != by_uid.end() && W(it->second).kind == *k && W(it->second).ns() == p.ns())
            owner = it->second;
        if (!owner)
          if (auto it = by_name.find(OperatorId(*k, p.ns(), r.name)); it != by_name.end())
            if (W(it->second).meta.uid.empty() || r.uid.empty()) owner = it->second;
      } else {
        // ClaimPods: an orphan with the job's labels is adopted.
        auto job = p.meta.labels.find(kKubeflowJobNameLabel);
        auto op = p.meta.labels.find(kKubeflowOperatorNameLabel);
        if (job == p.meta.labels.end() || op == p.meta.labels.end()) return;
        for (OperatorKind c : {OperatorKind::kPyTorchJob, OperatorKind::kTFJob, OperatorKind::kMPIJob,
                               OperatorKind::kXGBoostJob, OperatorKind::kPaddleJob, OperatorKind::kJAXJob})
          if (op->second == KubeflowOperatorName(c))
            if (auto it = by_name.find(OperatorId(c, p.ns(), job->second)); it != by_name.end()) owner = it->second;
      }
      if (owner) owned_[*owner].push_back(&lp);
    };
    for (const LoadedPod& lp : m_.pods) visit(lp);
    for (const LoadedPod& lp : m_.terminal_pods) visit(lp);
    for (const LoadedPod& lp : m_.terminal_pods) taken_.insert(lp.pod.ns() + "/" + lp.pod.name());
  }

  bool Taken(const std::string& key) const { return m_.pod_keys.count(key) || taken_.count(key); }

  void Create(size_t i, Pod p, const std::string& name) {
    const OperatorWorkload& w = W(i);
    p.meta.name = name;
    p.meta.generate_name.clear();
    p.meta.namespace_ = w.ns();
    std::string kind(OperatorKindName(w.kind));
    if (w.kind == OperatorKind::kVolcanoJob) kind += ".batch.volcano.sh";
    p.owner = kind + "/" + w.name();
    p.controller_ref = OwnerReference{w.api_version, std::string(OperatorKindName(w.kind)), w.name(), w.meta.uid};
    const std::string key = w.ns() + "/" + name;
    taken_.insert(key);
    plans_[i].pods.push_back(key);
    plans_[i].created.push_back(key);
    created_.push_back(LoadedPod{std::move(p), plans_[i].op->file, plans_[i].op->line});
  }

  // The gang link its operator puts on a pod (DecoratePodTemplateSpec; the
  // KAI pod-grouper's assignPodToGroupAndSubGroup).
  void Link(size_t i, Pod& p, int group, const std::string& subgroup) {
    const OperatorPlan& plan = plans_[i];
    const std::string& name = plan.group_names[group < 0 ? 0 : static_cast<size_t>(group)];
    switch (plan.api) {
      case GangApi::kVolcano:
        p.meta.annotations[kVolcanoGroupNameAnnotation] = name;
        if (!subgroup.empty()) p.meta.annotations[kVolcanoTaskSpecAnnotation] = subgroup;
        break;
      case GangApi::kCoscheduling: p.meta.labels[kCoschedulingPodGroupLabel] = name; break;
      case GangApi::kKai:
        p.meta.annotations[kKaiPodGroupAnnotation] = name;
        if (!subgroup.empty()) p.meta.labels[kKaiSubGroupLabel] = subgroup;
        break;
      default: break;
    }
  }

  void Kubeflow(size_t i) {
    const OperatorWorkload& w = W(i);
    // GetPodSlices: the pods of each replica type by their index label.
    std::map<std::pair<std::string, int64_t>, const LoadedPod*> slot;
    for (const LoadedPod* lp : owned_[i]) {
      if (!IsTerminated(lp->pod)) plans_[i].pods.push_back(lp->pod.ns() + "/" + lp->pod.name());
      auto rt = lp->pod.meta.labels.find(kKubeflowReplicaTypeLabel);
      std::optional<int64_t> idx = IntLabel(lp->pod.meta.labels, kKubeflowReplicaIndexLabel);
      if (rt == lp->pod.meta.labels.end() || !idx) continue;
      auto& s = slot[{rt->second, *idx}];
      if (!s || (IsTerminated(s->pod) && !IsTerminated(lp->pod))) s = lp;
    }
    if (w.finished || w.suspend) return;
    for (const OperatorRole& r : w.roles) {
      const std::string rt = AsciiLower(r.name);
      for (int64_t idx = 0; idx < r.replicas; ++idx) {
        std::string name = w.kind == OperatorKind::kMPIJob && r.name == "Launcher"
                               ? w.name() + "-launcher"
                               : w.name() + "-" + rt + "-" + std::to_string(idx);
        auto it = slot.find({rt, idx});
        bool replace_own = false;
        if (it != slot.end()) {
          const Pod& have = it->second->pod;
          // ReconcilePods restarts a Failed pod whose policy retries it.
          const bool retried = have.phase == "Failed" && (r.restart_policy == "OnFailure" ||
                                                          r.restart_policy == "Always" || r.restart_policy == "ExitCode");
          if (!retried) continue;
          replace_own = have.name() == name;
        }
        if (Taken(w.ns() + "/" + name) && !replace_own) {
          Warn(i, "pod " + name + " exists and does not belong to it: the operator cannot create its " + rt +
                      " replica " + std::to_string(idx));
          continue;
        }
        Pod p = r.tmpl;
        p.meta.labels[kKubeflowOperatorNameLabel] = KubeflowOperatorName(w.kind);
        p.meta.labels[kKubeflowJobNameLabel] = w.name();
        p.meta.labels[kKubeflowReplicaTypeLabel] = rt;
        p.meta.labels[kKubeflowReplicaIndexLabel] = std::to_string(idx);
        if (IsMasterRole(w, r.name, idx)) p.meta.labels[kKubeflowJobRoleLabel] = "master";
        std::string subgroup = plans_[i].api == GangApi::kVolcano ? rt : "";
        if (plans_[i].api == GangApi::kKai && w.kind == OperatorKind::kPyTorchJob) subgroup = rt;
        Link(i, p, -1, subgroup);
        Create(i, std::move(p), name);
      }
    }
  }

  void VolcanoJob(size_t i) {
    const OperatorWorkload& w = W(i);
    std::unordered_set<std::string> mine;
    for (const LoadedPod* lp : owned_[i]) {
      mine.insert(lp->pod.name());
      if (!IsTerminated(lp->pod)) plans_[i].pods.push_back(lp->pod.ns() + "/" + lp->pod.name());
    }
    if (w.finished) return;
    for (const OperatorRole& r : w.roles) {
      for (int64_t idx = 0; idx < r.replicas; ++idx) {
        const std::string name = w.name() + "-" + r.name + "-" + std::to_string(idx);
        if (mine.count(name)) continue;
        if (Taken(w.ns() + "/" + name)) {
          Warn(i, "pod " + name + " exists and does not belong to it: the Volcano Job cannot create task " + r.name +
                      " index " + std::to_string(idx));
          continue;
        }
        // createJobPod (pkg/controllers/job/job_controller_util.go).
        Pod p = r.tmpl;
        const std::string index = std::to_string(idx);
        p.meta.annotations[kVolcanoTaskIndexAnnotation] = index;
        p.meta.annotations[kVolcanoTaskSpecAnnotation] = r.name;
        p.meta.annotations[kVolcanoGroupNameAnnotation] = plans_[i].group_names.front();
        p.meta.annotations[kVolcanoJobNameAnnotation] = w.name();
        p.meta.annotations["volcano.sh/queue-name"] = w.queue;
        p.meta.annotations["volcano.sh/job-version"] = "0";
        p.meta.annotations["volcano.sh/template-uid"] = w.name() + "-" + r.name;
        p.meta.annotations["volcano.sh/job-retry-count"] = "0";
        p.meta.labels[kVolcanoTaskIndexAnnotation] = index;
        p.meta.labels[kVolcanoJobNameAnnotation] = w.name();
        p.meta.labels[kVolcanoTaskSpecAnnotation] = r.name;
        p.meta.labels["volcano.sh/job-namespace"] = w.ns();
        p.meta.labels["volcano.sh/queue-name"] = w.queue;
        Create(i, std::move(p), name);
      }
    }
  }

  // A controller in the input of `kind` named `name` that belongs to
  // workload i (its controller reference, or, without one, `label` = the
  // workload's name).
  const LoadedController* Child(size_t i, ControllerKind kind, const std::string& name, const char* label) const {
    const OperatorWorkload& w = W(i);
    for (const LoadedController& lc : m_.controllers) {
      const Controller& c = lc.controller;
      if (c.kind != kind || c.ns() != w.ns() || c.name() != name) continue;
      if (c.controller_ref) {
        const OwnerReference& r = *c.controller_ref;
        if (r.kind == OperatorKindName(w.kind) && r.name == w.name() &&
            (r.uid.empty() || w.meta.uid.empty() || r.uid == w.meta.uid))
          return &lc;
        if (r.kind == "Pod") return &lc;  // a LeaderWorkerSet's worker StatefulSet is owned by its leader pod
        continue;
      }
      auto it = c.meta.labels.find(label);
      if (it != c.meta.labels.end() && it->second == w.name()) return &lc;
    }
    return nullptr;
  }

  void AddChild(size_t i, Controller c, int role) {
    const std::string key = std::string(KindName(c.kind)) + "/" + c.ns() + "/" + c.name();
    plans_[i].children[key] = role;
    new_controllers_.push_back(LoadedController{std::move(c), plans_[i].op->file, plans_[i].op->line});
  }

  void JobSet(size_t i) {
    const OperatorWorkload& w = W(i);
    for (size_t r = 0; r < w.roles.size(); ++r) {
      const OperatorRole& role = w.roles[r];
      for (int64_t j = 0; j < role.replicas; ++j) {
        const std::string name = w.name() + "-" + role.name + "-" + std::to_string(j);  // GenJobName
        if (const LoadedController* have = Child(i, ControllerKind::kJob, name, kJobSetNameLabel)) {
          plans_[i].children["Job/" + w.ns() + "/" + have->controller.name()] = static_cast<int>(r);
          continue;
        }
        if (w.finished) continue;
        // constructJob: the template's labels and annotations, JobSet's labels
        // on the Job and its pods, owned by the JobSet.
        Controller c = role.job;
        c.meta.name = name;
        c.meta.namespace_ = w.ns();
        c.meta.generate_name.clear();
        c.controller_ref = OwnerReference{w.api_version, "JobSet", w.name(), w.meta.uid};
        c.suspend = c.suspend || w.suspend;
        for (LabelMap* labels : {&c.meta.labels, &c.tmpl.meta.labels}) {
          (*labels)[kJobSetNameLabel] = w.name();
          (*labels)[kJobSetReplicatedJobLabel] = role.name;
          (*labels)[kJobSetJobIndexLabel] = std::to_string(j);
          (*labels)[kJobSetReplicatedJobReplicasLabel] = std::to_string(role.replicas);
        }
        if (plans_[i].api == GangApi::kKai) Link(i, c.tmpl, -1, role.name);
        c.tmpl.meta.namespace_ = w.ns();
        AddChild(i, std::move(c), static_cast<int>(r));
      }
    }
  }

  void LeaderWorkerSet(size_t i) {
    const OperatorWorkload& w = W(i);
    const OperatorRole& leader = w.roles[0];
    const OperatorRole& worker = w.roles[1];
    const std::string size = std::to_string(w.group_size);
    if (const LoadedController* have = Child(i, ControllerKind::kStatefulSet, w.name(), kLwsNameLabel)) {
      plans_[i].children["StatefulSet/" + w.ns() + "/" + have->controller.name()] = -1;
    } else {
      // constructLeaderStatefulSetApplyConfiguration.
      Controller c;
      c.kind = ControllerKind::kStatefulSet;
      c.api_version = "apps/v1";
      c.meta.name = w.name();
      c.meta.namespace_ = w.ns();
      c.meta.labels[kLwsNameLabel] = w.name();
      c.controller_ref = OwnerReference{w.api_version, "LeaderWorkerSet", w.name(), w.meta.uid};
      c.replicas = leader.replicas;
      c.selector = LabelSelector{{{kLwsNameLabel, w.name()}, {kLwsWorkerIndexLabel, "0"}}, {}};
      c.tmpl = leader.tmpl;
      c.tmpl.meta.labels[kLwsNameLabel] = w.name();
      c.tmpl.meta.labels[kLwsWorkerIndexLabel] = "0";
      c.tmpl.meta.annotations[kLwsSizeAnnotation] = size;
      AddChild(i, std::move(c), -1);
    }
    if (w.group_size <= 1) return;
    for (int64_t g = 0; g < leader.replicas; ++g) {
      const std::string name = w.name() + "-" + std::to_string(g);
      if (const LoadedController* have = Child(i, ControllerKind::kStatefulSet, name, kLwsNameLabel)) {
        plans_[i].children["StatefulSet/" + w.ns() + "/" + have->controller.name()] = static_cast<int>(g);
        continue;
      }
      // constructWorkerStatefulSetApplyConfiguration: owned by the leader pod.
      Controller c;
      c.kind = ControllerKind::kStatefulSet;
      c.api_version = "apps/v1";
      c.meta.name = name;
      c.meta.namespace_ = w.ns();
      c.meta.labels[kLwsNameLabel] = w.name();
      c.meta.labels[kLwsGroupIndexLabel] = std::to_string(g);
      c.controller_ref = OwnerReference{"v1", "Pod", name, ""};
      c.replicas = w.group_size - 1;
      c.ordinals_start = 1;
      c.selector = LabelSelector{{{kLwsGroupIndexLabel, std::to_string(g)}, {kLwsNameLabel, w.name()}}, {}};
      c.tmpl = worker.tmpl;
      c.tmpl.meta.labels[kLwsNameLabel] = w.name();
      c.tmpl.meta.labels[kLwsGroupIndexLabel] = std::to_string(g);
      c.tmpl.meta.annotations[kLwsSizeAnnotation] = size;
      c.tmpl.meta.annotations["leaderworkerset.sigs.k8s.io/leader-name"] = name;
      Link(i, c.tmpl, static_cast<int>(g), plans_[i].api == GangApi::kKai ? "workers" : "");
      AddChild(i, std::move(c), static_cast<int>(g));
    }
  }

  ClusterObjects& m_;
  std::vector<OperatorPlan> plans_;
  std::vector<std::vector<const LoadedPod*>> owned_;
  std::unordered_set<std::string> taken_;  // terminated and created pods
  std::vector<LoadedPod> created_;
  std::vector<LoadedController> new_controllers_;
};

}  // namespace

GangApi GroupApiFor(const OperatorWorkload& w, const std::string& scheduler) {
  if (w.kind == OperatorKind::kVolcanoJob) return GangApi::kVolcano;  // it always creates its PodGroup
  if (scheduler == kVolcanoSchedulerName && w.kind != OperatorKind::kJobSet) return GangApi::kVolcano;
  if (scheduler == kKaiSchedulerName) return GangApi::kKai;
  // training-operator: any other scheduler name with gang scheduling on is
  // taken to be a scheduler-plugins build (its --gang-scheduler-name).
  if (IsKubeflowKind(w.kind) && scheduler != kDefaultSchedulerName && !scheduler.empty()) return GangApi::kCoscheduling;
  return GangApi::kOperator;
}

std::string GroupNameFor(const OperatorWorkload& w, GangApi api, int group) {
  const std::string uid = w.meta.uid;
  switch (api) {
    case GangApi::kVolcano:
      if (w.kind == OperatorKind::kVolcanoJob) return uid.empty() ? w.name() : w.name() + "-" + uid;
      if (w.kind == OperatorKind::kLeaderWorkerSet) {
        // schedulerprovider.GetPodGroupName: <lws>-<group>-<revision>; the
        // revision hash stands in for the template-revision-hash label.
        return w.name() + "-" + std::to_string(group) + "-" + SafeSuffix(Fnv1a64(w.ns() + "/" + w.name()), 10);
      }
      return w.name();  // Kubeflow: the job's name
    case GangApi::kKai: {
      // DefaultGrouper.CalcPodGroupName: pg-<owner>-<uid>; LWS adds -group-<i>.
      std::string name = "pg-" + w.name() + (uid.empty() ? "" : "-" + uid);
      if (w.kind == OperatorKind::kLeaderWorkerSet) name += "-group-" + std::to_string(group);
      return name;
    }
    case GangApi::kCoscheduling: return w.name();
    default: return "";
  }
}

void ExpandWorkloads(ClusterObjects& m) {
  std::vector<OperatorPlan> plans = PlanOperators(m);
  // The scales the disruption controller's finders see, before the
  // controllers are consumed.
  for (const LoadedController& lc : m.controllers) {
    const Controller& c = lc.controller;
    ScaleTarget t{c.api_version, std::string(KindName(c.kind)), c.ns(), c.name(), c.meta.uid, std::nullopt,
                  c.controller_ref};
    if (c.kind == ControllerKind::kDeployment || c.kind == ControllerKind::kReplicaSet ||
        c.kind == ControllerKind::kStatefulSet)
      t.scale = static_cast<int32_t>(std::clamp<int64_t>(c.replicas, 0, INT32_MAX));
    m.controller_scales.Add(std::move(t));
  }
  for (const LoadedOperator& lo : m.operators) {
    const OperatorWorkload& w = lo.workload;
    ScaleTarget t{w.api_version, std::string(OperatorKindName(w.kind)), w.ns(), w.name(), w.meta.uid, std::nullopt,
                  w.controller_ref};
    // Scale subresources: PyTorchJob, PaddleJob and JAXJob scale their
    // Worker replicas; a LeaderWorkerSet its groups.
    if (w.kind == OperatorKind::kPyTorchJob || w.kind == OperatorKind::kPaddleJob || w.kind == OperatorKind::kJAXJob) {
      for (const OperatorRole& r : w.roles)
        if (r.name == "Worker") t.scale = static_cast<int32_t>(std::clamp<int64_t>(r.replicas, 0, INT32_MAX));
    } else if (w.kind == OperatorKind::kLeaderWorkerSet) {
      t.scale = static_cast<int32_t>(std::clamp<int64_t>(w.roles.front().replicas, 0, INT32_MAX));
    }
    m.controller_scales.Add(std::move(t));
  }
  const std::vector<KaiJobGroup> kai_jobs = PlanKaiJobGroups(m);
  ExpandControllers(m);
  DeclareKaiJobGroups(m, kai_jobs);
  DeclareOperatorGroups(m, plans);
  m.operators.clear();
}

std::vector<OperatorPlan> PlanOperators(ClusterObjects& m) {
  if (m.operators.empty()) return {};
  return Planner(m).Run();
}

}  // namespace gpusched

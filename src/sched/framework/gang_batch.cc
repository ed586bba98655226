#include "gpusched/sched/framework/gang_batch.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/util/plural.h"

namespace gpusched {
namespace {

const char* MinName(GangApi api) {
  switch (api) {
    case GangApi::kWorkloadV1alpha1:
    case GangApi::kPodGroupV1alpha2: return "minCount";
    case GangApi::kVolcano: return "minAvailable";
    default: return "minMember";
  }
}

std::string PodName(const PodInfo& p) { return p.pod->name(); }

}  // namespace

// Volcano's gang plugin (pkg/scheduler/plugins/gang/gang.go OnSessionClose)
// writes "<unready>/<tasks> tasks in gang unschedulable: " + JobInfo.FitError
// (pkg/scheduler/api/job_info.go): the PodGroup's readiness, then a sorted
// histogram of task states and minAvailable. gpusched writes that prefix and
// histogram; Volcano's per-task reasons that follow are not reproduced.
std::string VolcanoMessage(const Gang& g, int64_t fit, int64_t pending, int64_t running) {
  std::vector<std::string> hist;
  if (pending > 0) hist.push_back(std::to_string(pending) + " Pending");
  if (running > 0) hist.push_back(std::to_string(running) + " Running");
  hist.push_back(std::to_string(g.min_count) + " minAvailable");
  std::sort(hist.begin(), hist.end());
  std::string h;
  for (const auto& s : hist) h += (h.empty() ? "" : ", ") + s;
  return std::to_string(g.min_count - fit - running) + "/" + std::to_string(pending + running) +
         " tasks in gang unschedulable: pod group is not ready, " + h;
}

// KAI writes its reasons to the PodGroup's conditions in words of its own;
// gpusched says what it decided in its words.
std::string KaiMessage(const Gang& g, const GangCount& placed, int64_t exist) {
  for (const GangShortfall& f : GangShortfalls(g, placed)) {
    if (f.subgroup.empty()) break;
    return "KAI: pod group " + g.name + " is not scheduled: " + std::to_string(f.have) + " of subgroup " +
           f.subgroup + "'s minMember " + std::to_string(f.min) + " can be allocated (" + Plural(exist, "pod") +
           (exist == 1 ? " exists)" : " exist)");
  }
  return "KAI: pod group " + g.name + " is not scheduled: " + std::to_string(placed.total) + " of its minMember " +
         std::to_string(g.min_count) + " can be allocated (" + Plural(exist, "pod") +
         (exist == 1 ? " exists)" : " exist)");
}

namespace {

std::string GpuText(int64_t n) { return n == 1 ? "1 GPU" : std::to_string(n) + " GPUs"; }

// The fewest nodes that could hold `rest` unplaced members needing
// `rest_gpus` whole GPUs (`per_pod` each when they agree, else negative),
// judged by the largest GPU count of a node in the cluster: a lower bound
// that tells the user whether the gang needs more nodes than it has now
// free. 0 when it says nothing (no GPUs asked, or no node has GPUs, in which
// case "can never fit" says the rest).
int64_t MinNodesFor(const ClusterState& cluster, int64_t rest, int64_t rest_gpus, int64_t per_pod) {
  if (rest_gpus <= 0) return 0;
  int64_t largest = 0;
  for (size_t i = 0; i < cluster.size(); ++i)
    if (cluster.present(i)) largest = std::max(largest, cluster.state(i).GpuAllocatable());
  if (largest <= 0) return 0;
  if (per_pod > 0) {
    const int64_t fit_per_node = largest / per_pod;
    return fit_per_node > 0 ? (rest + fit_per_node - 1) / fit_per_node : 0;
  }
  return (rest_gpus + largest - 1) / largest;
}

}  // namespace

std::string GoSeconds(double seconds) {
  int64_t s = static_cast<int64_t>(std::llround(seconds));
  if (s < 60) return std::to_string(s) + "s";
  const int64_t h = s / 3600, m = (s % 3600) / 60, sec = s % 60;
  return (h > 0 ? std::to_string(h) + "h" : "") + std::to_string(m) + "m" + std::to_string(sec) + "s";
}

const GangEnforcement* EnforcementFor(const Pod& pod, const GangServing& serving) {
  auto it = serving.find(pod.scheduler_name);
  return it == serving.end() ? nullptr : &it->second;
}

const Gang* EnforcedGang(const Pod& pod, const std::string& pod_key, const GangSet& gangs,
                         const GangServing& serving) {
  const GangEnforcement* e = EnforcementFor(pod, serving);
  if (!e) return nullptr;
  for (GangApi api : e->apis)
    if (const Gang* g = gangs.GangOf(pod_key, api)) return g;
  return nullptr;
}

const Gang* ReportedGang(const Pod& pod, const std::string& pod_key, const GangSet& gangs,
                         const GangServing& serving) {
  if (const Gang* g = EnforcedGang(pod, pod_key, gangs, serving)) return g;
  std::vector<const Gang*> all = gangs.GangsOf(pod_key);
  return all.empty() ? nullptr : all.front();
}

GangOutcome ScheduleGang(const Gang& g, const GangEnforcement& e, const std::vector<PodInfo>& members,
                         const GangCount& bound, ClusterState& cluster, const AttemptFn& attempt,
                         const std::function<bool()>& ever_fits) {
  GangOutcome out;
  out.members.resize(members.size());
  const int64_t already_bound = bound.total;
  const int64_t exist = static_cast<int64_t>(members.size()) + already_bound;
  auto label = [&](size_t i) { return SubgroupLabel(*members[i].pod, g.api); };
  GangCount existing = bound;
  for (size_t i = 0; i < members.size(); ++i) existing.Add(label(i));
  const std::vector<GangShortfall> absent = GangShortfalls(g, existing);
  const std::string word(SubgroupWord(g.api));
  int64_t num_nodes = 0;
  for (size_t i = 0; i < cluster.size(); ++i) num_nodes += cluster.present(i) ? 1 : 0;
  const std::string head = "gang " + g.key + " (" + e.enforcer + ", " + MinName(g.api) + " " +
                           std::to_string(g.min_count) + ")";

  // Fewer members exist than its minimums ask (the gang's, or a task's /
  // subgroup's): the scheduler never tries them.
  if (!absent.empty()) {
    // Volcano's JobValidFn (CheckTaskValid, ValidTaskNum), KAI's
    // IsReadyForScheduling: the minimums over the members that exist.
    std::string missing;
    for (const GangShortfall& f : absent)
      if (!f.subgroup.empty())
        missing += "; " + word + " " + f.subgroup + " has " + std::to_string(f.have) + " of the " +
                   std::to_string(f.min) + " it needs";
    for (size_t i = 0; i < members.size(); ++i) {
      MemberAttempt& a = out.members[i];
      if (e.enforcer == names::kGangScheduling) {
        // GangScheduling's PreEnqueue (pkg/scheduler/framework/plugins/gangscheduling).
        a.message = "waiting for minCount pods from a gang to appear in scheduling queue";
        a.held_before_filters = true;
      } else if (e.enforcer == names::kCoscheduling) {
        // PreFilter (scheduler-plugins pkg/coscheduling/core/core.go), UnschedulableAndUnresolvable.
        FitError fe;
        fe.num_all_nodes = num_nodes;
        fe.pre_filter_message = "pre-filter pod " + PodName(members[i]) +
                                " cannot find enough sibling pods, current pods number: " + std::to_string(exist) +
                                ", minMember of group: " + std::to_string(g.min_count);
        a.message = fe.Error();
      } else if (e.enforcer == "Volcano") {
        a.message = VolcanoMessage(g, 0, static_cast<int64_t>(members.size()), already_bound);
      } else {
        a.message = KaiMessage(g, GangCount{}, exist);
      }
      a.diagnosis.kind = Diagnosis::Kind::kGang;
      a.diagnosis.forever = true;
      a.diagnosis.text =
          missing.empty() || absent.front().subgroup.empty()
              ? head + ": the input holds " + std::to_string(exist) + " of its members, fewer than " +
                    std::to_string(g.min_count) + missing + ", so none is scheduled until the rest exist"
              : head + ": the input holds " + std::to_string(exist) + " of its members" + missing +
                    ", so none is scheduled until the rest exist";
    }
    return out;
  }

  int64_t fit = 0;
  GangCount placed = bound;
  for (size_t i = 0; i < members.size(); ++i) {
    out.members[i] = attempt(members[i], cluster);
    if (!out.members[i].placed) continue;
    ++fit;
    placed.Add(label(i));
  }
  const std::vector<GangShortfall> short_of = GangShortfalls(g, placed);
  if (short_of.empty()) {
    out.placed = true;
    return out;
  }

  // Not enough: undo, so that no member holds a node.
  int64_t rest_gpus = 0, rest = 0, per_pod = -1;
  std::vector<int64_t> rest_each;  // whole GPUs of each member still short
  bool filter_failed = false;
  for (size_t i = 0; i < members.size(); ++i) {
    MemberAttempt& a = out.members[i];
    if (a.placed) {
      cluster.Unbind(a.node, members[i].input_index);
      continue;
    }
    filter_failed |= !a.held_before_filters;
    ++rest;
    rest_gpus += members[i].whole_gpus;
    rest_each.push_back(members[i].whole_gpus);
    per_pod = per_pod < 0 || per_pod == members[i].whole_gpus ? members[i].whole_gpus : -2;
  }
  const bool can_ever = ever_fits ? ever_fits() : true;
  std::string text = head + ": " + std::to_string(fit + already_bound) + " of " + std::to_string(exist) +
                     " members fit now";
  // Fewer than all of the rest may be enough (minMember below the members
  // there are): then what the gang needs is the smallest of them that reach
  // its minimum, not all of them.
  auto gpus_of = [&](std::vector<int64_t> each_gpus, int64_t needed) {
    std::sort(each_gpus.begin(), each_gpus.end());
    int64_t gpus = 0, each = -1;
    for (int64_t k = 0; k < needed; ++k) {
      gpus += each_gpus[k];
      each = each < 0 || each == each_gpus[k] ? each_gpus[k] : -2;
    }
    std::string t;
    if (gpus > 0) {
      t += ": at least " + GpuText(gpus);
      if (needed > 1 && each >= 0) t += ", " + std::to_string(each) + " per pod";
      const int64_t nodes = MinNodesFor(cluster, needed, gpus, each);
      if (needed > 1 && nodes > 0) t += ", on at least " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes");
    }
    return t;
  };
  const bool subgroup_short = std::any_of(short_of.begin(), short_of.end(),
                                          [](const GangShortfall& f) { return !f.subgroup.empty(); });
  const int64_t needed = g.min_count - fit - already_bound;
  if (subgroup_short) {
    // Name each task / subgroup short of its minimum, and what it needs.
    for (const GangShortfall& f : short_of) {
      if (f.subgroup.empty()) {
        text += "; " + std::to_string(f.min - f.have) + " more " + (f.min - f.have == 1 ? "is" : "are") +
                " needed to reach " + MinName(g.api) + " " + std::to_string(f.min);
        continue;
      }
      std::vector<int64_t> sg_each;
      for (size_t i = 0; i < members.size(); ++i)
        if (!out.members[i].placed && label(i) == f.subgroup) sg_each.push_back(members[i].whole_gpus);
      const int64_t more = f.min - f.have;
      const auto unplaced = static_cast<int64_t>(sg_each.size());
      text += "; " + word + " " + f.subgroup + " has " + std::to_string(f.have) + " of its " +
              std::to_string(f.min) + " placed; " + std::to_string(more) + " more of its " + std::to_string(unplaced) +
              " unplaced " + (unplaced == 1 ? "member" : "members") + (more == 1 ? " is" : " are") + " needed" +
              gpus_of(sg_each, std::min(more, unplaced));
    }
  } else if (needed > 0 && needed < rest) {
    text += "; " + std::to_string(needed) + " more of the other " + std::to_string(rest) +
            (needed == 1 ? " is" : " are") + " needed to reach " + MinName(g.api) + " " + std::to_string(g.min_count) +
            gpus_of(rest_each, needed);
  } else if (rest > 0 && rest_gpus == 0) {
    // A gang of CPU pods: "need 0 GPUs" would say nothing; each member's
    // own reason says what holds it.
    text += "; the other " + std::to_string(rest) + (rest == 1 ? " asks" : " ask") +
            " no GPUs: what holds " + (rest == 1 ? "it is its" : "them is in each one's") + " own reason";
  } else if (rest > 0) {
    text += "; the other " + std::to_string(rest) + (rest == 1 ? " needs " : " need ") + GpuText(rest_gpus);
    if (rest > 1 && per_pod >= 0) text += ", " + std::to_string(per_pod) + " per pod";
    const int64_t nodes = MinNodesFor(cluster, rest, rest_gpus, per_pod);
    if (rest > 1 && nodes > 0) text += ", on at least " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes");
  }
  text += can_ever ? std::string("; the whole gang fits this cluster once enough ") +
                         (rest_gpus > 0 ? "GPUs are" : "room is") + " free, so no member is bound until then"
                   : subgroup_short
                         ? "; the gang can never fit this cluster: even on empty nodes too few of its members fit to "
                           "meet its " + word + " minimums"
                         : "; the gang can never fit this cluster: even on empty nodes fewer than " +
                               std::to_string(g.min_count) + " of its members fit";
  const double timeout = g.timeout_seconds ? *g.timeout_seconds : e.permit_timeout_seconds;
  const bool cos_rejects = filter_failed && static_cast<double>(g.min_count - fit - already_bound) /
                                                    static_cast<double>(g.min_count) >
                                                e.reject_threshold;
  for (size_t i = 0; i < members.size(); ++i) {
    MemberAttempt& a = out.members[i];
    const bool was_placed = a.placed;
    a.placed = false;
    a.gpus.clear();
    if (e.enforcer == "Volcano") {
      a.message = VolcanoMessage(g, fit, static_cast<int64_t>(members.size()), already_bound);
    } else if (e.enforcer == "KAI") {
      a.message = KaiMessage(g, placed, exist);
    } else if (was_placed) {
      // The member waited at Permit on its reserved node and was rejected
      // (framework runtime waiting_pods_map.go; Coscheduling PostFilter).
      a.message = e.enforcer == names::kCoscheduling && cos_rejects
                      ? "optimistic rejection in PostFilter"
                      : "rejected due to timeout after waiting " + GoSeconds(timeout) + " at plugin " + e.enforcer;
    } else if (e.enforcer == names::kCoscheduling && cos_rejects && !a.held_before_filters) {
      // PostFilter's status joins DefaultPreemption's reasons with ", "
      // (RunPostFilterPlugins) and FitError appends it after the histogram.
      const std::string reject = "PodGroup " + g.key + " gets rejected due to Pod " + PodName(members[i]) +
                                 " is unschedulable even after PostFilter";
      a.message += (a.message.find(" preemption: ") != std::string::npos ? ", " : " ") + reject;
    }
    if (was_placed) {
      a.diagnosis = Diagnosis{};
      a.diagnosis.kind = Diagnosis::Kind::kGang;
      a.diagnosis.text = text;
    } else if (fit > 0 && !a.diagnosis.forever && !a.held_before_filters) {
      // Its diagnosis read the trial's cluster, with the members that fit
      // holding their nodes; after the rollback those nodes are free again,
      // so "waiting for running pods to finish" would mislead.
      a.diagnosis.kind = Diagnosis::Kind::kGang;
      a.diagnosis.advice = Advice{};
      a.diagnosis.text = text + "; this member: no node had room once the " + std::to_string(fit) +
                         (fit == 1 ? " member that fits was" : " members that fit were") + " reserved";
    } else {
      a.diagnosis.text = text + "; this member: " + a.diagnosis.text;
    }
    a.diagnosis.forever = a.diagnosis.forever || !can_ever;
  }
  return out;
}

}  // namespace gpusched

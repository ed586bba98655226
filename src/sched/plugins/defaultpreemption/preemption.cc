#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sched/api/fit_error.h"

namespace gpusched {

PreemptionVerdict EvaluatePreemption(const PodInfo& pod, const ClusterState& cluster,
                                     const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                     const std::vector<SchedStatus>& statuses) {
  std::vector<SchedStatus::Code> codes;
  codes.reserve(statuses.size());
  for (const SchedStatus& s : statuses) codes.push_back(s.code());
  return EvaluatePreemption(pod, cluster, filters, codes);
}

PreemptionVerdict EvaluatePreemption(const PodInfo& pod, const ClusterState& cluster,
                                     const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                     const std::vector<SchedStatus::Code>& codes, const FilterPlugin* last) {
  PreemptionVerdict v;
  // PodEligibleToPreemptOthers.
  if (pod.pod->preemption_policy == "Never") {
    v.message = "preemption: not eligible due to preemptionPolicy=Never.";
    return v;
  }
  // Counted without building a status per node: this runs over every node
  // each time a pod fits nowhere.
  ReasonTally dry_run;
  FilterVerdict why;
  const int32_t prio = pod.priority;
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    // nodesWherePreemptionMightHelp: only nodes whose status is Unschedulable.
    if (i >= codes.size() || codes[i] != SchedStatus::Code::kUnschedulable) {
      dry_run.Add(SchedStatus::Code::kUnschedulableAndUnresolvable, kPreemptionNotHelpful);
      continue;
    }
    // SelectVictimsOnNode: remove every lower-priority pod, then filter again.
    // The node's state is copied only when there is a victim to remove.
    const NodeState& state = cluster.state(i);
    int64_t victims = 0;
    for (const BoundPod& bp : state.pods) victims += bp.priority < prio;
    if (victims == 0) {
      dry_run.Add(SchedStatus::Code::kUnschedulableAndUnresolvable, kNoPreemptionVictims);
      continue;
    }
    NodeState s = AccountingCopy(state);
    for (const BoundPod& bp : state.pods)
      if (bp.priority < prio) RemovePod(s, bp);
    if (!CheckFilters(filters, pod, cluster.node(i), s, why) &&
        (last == nullptr || last->Check(pod, cluster.node(i), s, &why))) {
      v.would_help = true;
      v.node = i;
      v.victims = victims;
      return v;
    }
    dry_run.Add(why);
  }
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  dry_run.AddTo(err);
  v.message = "preemption: " + err.Error();
  return v;
}

}  // namespace gpusched

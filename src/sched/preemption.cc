#include "gpusched/sched/preemption.h"

#include "gpusched/sched/filters.h"
#include "gpusched/sched/fit_error.h"

namespace gpusched {

PreemptionVerdict EvaluatePreemption(const PodInfo& pod, const ClusterState& cluster,
                                     const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                     const std::vector<SchedStatus>& statuses) {
  PreemptionVerdict v;
  // PodEligibleToPreemptOthers.
  if (pod.pod->preemption_policy == "Never") {
    v.message = "preemption: not eligible due to preemptionPolicy=Never.";
    return v;
  }
  FitError dry_run;
  dry_run.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  const int32_t prio = pod.pod->Priority();
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    // nodesWherePreemptionMightHelp: only nodes whose status is Unschedulable.
    if (i >= statuses.size() || statuses[i].code() != SchedStatus::Code::kUnschedulable) {
      dry_run.AddNodeStatus(SchedStatus::Unresolvable(kPreemptionNotHelpful));
      continue;
    }
    // SelectVictimsOnNode: remove every lower-priority pod, then filter again.
    NodeState s = cluster.state(i);
    int64_t victims = 0;
    for (const BoundPod& bp : cluster.state(i).pods) {
      if (bp.priority >= prio) continue;
      s.Remove(bp);
      ++victims;
    }
    if (victims == 0) {
      dry_run.AddNodeStatus(SchedStatus::Unresolvable(kNoPreemptionVictims));
      continue;
    }
    SchedStatus st = RunFilters(filters, pod, cluster.node(i), s);
    if (st.IsSuccess()) {
      v.would_help = true;
      v.node = i;
      v.victims = victims;
      return v;
    }
    dry_run.AddNodeStatus(st);
  }
  v.message = "preemption: " + dry_run.Error();
  return v;
}

}  // namespace gpusched

// What DefaultPreemption (pkg/scheduler/framework/plugins/defaultpreemption,
// pkg/scheduler/framework/preemption/preemption.go) would say about a pod
// that fits nowhere: either that evicting lower-priority pods on some node
// would make room, or the "preemption: ..." message kube-scheduler appends to
// the FitError when it cannot help. gpusched does not evict pods; it reports.
#ifndef GPUSCHED_SCHED_PLUGINS_DEFAULTPREEMPTION_PREEMPTION_H_
#define GPUSCHED_SCHED_PLUGINS_DEFAULTPREEMPTION_PREEMPTION_H_

#include <memory>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/api/status.h"

namespace gpusched {

inline constexpr const char* kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
inline constexpr const char* kNoPreemptionVictims = "No preemption victims found for incoming pod";

struct PreemptionVerdict {
  bool would_help = false;  // some node fits once lower-priority pods are evicted
  size_t node = 0;          // the first such node (valid when would_help)
  int64_t victims = 0;      // lower-priority pods on it
  std::string message;      // "preemption: ..." when !would_help
};

// `statuses[i]` is node i's filter status from the failed scheduling cycle.
PreemptionVerdict EvaluatePreemption(const PodInfo& pod, const ClusterState& cluster,
                                     const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                     const std::vector<SchedStatus>& statuses);
// The same from the statuses' codes alone (all the evaluation looks at), so
// the scheduler's failure scan need not build a status per node. `last`, when
// given, is one more filter after `filters` (the DynamicResources check of
// sched/plugins/dynamicresources/dynamic_resources.h, which no profile chain holds).
PreemptionVerdict EvaluatePreemption(const PodInfo& pod, const ClusterState& cluster,
                                     const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                     const std::vector<SchedStatus::Code>& codes, const FilterPlugin* last = nullptr);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_DEFAULTPREEMPTION_PREEMPTION_H_

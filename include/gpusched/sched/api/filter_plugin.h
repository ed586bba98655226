// FilterPlugin: the Filter extension point of the scheduling framework. A
// plugin says whether one pod may run on one node given what is in use there.
// Plugins are stateless and registered by name (see filters.h).
#ifndef GPUSCHED_SCHED_API_FILTER_PLUGIN_H_
#define GPUSCHED_SCHED_API_FILTER_PLUGIN_H_

#include <string_view>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/api/status.h"

namespace gpusched {

class FilterPlugin {
 public:
  virtual ~FilterPlugin() = default;
  virtual std::string_view Name() const = 0;
  // True when the node passes. Otherwise, when `why` is given, sets its code
  // and appends the reasons (`why` arrives Reset). Allocation-free apart from
  // `why`'s reused buffer: the scheduler calls it for every node it visits.
  // Passing nullptr lets the plugin stop at the first failed check.
  virtual bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const = 0;
  // The verdict as kube-scheduler's Status (without the plugin name), built
  // from Check so the two can never disagree.
  SchedStatus Filter(const PodInfo& pod, const Node& node, const NodeState& state) const {
    FilterVerdict v;
    if (Check(pod, node, state, &v)) return SchedStatus::Success();
    return v.ToStatus();
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_FILTER_PLUGIN_H_

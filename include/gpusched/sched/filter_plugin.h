// FilterPlugin: the Filter extension point of the scheduling framework. A
// plugin says whether one pod may run on one node given what is in use there.
// Plugins are stateless and registered by name (see filters.h).
#ifndef GPUSCHED_SCHED_FILTER_PLUGIN_H_
#define GPUSCHED_SCHED_FILTER_PLUGIN_H_

#include <string_view>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/pod_info.h"
#include "gpusched/sched/status.h"

namespace gpusched {

class FilterPlugin {
 public:
  virtual ~FilterPlugin() = default;
  virtual std::string_view Name() const = 0;
  virtual SchedStatus Filter(const PodInfo& pod, const Node& node, const NodeState& state) const = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FILTER_PLUGIN_H_

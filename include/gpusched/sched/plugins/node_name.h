// NodeName's filter (pkg/scheduler/framework/plugins/nodename): a pod that
// names a node (spec.nodeName) fits only there. Reason text: Kubernetes v1.35
// (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODE_NAME_H_
#define GPUSCHED_SCHED_PLUGINS_NODE_NAME_H_

#include <string_view>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonNodeName = "node(s) didn't match the requested node name";

class NodeNameFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeName"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODE_NAME_H_

// NodeUnschedulable's filter (pkg/scheduler/framework/plugins/
// nodeunschedulable): a cordoned node (spec.unschedulable) takes no pod,
// unless the pod tolerates node.kubernetes.io/unschedulable:NoSchedule.
// Reason text: Kubernetes v1.35 (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODE_UNSCHEDULABLE_H_
#define GPUSCHED_SCHED_PLUGINS_NODE_UNSCHEDULABLE_H_

#include <string_view>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonNodeUnschedulable = "node(s) were unschedulable";

class NodeUnschedulableFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeUnschedulable"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODE_UNSCHEDULABLE_H_

// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable): a
// cordoned node (spec.unschedulable) takes no pod, unless the pod tolerates
// node.kubernetes.io/unschedulable:NoSchedule. Filter only. Reason text:
// Kubernetes v1.35 (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
#define GPUSCHED_SCHED_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_

#include <string>
#include <string_view>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonNodeUnschedulable = "node(s) were unschedulable";

class NodeUnschedulable : public FilterPlugin {
 public:
  std::string_view Name() const override { return names::kNodeUnschedulable; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // isSchedulableAfterNodeChange: an added node that is not cordoned
  // (whatever the pod tolerates); registered for node events only.
  bool QueueOnNodeAdded(const PodInfo&, const Node& node, const NodeState&) const override {
    return !node.unschedulable;
  }
  bool QueueOnAssignedPodDeleted() const override { return false; }
  std::string ExclusionPhrase(const PodInfo&, const ClusterState&, int) const override {
    return "cordoned (spec.unschedulable)";
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_

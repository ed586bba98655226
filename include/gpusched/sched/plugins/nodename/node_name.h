// NodeName (pkg/scheduler/framework/plugins/nodename): a pod that names a
// node (spec.nodeName) fits only there. Filter only. Reason text: Kubernetes
// v1.35 (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODENAME_NODE_NAME_H_
#define GPUSCHED_SCHED_PLUGINS_NODENAME_NODE_NAME_H_

#include <string_view>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonNodeName = "node(s) didn't match the requested node name";

class NodeName : public FilterPlugin {
 public:
  std::string_view Name() const override { return names::kNodeName; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // EventsToRegister: Node/Add (isSchedulableAfterNodeAdd asks Fits); no pod events.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override {
    return Check(pod, node, state, nullptr);
  }
  bool QueueOnAssignedPodDeleted() const override { return false; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODENAME_NODE_NAME_H_

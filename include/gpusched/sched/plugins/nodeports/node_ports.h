// NodePorts (pkg/scheduler/framework/plugins/nodeports/node_ports.go,
// v1.35): a pod's host ports (GetHostPorts: the restartable init
// containers' and the containers' ports with a hostPort) must be free on the
// node: no pod running there holds a conflicting one (HostPortInfo
// semantics, model/host_ports.h). PreFilter skips a pod without host ports
// and keeps the pod's ports otherwise; Filter compares them with the ports
// of the pods NodeState::pods lists (so preemption's dry run, with victims
// removed, and the nominated pods added, are seen as upstream's NodeInfo
// sees them). Unschedulable, so preemption may free a port.
#ifndef GPUSCHED_SCHED_PLUGINS_NODEPORTS_NODE_PORTS_H_
#define GPUSCHED_SCHED_PLUGINS_NODEPORTS_NODE_PORTS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/model/host_ports.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

// nodeports.ErrReason.
inline constexpr const char* kReasonNodePorts = "node(s) didn't have free ports for the requested pod ports";

// The PreFilter state: the pod's host ports (upstream's preFilterState).
struct NodePortsState : PreFilterData {
  std::vector<HostPortRef> ports;
};

class NodePorts : public FilterPlugin {
 public:
  std::string_view Name() const override { return names::kNodePorts; }

  bool HasPreFilter() const override { return true; }
  // Skip (nullptr) when the pod wants no host port.
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // A pod PreFilter skips always passes.
  FilterTraits Traits() const override { return {.in_tree = true}; }

  // EventsToRegister: Pod/Delete with isSchedulableAfterPodDeleted and
  // Node/Add without a hint (Queue). A Pod/Delete event that does not say
  // which pod left (ClusterEvents::deleted_unknown) is answered Queue, as
  // the hint answers when the deleted pod held a conflicting port; one that
  // does is answered by the hint (the override below).
  bool QueueOnAssignedPodDeleted() const override { return true; }
  // isSchedulableAfterPodDeleted: Queue when `deleted` was bound or
  // nominated and holds a host port that conflicts with one of `pod`'s.
  static bool QueueOnPodDeleted(const Pod& pod, const Pod& deleted);
  // The hint for the framework (FilterPlugin::QueueOnPodDeleted): every pod
  // ClusterEvents::pods_deleted lists was bound, though its Pod keeps the
  // spec's nodeName (often ""), so only the ports are compared.
  bool QueueOnPodDeleted(const PodInfo& pod, const Pod& deleted) const override;

  // What runs on a node decides: never "can never fit".
  int NeverPasses(const PodInfo&, const Node&, const NodeState&) const override { return 0; }
  // Conflict(): the pod and port in the way.
  std::string ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const override {
    return Conflict(*pod.pod, node, state);
  }

  // nodeports.Fits (kubelet admission's check of a bound pod).
  static bool Fits(const Pod& pod, const NodeState& state);
  // "node a runs web-0, which holds hostPort 8080/TCP" for a node whose
  // pods take one of `pod`'s host ports; "" when none does.
  static std::string Conflict(const Pod& pod, const Node& node, const NodeState& state);
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODEPORTS_NODE_PORTS_H_

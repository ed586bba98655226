// NodePorts: pkg/scheduler/framework/plugins/nodeports/node_ports.go (v1.35)
// with pkg/scheduler/util GetHostPorts and k8s.io/kube-scheduler/framework
// HostPortInfo (model/host_ports.h).
//
// Upstream keeps each node's ports in a set (NodeInfo.UsedPorts) that
// RemovePod takes a pod's entries out of; gpusched compares with the pods
// the node lists, which differs only where two pods on one node hold the
// same port (possible only for pods bound by nodeName past the kubelet):
// upstream then forgets the port once either pod is removed, gpusched keeps
// it while one remains.
#include "gpusched/sched/plugins/nodeports/node_ports.h"

namespace gpusched {
namespace {

// The first port of `want` some port of `other` conflicts with.
const HostPortRef* Taken(const std::vector<HostPortRef>& want, const Pod& other, HostPortRef* held) {
  const HostPortRef* hit = nullptr;
  ForEachHostPort(other, [&](const HostPortRef& used) {
    for (const HostPortRef& w : want)
      if (HostPortConflict(w, used)) {
        hit = &w;
        if (held) *held = used;
        return false;
      }
    return true;
  });
  return hit;
}

bool FitsPorts(const std::vector<HostPortRef>& want, const NodeState& state) {
  for (const BoundPod& b : state.pods)
    if (b.pod != nullptr && Taken(want, *b.pod, nullptr) != nullptr) return false;
  return true;
}

}  // namespace

std::unique_ptr<PreFilterData> NodePorts::PreFilter(const PodInfo& pod, const ClusterState&, SchedStatus&) const {
  // PodInfo::pod_aware is false for a pod without host ports (nor any other
  // field a plugin compares with other pods): the common case costs a load.
  if (!pod.pod_aware || !HasHostPorts(*pod.pod)) return nullptr;  // Skip
  auto s = std::make_unique<NodePortsState>();
  s->ports = HostPorts(*pod.pod);
  return s;
}

bool NodePorts::Check(const PodInfo& pod, const Node&, const NodeState& state, FilterVerdict* why) const {
  const NodePortsState* s = pod.cycle ? pod.cycle->Get<NodePortsState>(this) : nullptr;
  if (s == nullptr) return true;  // PreFilter skipped: no host port
  if (FitsPorts(s->ports, state)) return true;
  if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonNodePorts);
  return false;
}

bool NodePorts::QueueOnPodDeleted(const Pod& pod, const Pod& deleted) {
  // An unscheduled pod held nothing.
  if (deleted.node_name.empty() && deleted.nominated_node_name.empty()) return false;
  return Taken(HostPorts(pod), deleted, nullptr) != nullptr;
}

bool NodePorts::QueueOnPodDeleted(const PodInfo& pod, const Pod& deleted) const {
  return Taken(HostPorts(*pod.pod), deleted, nullptr) != nullptr;
}

bool NodePorts::Fits(const Pod& pod, const NodeState& state) {
  return !HasHostPorts(pod) || FitsPorts(HostPorts(pod), state);
}

std::string NodePorts::Conflict(const Pod& pod, const Node& node, const NodeState& state) {
  if (!HasHostPorts(pod)) return "";  // the common case: asked of every filter by the diagnosis
  const std::vector<HostPortRef> want = HostPorts(pod);
  for (const BoundPod& b : state.pods) {
    if (b.pod == nullptr) continue;
    HostPortRef held;
    if (Taken(want, *b.pod, &held) != nullptr)
      return "node " + node.name() + " runs " + b.pod->name() + ", which holds hostPort " + HostPortString(held);
  }
  return "";
}

}  // namespace gpusched

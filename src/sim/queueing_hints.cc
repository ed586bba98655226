#include "gpusched/sim/queueing_hints.h"

#include <string_view>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {
namespace {

// isFit (noderesources/fit.go): the pod's requests against the node alone,
// no pod on it, no resource ignored.
bool FitsEmptyNode(const PodInfo& pod, const NodeState& node) {
  const Resources& r = pod.requests;
  const Resources& a = node.allocatable;
  if (a.allowed_pods < 1) return false;
  if (r.milli_cpu > 0 && r.milli_cpu > a.milli_cpu) return false;
  if (r.memory > 0 && r.memory > a.memory) return false;
  if (r.ephemeral_storage > 0 && r.ephemeral_storage > a.ephemeral_storage) return false;
  for (const auto& [name, v] : r.scalars)
    if (v > 0 && v > a.Scalar(name)) return false;
  return true;
}

// The hint of the plugin called `name` for a node added as `added`.
bool QueueOnNodeAdd(std::string_view name, const FilterPlugin& plugin, const PodInfo& pod,
                    const ClusterEvents::AddedNode& added) {
  if (name == "NodeResourcesFit") return FitsEmptyNode(pod, added.state);
  // NodeUnschedulable's isSchedulableAfterNodeChange: an added node that is
  // not cordoned (whatever the pod tolerates).
  if (name == "NodeUnschedulable") return !added.node->unschedulable;
  // TaintToleration (no untolerated NoSchedule/NoExecute taint), NodeAffinity
  // (requiredNodeAffinity.Match: nodeSelector and required terms), NodeName
  // (Fits) and GpuShare ask of an added node what their filter asks of it.
  if (name == "TaintToleration" || name == "NodeAffinity" || name == "NodeName" || name == "GpuShare")
    return plugin.Check(pod, *added.node, added.state, nullptr);
  return true;  // a plugin without hints: Queue
}

bool QueueOnAssignedPodDelete(std::string_view name) {
  if (name == "NodeResourcesFit" || name == "GpuShare") return true;
  // Registered for node events only.
  if (name == "NodeUnschedulable" || name == "TaintToleration" || name == "NodeAffinity" || name == "NodeName")
    return false;
  return true;
}

}  // namespace

bool WorthRequeuing(const std::vector<std::unique_ptr<FilterPlugin>>& filters, uint64_t rejectors, const PodInfo& pod,
                    const ClusterEvents& events) {
  if (rejectors == 0) return true;  // "Worth requeuing because no failed plugins"
  for (size_t k = 0; k < 64; ++k) {
    if (!(rejectors >> k & 1)) continue;
    // Bit 63 also stands for every filter past the 63rd: ask as for an unknown one.
    if (k >= filters.size() || k == 63) return true;
    const FilterPlugin& plugin = *filters[k];
    const std::string_view name = plugin.Name();
    if (events.assigned_pod_deleted && QueueOnAssignedPodDelete(name)) return true;
    for (const ClusterEvents::AddedNode& added : events.nodes_added)
      if (QueueOnNodeAdd(name, plugin, pod, added)) return true;
  }
  return false;
}

}  // namespace gpusched

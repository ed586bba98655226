// Nominated pods, as kube-scheduler's nominator keeps them
// (pkg/scheduler/backend/queue/nominator.go) and as the framework counts them
// when it filters a node (pkg/scheduler/framework/runtime/framework.go,
// RunFilterPluginsWithNominatedPods and addGENominatedPods):
//  - a pod DefaultPreemption nominated (status.nominatedNodeName) holds its
//    node until it binds or is deleted, or until a later PostFilter clears
//    the nomination (NominatingInfo ModeOverride with "");
//  - when a pod is filtered on a node, the pods nominated to that node with
//    priority >= its own (itself excluded) are added to a copy of the node
//    and the filters run on that copy; when any was added they run again
//    on the node as it is, and the pod passes only if both pass (a
//    nominated pod that never binds must not make a filter pass that the
//    plain node fails, e.g. inter-pod affinity).
// Without this a lower-priority pod could take the room a preemptor's
// victims freed before the preemptor binds, and the preemptor preempt it
// again, without end.
#ifndef GPUSCHED_SCHED_PLUGINS_NOMINATED_PODS_H_
#define GPUSCHED_SCHED_PLUGINS_NOMINATED_PODS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// A pod nominated to a node (status.nominatedNodeName) that is not bound yet.
struct NominatedPod {
  const PodInfo* pod = nullptr;
  size_t node = 0;
};

// The nominator: at most one node per pod (identified by its Pod), pods per
// node in nomination order. The PodInfo handed to Nominate must outlive the
// nomination.
class NominatedPods {
 public:
  // AddNominatedPod with ModeOverride: replaces the pod's earlier nomination.
  void Nominate(const PodInfo& pod, size_t node);
  // DeleteNominatedPodIfExists: the pod bound, was deleted, or its
  // PostFilter cleared the nomination.
  void Remove(const Pod* pod);
  std::optional<size_t> NodeOf(const Pod* pod) const;
  bool empty() const { return node_of_.empty(); }
  size_t size() const { return node_of_.size(); }
  // Some pod other than `pod`, of priority >= pod's, is nominated somewhere:
  // filtering `pod` may have to count it.
  bool Affects(const PodInfo& pod) const;
  // The pods to add when `pod` is filtered on `node` (addGENominatedPods):
  // nominated there, priority >= pod's, not pod itself; in nomination order.
  void On(size_t node, const PodInfo& pod, std::vector<const PodInfo*>& out) const;
  // Every nomination, by node then nomination order (PreemptionInputs).
  std::vector<NominatedPod> All() const;

 private:
  struct Entry {
    const PodInfo* info;
    size_t node;
  };
  std::unordered_map<const Pod*, Entry> node_of_;
  std::map<size_t, std::vector<const PodInfo*>> by_node_;
  std::multiset<int32_t> priorities_;
};

// RemovePod's inverse (NodeInfo.AddPodInfo): `p` accounted on `s` and
// appended to its pod list.
void AddPodBack(NodeState& s, const BoundPod& p);
// NodeInfo.RemovePod on a dry-run copy: `p`'s usage taken off `s`
// (NodeState::Remove) and `p` (same bind_seq) out of its pod list.
void RemovePod(NodeState& s, const BoundPod& p);

// What the filters read of a node: the accounting and the pod list (which
// InterPodAffinity, PodTopologySpread, NodePorts and the volume filters
// read), not the caches a ClusterState keeps. The copy dry runs add pods
// to and take them off.
NodeState AccountingCopy(const NodeState& o);

// A nominated pod accounted on a node copy: its requests, and the devices
// the device plugin would hand it (lowest free first; a share on the
// fullest device it fits), when they are free.
void AddNominatedPod(NodeState& s, const PodInfo& p);

// RunFilterPluginsWithNominatedPods for `pod` on node `index`: the failing
// plugin (its verdict in `why`), or nullptr when the filters pass with the
// nominated pods added and, when some were, without them too. `scratch`
// is reused for the copy.
const FilterPlugin* CheckFiltersWithNominated(const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                              const PodInfo& pod, const Node& node, size_t index,
                                              const NodeState& state, const NominatedPods& nominated,
                                              FilterVerdict& why, std::vector<const PodInfo*>& scratch);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NOMINATED_PODS_H_

// PlainNodes: where the node index settles the whole filter chain without
// running it. A node is "plain" when it is not cordoned and has no
// NoSchedule/NoExecute taint: NodeUnschedulable and TaintToleration pass
// there whatever the pod. For a pod the index decides (Decides: no
// nodeName, nodeSelector or required affinity, no extended resource beyond
// what NodeFitIndex holds, a GPU request the largest free share settles), a
// plain node whose exact free amounts meet NodeFitIndex::NeedOf(pod) passes
// every filter of a declared chain (ChainTraits::declared, checks_fit).
//
// Used by IndexedScan and PolicyIndexSearch, both of which ask only about
// nodes whose exact free amounts meet the pod's need.
#ifndef GPUSCHED_SCHED_FRAMEWORK_PLAIN_NODES_H_
#define GPUSCHED_SCHED_FRAMEWORK_PLAIN_NODES_H_

#include <cstdint>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/framework/chain_traits.h"

namespace gpusched {

class PlainNodes {
 public:
  // True when, under `chain`, a plain node meeting the pod's need passes
  // every filter.
  static bool Decides(const ChainTraits& chain, const PodInfo& pod);

  // Brings the per-node flags up to date with `cluster` (a node's labels,
  // taints and cordon never change once added: only new slots are read).
  void Sync(const ClusterState& cluster);
  // Node i is plain (as of the last Sync).
  bool plain(size_t i) const { return plain_[i] != 0; }

 private:
  std::vector<uint8_t> plain_;  // per node slot
  uint64_t serial_ = 0;         // ClusterState::serial() of the cluster followed
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_PLAIN_NODES_H_

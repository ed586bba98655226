// What Reserve assumes (binder.go AssumePodVolumes, over the PV and PVC
// assume caches of assume_cache.go): once a pod with WaitForFirstConsumer
// claims is bound to a node, each claim that matched an available PV holds
// that PV (its claimRef, as the PV controller then binds it), and each claim
// to provision is provisioned on that node (its selected-node annotation).
// The next pods see it: another claim cannot take the PV, and a pod sharing
// the claim must go where the volume is.
//
// gpusched has no Reserve step: the cache catches up with the cluster's
// binds lazily, from its change log (model/change_log.h), when a pod with
// volumes reaches PreFilter, replaying each newly bound pod's binding on its
// node in bind order. Assumptions are never reverted (upstream's binding
// persists when the pod goes). An input without WaitForFirstConsumer classes
// never touches it.
#ifndef GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_ASSUME_CACHE_H_
#define GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_ASSUME_CACHE_H_

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/plugins/volumebinding/binder.h"

namespace gpusched {

class AssumeCache {
 public:
  // Catches up with the binds of `cluster` since the last call.
  void Sync(const ClusterState& cluster);
  // The claims of one pod as the assumptions change them: delayed claims
  // provisioned on a node get their selected-node annotation, PVs taken by a
  // claim get its claimRef (copies, owned by the two deques).
  void Apply(PodVolumeClaims& claims, std::deque<PersistentVolumeClaim>& claim_copies,
             std::deque<PersistentVolume>& pv_copies) const;

  size_t assumed_pvs() const { return pv_claim_.size(); }
  size_t assumed_provisions() const { return selected_.size(); }

 private:
  void Reset(const ClusterState& cluster);
  void ScanNode(const ClusterState& cluster, size_t i);
  void Assume(const Pod& pod, const Node& node, const VolumeObjects& objects);

  uint64_t serial_ = 0;
  uint64_t pos_ = 0;
  bool synced_ = false;
  std::unordered_map<const PersistentVolume*, const PersistentVolumeClaim*> pv_claim_;
  std::unordered_map<const PersistentVolumeClaim*, std::string> selected_;
  std::unordered_set<uint64_t> done_;  // bind_seq of the pods replayed
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_ASSUME_CACHE_H_

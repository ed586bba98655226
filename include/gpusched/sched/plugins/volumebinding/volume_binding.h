// VolumeBinding (pkg/scheduler/framework/plugins/volumebinding/
// volume_binding.go, v1.35). PreFilter: Skip for a pod without
// PersistentVolumeClaims (persistentVolumeClaim or generic ephemeral
// volumes); UnschedulableAndUnresolvable with the error for a claim that
// is missing, lost, being deleted or (ephemeral) not the pod's, and "pod has
// unbound immediate PersistentVolumeClaims" when an Immediate claim is not
// bound. Filter (binder.h FindPodVolumes): bound PVs' node affinity, and for
// WaitForFirstConsumer claims an available PV on the node or a provisioner
// whose allowedTopologies admit it; every reason UnschedulableAndUnresolvable.
//
// A run that reads no API objects at all (ClusterState::has_objects: serve,
// until it lists them) skips the four volume plugins, as before them.
//
// Reserve is replayed lazily (assume_cache.h): the PV a bound pod's claim
// took is not available to the next pod's claims. Not modelled: PreBind
// (the API updates), in-tree PV translation to CSI (CSINode migrated-plugins),
// and storage capacity (CSIStorageCapacity: capacity always suffices, so
// "node(s) did not have enough free storage" never appears). Score runs
// only with the StorageCapacityScoring gate, alpha and off in v1.35: the
// plugin does not score.
#ifndef GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
#define GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_

#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/volumebinding/assume_cache.h"
#include "gpusched/sched/plugins/volumebinding/binder.h"

namespace gpusched {

inline constexpr const char* kReasonUnboundImmediateClaims = "pod has unbound immediate PersistentVolumeClaims";

class VolumeBinding : public FilterPlugin, public ScorePlugin {
 public:
  // The PreFilter state (stateData): the pod's claims and the objects they
  // were read from (the cluster's, alive while it is).
  struct State : PreFilterData {
    PodVolumeClaims claims;
    const VolumeObjects* objects = nullptr;
    // The claims and PVs the assume cache changed, which `claims` points at.
    std::deque<PersistentVolumeClaim> claim_copies;
    std::deque<PersistentVolume> pv_copies;
  };

  std::string_view Name() const override { return names::kVolumeBinding; }
  bool HasPreFilter() const override { return true; }
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // Pods it skips pass everywhere; it never reads other pods.
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // EventsToRegister: Node Add (no hint: Queue), StorageClass, PVC, PV,
  // CSINode, CSIDriver and CSIStorageCapacity events (none happens in a
  // gpusched run: those objects do not change); no pod event.
  bool QueueOnAssignedPodDeleted() const override { return false; }
  // Filter reads the node's labels and the storage objects only, never what
  // runs there: a rejection holds whatever is evicted.
  int NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;

  // PreScore: Skip unless StorageCapacityScoring is on (alpha, off in
  // v1.35: the scorer is nil), so VolumeBinding never scores.
  bool PreScore(const PodInfo&, const ClusterState&) const override { return false; }
  int64_t Score(const PodInfo&, const Node&, const NodeState&) const override { return 0; }

 private:
  // Reserve's assumptions, caught up lazily by PreFilter (a cache of the
  // cluster's binds, keyed by its serial; untouched without
  // WaitForFirstConsumer classes).
  mutable AssumeCache assumed_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_

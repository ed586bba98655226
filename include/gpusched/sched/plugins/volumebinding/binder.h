// The scheduler's volume binder (pkg/scheduler/framework/plugins/
// volumebinding/binder.go, v1.35) as far as Filter reads it: a pod's claims
// sorted by GetPodVolumeClaims, and FindPodVolumes for one node. The
// binding itself (Reserve, PreBind: the API updates the PV controller then
// completes) is not modelled; see volume_binding.h.
#ifndef GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_BINDER_H_
#define GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_BINDER_H_

#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/volume_objects.h"

namespace gpusched {

// ConflictReason values (binder.go).
inline constexpr const char* kErrReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
inline constexpr const char* kErrReasonNodeConflict = "node(s) had volume node affinity conflict";
inline constexpr const char* kErrReasonNotEnoughSpace = "node(s) did not have enough free storage";
inline constexpr const char* kErrReasonPVNotExist =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

// GetPodVolumeClaims: the pod's claims, bound (fully: volumeName and the
// bind-completed annotation), unbound with delayed binding
// (WaitForFirstConsumer, no volumeName) and unbound immediate (the rest,
// prebound claims included); with the PVs of each delayed claim's class.
struct PodVolumeClaims {
  std::vector<const PersistentVolumeClaim*> bound;
  std::vector<const PersistentVolumeClaim*> unbound_immediate;
  std::vector<const PersistentVolumeClaim*> unbound_delay_binding;
  // unboundVolumesDelayBinding, one list per unbound_delay_binding entry
  // (the PVs of its storage class, in input order).
  std::vector<std::vector<const PersistentVolume*>> delay_binding_pvs;
};

// podHasPVCs and GetPodVolumeClaims together: "" and the claims, or the
// error PreFilter turns into an UnschedulableAndUnresolvable status
// ("persistentvolumeclaim \"x\" not found", "... is being deleted"...).
// `has_claims` says whether the pod uses a claim at all (Skip otherwise).
std::string GetPodVolumeClaims(const Pod& pod, const VolumeObjects& objects, PodVolumeClaims& out, bool& has_claims);

// For the diagnosis of a pod PreFilter rejected with "pod has unbound
// immediate PersistentVolumeClaims": why its first such claim waits, in
// words ("claim ml/data asks for StorageClass fast, which is not in the
// input: ..."); "" when it has none.
std::string ExplainUnboundImmediateClaim(const Pod& pod, const VolumeObjects& objects);

// The outcome of FindPodVolumes on one node: each false flag is one reason,
// in upstream's order (ConflictReasons).
struct FindResult {
  bool bound_satisfied = true;    // ErrReasonNodeConflict
  bool unbound_satisfied = true;  // ErrReasonBindConflict
  bool sufficient_storage = true; // ErrReasonNotEnoughSpace (never false: CSIStorageCapacity is not read)
  bool bound_pvs_found = true;    // ErrReasonPVNotExist
  bool ok() const { return bound_satisfied && unbound_satisfied && sufficient_storage && bound_pvs_found; }
};

// PodVolumes: what Reserve would assume for the node (StaticBindings: a PV
// for each matched claim; DynamicProvisions: the claims to provision).
struct PodVolumes {
  std::vector<std::pair<const PersistentVolume*, const PersistentVolumeClaim*>> static_bindings;
  std::vector<const PersistentVolumeClaim*> dynamic_provisions;
};

// FindPodVolumes for `node`, the delayed claims sorted by size already
// (byPVCSize, done once in PreFilter); `volumes`, when given, receives the
// bindings when the node fits.
FindResult FindPodVolumes(const PodVolumeClaims& claims, const VolumeObjects& objects, const Node& node,
                          PodVolumes* volumes = nullptr);

// volume.FindMatchingVolume in the scheduler's path (node given, delayed
// binding): the PV prebound to the claim (nullptr when its node affinity
// fails), else the smallest Available PV of the claim's class that fits
// it, matches its selector, access modes, volume mode and volume
// attributes class, is not being deleted and whose node affinity matches
// the node; `excluded` PVs are skipped.
const PersistentVolume* FindMatchingVolume(const PersistentVolumeClaim& claim,
                                           const std::vector<const PersistentVolume*>& pvs, const Node& node,
                                           const std::vector<const PersistentVolume*>& excluded);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_VOLUMEBINDING_BINDER_H_

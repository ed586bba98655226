// VolumeRestrictions (pkg/scheduler/framework/plugins/volumerestrictions/
// volume_restrictions.go, v1.35). Filter: the pod's inline GCE PD, AWS EBS,
// RBD and iSCSI volumes must not conflict with those of the pods on the node
// (same disk, unless every mount is read-only; EBS always conflicts),
// "node(s) had no available disk"; and no other pod may use one of its
// ReadWriteOncePod claims, "node has pod using PersistentVolumeClaim with
// the same name and ReadWriteOncePod access mode" (a count over the whole
// cluster, as upstream keeps it). Both Unschedulable: preemption may free
// them. PreFilter: a missing claim is UnschedulableAndUnresolvable
// ("persistentvolumeclaim \"x\" not found"); Skip without inline disks and
// without a ReadWriteOncePod claim in use.
#ifndef GPUSCHED_SCHED_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
#define GPUSCHED_SCHED_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonDiskConflict = "node(s) had no available disk";
inline constexpr const char* kReasonReadWriteOncePodConflict =
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";

class VolumeRestrictions : public FilterPlugin {
 public:
  struct State : PreFilterData {
    bool needs_disk_check = false;                 // the pod has an inline GCE PD, EBS, RBD or iSCSI volume
    std::vector<std::string> read_write_once_pod;  // "ns/claim" of its ReadWriteOncePod claims
    // conflictingPVCRefCount: how many of those claims running pods use.
    int conflicting = 0;
    // What each node's pods contributed to it (references to the claims),
    // for the dry runs' AddPod/RemovePod (cycle_state.h).
    std::unordered_map<std::string, int> node_refs;
  };

  std::string_view Name() const override { return names::kVolumeRestrictions; }
  bool HasPreFilter() const override { return true; }
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // A conflict is with pods: only they can end it (Pod delete, with a hint
  // gpusched does not narrow), not a new node.
  bool QueueOnNodeAdded(const PodInfo&, const Node&, const NodeState&) const override { return false; }
  // The pods on a node decide: never for good.
  int NeverPasses(const PodInfo&, const Node&, const NodeState&) const override { return 0; }
};

// isVolumeConflict: `v` (an inline volume of the incoming pod) and a volume
// of a pod already on the node name the same disk in a way that cannot be
// shared.
bool IsVolumeConflict(const PodVolume& v, const Pod& existing);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_

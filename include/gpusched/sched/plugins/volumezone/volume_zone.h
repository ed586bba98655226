// VolumeZone (pkg/scheduler/framework/plugins/volumezone/volume_zone.go,
// v1.35). PreFilter reads the zone and region labels (both the
// failure-domain.beta.kubernetes.io and the topology.kubernetes.io
// spellings; "a__b" lists several zones) of the PVs bound to the pod's
// persistentVolumeClaim volumes, skipping WaitForFirstConsumer claims not
// yet bound; Skip when none has such a label. Filter: a node with any
// zone/region label must carry each PV label's key (a beta key also matches
// the node's GA key) with one of its values, else "node(s) had no available
// volume zone" (UnschedulableAndUnresolvable); a node with none passes.
#ifndef GPUSCHED_SCHED_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
#define GPUSCHED_SCHED_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonVolumeZoneConflict = "node(s) had no available volume zone";

class VolumeZone : public FilterPlugin {
 public:
  // pvTopology: one topology label of one PV.
  struct PvTopology {
    std::string pv_name;
    std::string key;
    std::vector<std::string> values;
  };
  struct State : PreFilterData {
    std::vector<PvTopology> topologies;
  };

  std::string_view Name() const override { return names::kVolumeZone; }
  bool HasPreFilter() const override { return true; }
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // EventsToRegister: Node Add (Queue), StorageClass, PVC and PV events
  // (which do not happen in a run); no pod event.
  bool QueueOnAssignedPodDeleted() const override { return false; }
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_

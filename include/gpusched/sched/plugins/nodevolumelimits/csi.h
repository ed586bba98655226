// NodeVolumeLimits (pkg/scheduler/framework/plugins/nodevolumelimits/csi.go,
// CSILimits, v1.35): the CSI volumes of the pod's claims (persistentVolumeClaim
// and generic ephemeral volumes) that are not on the node yet, with those of
// the pods there, must stay within what the node's CSINode allows each
// driver (drivers[].allocatable.count); "node(s) exceed max volume count",
// Unschedulable. A volume is its PV's CSI driver and volume handle; an
// unbound claim counts for its StorageClass's provisioner under a name of
// its own. A node without CSINode or limits takes any number.
//
// Not modelled: in-tree volumes migrated to CSI (the CSINode's
// migrated-plugins annotation and csi-translation-lib: an in-tree PV or
// inline GCE PD/EBS/Azure Disk/Cinder volume is not counted), and volumes
// still attached by VolumeAttachments of pods gone.
#ifndef GPUSCHED_SCHED_PLUGINS_NODEVOLUMELIMITS_CSI_H_
#define GPUSCHED_SCHED_PLUGINS_NODEVOLUMELIMITS_CSI_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";

class CSILimits : public FilterPlugin {
 public:
  struct State : PreFilterData {
    const VolumeObjects* objects = nullptr;
    // The pod's own CSI volumes (unique name to driver), the same on every
    // node (filterAttachableVolumes of the new pod).
    std::map<std::string, std::string> new_volumes;
    // The error reading them gave (a claim missing or not the pod's), which
    // Filter reports on every node, as upstream's does; "" when none.
    std::string error;
  };

  std::string_view Name() const override { return names::kNodeVolumeLimits; }
  bool HasPreFilter() const override { return true; }
  // Skip unless the pod has a persistentVolumeClaim or ephemeral volume
  // (an inline volume migrated to CSI would count too: not modelled). The
  // pod's own volumes do not depend on the node: they are read once here.
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // The count depends on the pods there.
  int NeverPasses(const PodInfo&, const Node&, const NodeState&) const override { return 0; }

  // filterAttachableVolumes: the pod's CSI volumes, unique name
  // ("driver/handle") to driver, into `out`. For the incoming pod
  // (`new_pod`) a missing claim is an error (returned, "" otherwise); an
  // existing pod's missing claim is not counted.
  static std::string AttachableVolumes(const Pod& pod, const VolumeObjects& objects, bool new_pod,
                                       std::map<std::string, std::string>& out);
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODEVOLUMELIMITS_CSI_H_

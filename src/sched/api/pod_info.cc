#include "gpusched/sched/api/pod_info.h"

#include "gpusched/model/host_ports.h"

namespace gpusched {

bool PodAwareSpec(const Pod& pod) {
  if (HasHostPorts(pod)) return true;  // NodePorts
  // Volumes: their claims, PVs and inline disks decide (VolumeBinding,
  // VolumeZone, VolumeRestrictions, NodeVolumeLimits).
  if (pod.HasVolumes()) return true;
  // PodTopologySpread: its constraints count the pods they select.
  if (!pod.Extras().topology_spread_constraints.empty()) return true;
  // InterPodAffinity: podAffinity / podAntiAffinity.
  if (HasPodAffinity(pod)) return true;
  // DynamicResources: its claims and the devices other claims hold.
  if (pod.HasResourceClaims()) return true;
  return false;
}

}  // namespace gpusched

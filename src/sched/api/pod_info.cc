#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

bool PodAwareSpec(const Pod& pod) {
  // Volumes: their claims, PVs and inline disks decide (VolumeBinding,
  // VolumeZone, VolumeRestrictions, NodeVolumeLimits).
  if (pod.HasVolumes()) return true;
  (void)pod;
  return false;
}

}  // namespace gpusched

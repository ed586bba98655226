#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

bool PodAwareSpec(const Pod& pod) {
  // InterPodAffinity: podAffinity / podAntiAffinity.
  if (HasPodAffinity(pod)) return true;
  return false;
}

}  // namespace gpusched

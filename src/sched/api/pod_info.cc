#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

bool PodAwareSpec(const Pod& pod) {
  (void)pod;
  return false;
}

}  // namespace gpusched

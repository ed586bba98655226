#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

bool PodAwareSpec(const Pod& pod) {
  // PodTopologySpread: its constraints count the pods they select.
  if (!pod.Extras().topology_spread_constraints.empty()) return true;
  return false;
}

}  // namespace gpusched

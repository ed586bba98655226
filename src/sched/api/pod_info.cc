#include "gpusched/sched/api/pod_info.h"

#include "gpusched/model/host_ports.h"

namespace gpusched {

bool PodAwareSpec(const Pod& pod) {
  if (HasHostPorts(pod)) return true;  // NodePorts
  return false;
}

}  // namespace gpusched

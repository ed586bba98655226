#include "gpusched/model/pod_requests.h"

namespace gpusched {

// Port of PodRequests (k8s.io/component-helpers/resource/helpers.go) for pods
// without pod-level resources. The worked example in fit.go's comment
// (IC1 2cpu/1G, IC2 2cpu/3G, C1 2cpu/1G, C2 1cpu/1G -> 3 cpu, 3G) is a test case.
Resources ComputePodRequests(const Pod& pod) {
  Resources reqs;
  for (const auto& c : pod.containers) reqs.Add(Resources::FromList(c.requests));

  Resources restartable_init_reqs;
  Resources init_reqs;
  for (const auto& ic : pod.init_containers) {
    Resources container_reqs = Resources::FromList(ic.requests);
    if (ic.IsRestartableInit()) {
      // Sidecars run for the pod's whole life: they add to the regular sum.
      reqs.Add(container_reqs);
      restartable_init_reqs.Add(container_reqs);
      container_reqs = restartable_init_reqs;
    } else {
      container_reqs.Add(restartable_init_reqs);
    }
    init_reqs.Max(container_reqs);
  }
  reqs.Max(init_reqs);
  reqs.Add(Resources::FromList(pod.overhead));
  reqs.allowed_pods = 0;  // "pods" is not a container resource
  return reqs;
}

}  // namespace gpusched

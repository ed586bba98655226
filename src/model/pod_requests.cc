#include "gpusched/model/pod_requests.h"

#include "gpusched/model/pod_level_resources.h"

namespace gpusched {

// Port of PodRequests (k8s.io/component-helpers/resource/helpers.go), with
// pod-level resources as kube-scheduler v1.35 passes them
// (SkipPodLevelResources: false, PodLevelResources being on). The worked
// example in fit.go's comment (IC1 2cpu/1G, IC2 2cpu/3G, C1 2cpu/1G,
// C2 1cpu/1G -> 3 cpu, 3G) is a test case.
namespace {

// A supported pod-level request replaces the containers' aggregate for its
// resource (PodRequests: reqs[resourceName] = quantity), converted as
// framework.Resource does.
void ApplyPodLevelRequests(const Pod& pod, Resources& reqs) {
  if (!IsPodLevelRequestsSet(pod)) return;
  for (const auto& [name, q] : pod.Extras().resources->requests) {
    if (!IsSupportedPodLevelResource(name)) continue;
    if (name == kResourceCPU) {
      reqs.milli_cpu = q.MilliValue();
    } else if (name == kResourceMemory) {
      reqs.memory = q.Value();
    } else {
      reqs.SetScalar(name, q.Value());
    }
  }
}

Resources ContainerRequests(const Container& c, bool non_missing_defaults) {
  Resources r = Resources::FromList(c.requests);
  if (non_missing_defaults) {
    if (!c.requests.count(std::string(kResourceCPU))) r.milli_cpu = kDefaultMilliCPURequest;
    if (!c.requests.count(std::string(kResourceMemory))) r.memory = kDefaultMemoryRequest;
  }
  return r;
}

Resources PodRequests(const Pod& pod, bool non_missing_defaults) {
  Resources reqs;
  for (const auto& c : pod.containers) reqs.Add(ContainerRequests(c, non_missing_defaults));

  Resources restartable_init_reqs;
  Resources init_reqs;
  for (const auto& ic : pod.init_containers) {
    Resources container_reqs = ContainerRequests(ic, non_missing_defaults);
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
  ApplyPodLevelRequests(pod, reqs);
  reqs.Add(Resources::FromList(pod.overhead));
  reqs.allowed_pods = 0;  // "pods" is not a container resource
  return reqs;
}

}  // namespace

Resources ComputePodRequests(const Pod& pod) { return PodRequests(pod, false); }

Resources ComputeNonZeroPodRequests(const Pod& pod) { return PodRequests(pod, true); }

}  // namespace gpusched

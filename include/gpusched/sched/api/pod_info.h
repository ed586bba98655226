// PodInfo: a pod waiting to be scheduled, with its effective request computed
// once (kube-scheduler's PreFilter state for NodeResourcesFit).
#ifndef GPUSCHED_SCHED_API_POD_INFO_H_
#define GPUSCHED_SCHED_API_POD_INFO_H_

#include <cstddef>

#include "gpusched/model/gpu_request.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/pod_requests.h"
#include "gpusched/model/resources.h"
#include "gpusched/sched/api/cycle_state.h"

namespace gpusched {

// True when the pod's spec has a field a filter compares with other pods or
// the node's pods (pod affinity and anti-affinity, topology spread
// constraints, host ports, volumes): the plugins that read such a field add
// it here (pod_info.cc).
bool PodAwareSpec(const Pod& pod);

struct PodInfo {
  const Pod* pod = nullptr;
  Resources requests;
  // Requests with scoring defaults (100m cpu / 200Mi memory per container
  // that sets none), for the Least/Most/RTC scorers.
  Resources non_zero_requests;
  size_t input_index = 0;  // position in the input, the queue's arrival order
  // What it asks of GPU devices: whole nvidia.com/gpu or a share (annotations).
  GpuRequest gpu;

  // Read off `pod` and `requests` once by Make: the scheduler asks them of
  // every pod on its fast path, and on a long queue each question about the
  // Pod itself (or the request's scalar list) is a cache miss.
  int64_t whole_gpus = 0;        // nvidia.com/gpu requested
  bool other_extended = false;   // some other extended resource requested (> 0)
  bool unconstrained = true;     // no nodeName, nodeSelector, node affinity or tolerations
  int32_t priority = 0;          // Pod::Priority()
  // The spec has something a plugin compares with other pods (PodAwareSpec):
  // such a pod is of a class of its own (pod_class.h).
  bool pod_aware = false;
  // This attempt's PreFilter state (cycle_state.h), set by the framework on
  // its own copy of the PodInfo while it filters the pod; nullptr when every
  // PreFilter skipped the pod (and outside an attempt).
  const CycleState* cycle = nullptr;

  static PodInfo Make(const Pod& pod, size_t input_index) {
    Resources requests = ComputePodRequests(pod);
    const int64_t whole = PodGpuRequest(requests);
    GpuRequest gpu = ComputeGpuRequest(pod, whole);
    PodInfo info{&pod, std::move(requests), ComputeNonZeroPodRequests(pod), input_index, std::move(gpu)};
    info.whole_gpus = whole;
    for (const auto& [name, v] : info.requests.scalars) info.other_extended |= v > 0 && name != kResourceGPU;
    info.unconstrained =
        pod.node_selector.empty() && !pod.node_affinity && pod.tolerations.empty() && pod.node_name.empty();
    info.priority = pod.Priority();
    info.pod_aware = PodAwareSpec(pod);
    return info;
  }
  int64_t gpus() const { return whole_gpus; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_POD_INFO_H_

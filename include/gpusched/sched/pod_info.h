// PodInfo: a pod waiting to be scheduled, with its effective request computed
// once (kube-scheduler's PreFilter state for NodeResourcesFit).
#ifndef GPUSCHED_SCHED_POD_INFO_H_
#define GPUSCHED_SCHED_POD_INFO_H_

#include <cstddef>

#include "gpusched/model/gpu_request.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/pod_requests.h"
#include "gpusched/model/resources.h"

namespace gpusched {

struct PodInfo {
  const Pod* pod = nullptr;
  Resources requests;
  // Requests with scoring defaults (100m cpu / 200Mi memory per container
  // that sets none), for the Least/Most/RTC scorers.
  Resources non_zero_requests;
  size_t input_index = 0;  // position in the input, the queue's arrival order
  // What it asks of GPU devices: whole nvidia.com/gpu or a share (annotations).
  GpuRequest gpu;

  static PodInfo Make(const Pod& pod, size_t input_index) {
    Resources requests = ComputePodRequests(pod);
    GpuRequest gpu = ComputeGpuRequest(pod, PodGpuRequest(requests));
    return PodInfo{&pod, std::move(requests), ComputeNonZeroPodRequests(pod), input_index, std::move(gpu)};
  }
  int64_t gpus() const { return PodGpuRequest(requests); }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POD_INFO_H_

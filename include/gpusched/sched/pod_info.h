// PodInfo: a pod waiting to be scheduled, with its effective request computed
// once (kube-scheduler's PreFilter state for NodeResourcesFit).
#ifndef GPUSCHED_SCHED_POD_INFO_H_
#define GPUSCHED_SCHED_POD_INFO_H_

#include <cstddef>

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

  static PodInfo Make(const Pod& pod, size_t input_index) {
    return PodInfo{&pod, ComputePodRequests(pod), ComputeNonZeroPodRequests(pod), input_index};
  }
  int64_t gpus() const { return PodGpuRequest(requests); }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POD_INFO_H_

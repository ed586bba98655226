// The effective resource request of a pod, computed as kube-scheduler's
// NodeResourcesFit filter does (k8s.io/component-helpers/resource PodRequests,
// called from pkg/scheduler/framework/plugins/noderesources/fit.go):
//   max(sum(containers) + sum(sidecars), max over init containers of
//       (init container + sidecars started before it)) + overhead
#ifndef GPUSCHED_MODEL_POD_REQUESTS_H_
#define GPUSCHED_MODEL_POD_REQUESTS_H_

#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"

namespace gpusched {

// Requests after defaulting (requests copied from limits where missing; see
// DefaultPod). No scoring defaults (100m / 200Mi) are applied here.
Resources ComputePodRequests(const Pod& pod);

// The whole-GPU request (nvidia.com/gpu) of a pod.
inline int64_t PodGpuRequest(const Resources& requests) { return requests.Scalar(kResourceGPU); }

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_REQUESTS_H_

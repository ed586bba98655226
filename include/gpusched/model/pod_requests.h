// The effective resource request of a pod, computed as kube-scheduler's
// NodeResourcesFit filter does (k8s.io/component-helpers/resource PodRequests,
// called from pkg/scheduler/framework/plugins/noderesources/fit.go):
//   max(sum(containers) + sum(sidecars), max over init containers of
//       (init container + sidecars started before it)) + overhead
// where a pod-level request (spec.resources.requests: cpu, memory,
// hugepages-*) replaces the containers' aggregate for its resource.
#ifndef GPUSCHED_MODEL_POD_REQUESTS_H_
#define GPUSCHED_MODEL_POD_REQUESTS_H_

#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"

namespace gpusched {

// Requests after defaulting (requests copied from limits where missing; see
// DefaultPod). No scoring defaults (100m / 200Mi) are applied here.
Resources ComputePodRequests(const Pod& pod);

// Scoring's defaults for a container with no cpu / memory request
// (pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest, DefaultMemoryRequest).
inline constexpr int64_t kDefaultMilliCPURequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

// Requests as the Least/Most/RequestedToCapacityRatio scorers and the node's
// NonZeroRequested see them: the same combination, but every container and
// init container that has no cpu (memory) request key counts 100m (200Mi);
// a pod-level cpu (memory) request still replaces the aggregate.
// An explicit "0" stays 0 (resource_allocation.go calculatePodResourceRequest
// with NonMissingContainerRequests).
Resources ComputeNonZeroPodRequests(const Pod& pod);

// The whole-GPU request (nvidia.com/gpu) of a pod.
inline int64_t PodGpuRequest(const Resources& requests) { return requests.Scalar(kResourceGPU); }

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_REQUESTS_H_

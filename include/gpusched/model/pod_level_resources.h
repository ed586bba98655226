// Pod-level resources (spec.resources, KEP-2837; the PodLevelResources gate
// is beta and on since v1.34, so kube-scheduler v1.35 honours it): what the
// API server defaults and validates, and the pod-level rules of upstream's
// k8s.io/component-helpers/resource/helpers.go (IsSupportedPodLevelResource,
// IsPodLevelRequestsSet, AggregateContainerRequests) that PodRequests
// (pod_requests.h) uses.
//
// Sources: component-helpers resource/helpers.go at v0.35.0;
// kubernetes pkg/apis/core/v1/defaults.go (defaultHugePagePodLimits,
// defaultPodRequests) and pkg/apis/core/validation/validation.go
// (validatePodResources, validatePodResourceName,
// validatePodResourceConsistency).
#ifndef GPUSCHED_MODEL_POD_LEVEL_RESOURCES_H_
#define GPUSCHED_MODEL_POD_LEVEL_RESOURCES_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/model/resources.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// cpu, memory and hugepages-<size>: the only resources pod-level resources
// accept (SupportedPodLevelResources: "cpu", "hugepages-", "memory").
bool IsSupportedPodLevelResource(std::string_view name);

// IsPodLevelRequestsSet: spec.resources.requests names a supported resource.
bool IsPodLevelRequestsSet(const Pod& pod);

// AggregateContainerRequests / AggregateContainerLimits at the quantity level:
// max(sum(containers) + sum(sidecars), max over init containers of (init +
// sidecars before it)), summing quantities as resource.Quantity.Add does.
ResourceList AggregateContainerRequests(const Pod& pod);
ResourceList AggregateContainerLimits(const Pod& pod);

// SetDefaults_Pod's pod-level part, after the containers' requests were
// defaulted from their limits: defaultHugePagePodLimits, then
// defaultPodRequests (only when pod-level limits are set: a supported
// overcommittable resource missing from the pod requests takes the
// aggregate container request, then anything still missing takes the pod
// limit). Templates are not defaulted (SetDefaults_Pod is for Pods).
void DefaultPodLevelResources(Pod& pod);

// validatePodResources at `path` ("spec.resources"): claims are forbidden,
// names must be supported pod-level resources, quantities and requests <=
// limits as for containers, aggregate container requests must not exceed a
// pod-level request, no container limit may exceed a pod-level limit.
void ValidatePodLevelResources(const Pod& pod, const std::string& path, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_LEVEL_RESOURCES_H_

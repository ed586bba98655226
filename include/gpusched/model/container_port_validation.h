// The API server's validation of container ports
// (pkg/apis/core/validation/validation.go, v1.35): validateContainerPorts
// (part of validateContainerCommon, for regular and init containers),
// checkHostPortConflicts (AccumulateUniqueHostPorts over the regular
// containers, at the end of validateContainers) and
// validatePodHostNetworkDeps (hostPort must equal containerPort with
// hostNetwork). Messages from k8s.io/apimachinery util/validation
// IsValidPortName and IsValidPortNum.
#ifndef GPUSCHED_MODEL_CONTAINER_PORT_VALIDATION_H_
#define GPUSCHED_MODEL_CONTAINER_PORT_VALIDATION_H_

#include <string>
#include <vector>

#include "gpusched/model/container_port.h"
#include "gpusched/model/field_error.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// validateContainerPorts at `path` ("spec.containers[0].ports").
void ValidateContainerPorts(const std::vector<ContainerPort>& ports, const std::string& path,
                            std::vector<FieldError>& errs);

// checkHostPortConflicts over the pod's regular containers; `path` is
// "spec.containers".
void CheckHostPortConflicts(const Pod& pod, const std::string& path, std::vector<FieldError>& errs);

// validatePodHostNetworkDeps; `spec` is the pod spec's path. A Pod's ports
// are defaulted first (DefaultPodPorts), so its hostPort 0 is its
// containerPort by then; a template's unset one is allowed, as upstream
// allows it outside Pods.
void ValidatePodHostNetworkDeps(const Pod& pod, const std::string& spec, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_CONTAINER_PORT_VALIDATION_H_

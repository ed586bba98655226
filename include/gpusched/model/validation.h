// API-server defaulting and validation of Pods and Nodes, with the messages of
// k8s.io/kubernetes/pkg/apis/core/validation/validation.go, so that what
// gpusched rejects reads exactly as `kubectl apply` would print it.
// Comes with field_error.h (FieldError, InvalidObjectMessage, GoQuote,
// JsonQuote) and name_validation.h (IsDNS1123Subdomain, IsQualifiedName, ...):
// every caller of a validator reports FieldErrors, and the decoders that
// validate objects check their names with the same rules.
#ifndef GPUSCHED_MODEL_VALIDATION_H_
#define GPUSCHED_MODEL_VALIDATION_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/name_validation.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// Upstream defaulting (pkg/apis/core/v1/defaults.go): a container limit with
// no request copies the limit into the request; a missing namespace becomes
// "default".
void DefaultPod(Pod& pod);

// Validation of a pod after defaulting. `spec_path` is the path of the pod
// spec ("spec" for a Pod, "spec.template.spec" for a workload template).
// `validate_meta` is false for templates, whose names are generated.
std::vector<FieldError> ValidatePod(const Pod& pod, std::string_view spec_path = "spec",
                                    bool validate_meta = true);

std::vector<FieldError> ValidateNode(const Node& node);

// validateNodeAffinity (spec.affinity.nodeAffinity), appending to `errs`
// (node_affinity_validation.cc).
void ValidateNodeAffinity(const NodeAffinity& affinity, const std::string& path, std::vector<FieldError>& errs);

// ValidateNodeSelector (a NodeSelector at `path`: its nodeSelectorTerms,
// label values checked), appending to `errs`; also used for DRA's slices.
void ValidateNodeSelector(const std::vector<NodeSelectorTerm>& terms, const std::string& path,
                          std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_VALIDATION_H_

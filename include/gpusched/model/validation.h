// API-server defaulting and validation of Pods and Nodes, with the messages of
// k8s.io/kubernetes/pkg/apis/core/validation/validation.go and the
// k8s.io/apimachinery field.Error formatting, so that what gpusched rejects
// reads exactly as `kubectl apply` would print it.
#ifndef GPUSCHED_MODEL_VALIDATION_H_
#define GPUSCHED_MODEL_VALIDATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// One field error (apimachinery/pkg/util/validation/field.Error).
struct FieldError {
  enum class Type { kInvalid, kRequired, kDuplicate, kNotSupported, kForbidden, kTooLong, kNotFound, kTooMany };
  Type type;
  std::string field;  // e.g. spec.containers[0].resources.limits[nvidia.com/gpu]
  std::string value;  // already rendered as upstream renders it, e.g. "\"500m\""
  std::string detail;

  static FieldError Invalid(std::string field, std::string_view value, std::string detail);
  static FieldError Required(std::string field, std::string detail);
  static FieldError Duplicate(std::string field, std::string_view value);
  static FieldError NotSupported(std::string field, std::string_view value,
                                 const std::vector<std::string>& supported);
  static FieldError Forbidden(std::string field, std::string detail);
  // field.TooLong: "Too long: may not be more than <n> bytes"; the value is omitted.
  static FieldError TooLong(std::string field, int64_t max_bytes);
  // field.TooMany: "Too many: <actual>: must have at most <max> items".
  static FieldError TooMany(std::string field, int64_t actual, int64_t max_items);

  // "<field>: <type>: <value>: <detail>" exactly as field.Error.Error().
  std::string ToString() const;
};

// `The Pod "x" is invalid: <error>`, or with several errors kubectl's
// "\n* <error>" list, as kubectl apply prints a StatusError
// (k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr + MultilineError; the
// trailing newline kubectl prints is left to the caller). Repeated messages
// are dropped, as statusCausesToAggrError does.
std::string InvalidObjectMessage(std::string_view kind, std::string_view name,
                                 const std::vector<FieldError>& errors);

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

// validateResourceName: a qualified name; a name without '/' must be a
// standard resource ("must be a standard resource type or fully qualified").
void ValidateResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs);

// validateResourceRequirements at `path` (e.g. "spec.resources"): every name
// through `name_fn`, quantities, requests against limits, hugepages.
using ResourceNameValidator = void (*)(std::string_view name, const std::string& path, std::vector<FieldError>& errs);
void ValidateResourceRequirementsWith(const ResourceList& limits, const ResourceList& requests,
                                      const std::string& path, ResourceNameValidator name_fn,
                                      std::vector<FieldError>& errs);

// validateNodeAffinity (spec.affinity.nodeAffinity), appending to `errs`.
void ValidateNodeAffinity(const NodeAffinity& affinity, const std::string& path, std::vector<FieldError>& errs);

// Name checks with upstream's messages; empty when valid.
std::vector<std::string> IsDNS1123Subdomain(std::string_view value);
std::vector<std::string> IsDNS1123Label(std::string_view value);
std::vector<std::string> IsQualifiedName(std::string_view value);
// Label values (k8s.io/apimachinery/pkg/api/validate/content IsLabelValue).
std::vector<std::string> IsValidLabelValue(std::string_view value);

// How upstream renders a field.Error BadValue: a Go string with %q
// (strconv.Quote) and any other type with encoding/json (resource names,
// enum-typed strings, quantities, structs).
std::string GoQuote(std::string_view s);
std::string JsonQuote(std::string_view s);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_VALIDATION_H_

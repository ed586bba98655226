// Strict decoding as the API server does it for `kubectl apply` (field
// validation Strict, kubectl's default since v1.27): before an object is
// decoded, its tree is checked against the Go types of k8s.io/api (their
// json tags and types, generated into src/io/generated/kube_schema_tables.cc
// by scripts/gen_kube_schema.py from pinned upstream files), giving
//  - the first value of the wrong type, in the words of Go's encoding/json
//    (sigs.k8s.io/json): "json: cannot unmarshal number into Go struct field
//    ObjectMeta.metadata.annotations of type string", "json: cannot unmarshal
//    number 5.5 into Go struct field DeploymentSpec.spec.replicas of type
//    int32";
//  - otherwise the strict errors, as apimachinery words them: "strict decoding
//    error: unknown field \"spec.containers[0].resource\", duplicate field
//    \"metadata.name\"" (each at most once, at most 100), a duplicate also
//    naming the lines of both keys.
// Unknown fields are refused in the structs listed as strict (metadata, pod
// spec, container, resources, tolerations, affinity, node spec and status,
// the workloads' specs and templates, PriorityClass...); deeper structs
// (volumes, probes, statuses of containers) have their fields' types checked
// but accept names gpusched does not know, so that no valid field is ever
// refused.
#ifndef GPUSCHED_IO_KUBE_SCHEMA_H_
#define GPUSCHED_IO_KUBE_SCHEMA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/io/document.h"

namespace gpusched {

// How a Go type reads JSON. kAny: a type that reads itself (Quantity,
// IntOrString, Time, RawExtension): its own decoder judges the value.
enum class FieldKind : uint8_t { kString, kInt32, kInt64, kUint32, kUint64, kBool, kFloat, kStruct, kSlice, kMap, kAny };

struct StructSchema;

struct FieldType {
  FieldKind kind;
  const char* go_type;           // as Go prints it: "string", "int32", "[]v1.Container", "v1.ResourceList"
  const StructSchema* schema;    // kStruct
  const FieldType* elem;         // kSlice, kMap: the element / value type
};

struct FieldSchema {
  const char* json;  // the json tag's name
  FieldType type;
};

struct StructSchema {
  const char* go_name;  // "PodSpec"
  bool strict;          // unknown fields are refused
  const FieldSchema* fields;
  size_t count;

  const FieldSchema* Find(std::string_view json) const;
};

// The schema of a Go struct by name ("Pod", "PodSpec", "Deployment"), or
// nullptr; every schema the tables hold.
const StructSchema* FindStructSchema(std::string_view go_name);
// The schema of a kind under its apiVersion: the Workload API's kinds
// (scheduling.k8s.io/v1alpha1 Workload; v1alpha2 Workload and PodGroup),
// whose struct names repeat, and policy/v1 PodDisruptionBudget; any other
// kind by its name, as FindStructSchema.
const StructSchema* FindKindSchema(std::string_view api_version, std::string_view kind);
std::vector<const StructSchema*> AllStructSchemas();

struct StrictDecodeResult {
  std::string type_error;  // "json: cannot unmarshal ...", "" when none
  int type_error_line = 0;
  // Unknown and duplicate fields ("unknown field \"x.y\"", "duplicate field
  // \"x.y\" (lines 4 and 5)") with their lines, in input order.
  std::vector<std::pair<int, std::string>> strict_errors;

  bool ok() const { return type_error.empty() && strict_errors.empty(); }
  // What the API server answers: the type error, or "strict decoding error:
  // <errors joined by ", ">".
  std::string Message() const;
  int Line() const;
};

// The keys given twice in `object`'s maps ("duplicate field \"a.b\" (lines
// 4 and 5)", with the later line), for any decoder that is strict.
std::vector<std::pair<int, std::string>> DuplicateFieldErrors(const DocNode& object);

// Checks `object` (a map) against `schema`.
StrictDecodeResult StrictDecode(const DocNode& object, const StructSchema& schema);

}  // namespace gpusched

#endif  // GPUSCHED_IO_KUBE_SCHEMA_H_

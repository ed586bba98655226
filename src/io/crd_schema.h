// The custom resources gpusched reads for gangs (scheduler-plugins', Volcano's
// and KAI's PodGroups; Kubeflow's training jobs, Volcano's Job, JobSet,
// LeaderWorkerSet), checked as the API server checks a custom resource
// against its CRD's structural schema: unknown fields are a strict decoding
// error ("strict decoding error: unknown field \"spec.minMembr\"", kubectl's
// default field validation since v1.27), and a value of the wrong type an
// OpenAPI validation error ("spec.minMember: Invalid value: \"two\":
// spec.minMember in body must be of type integer: \"string\""). Null values
// are pruned, as for non-nullable fields.
//
// The schemas list the fields of each project's Go types (their json tags,
// read at the commits named in crd_schema.cc) down to the structs gpusched
// reads; deeper structs, status and embedded core types the core tables hold
// (pod templates, label selectors) are checked with those tables, which
// accept unknown names below the structs they list as strict. Private to
// src/io.
#ifndef GPUSCHED_IO_CRD_SCHEMA_H_
#define GPUSCHED_IO_CRD_SCHEMA_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/io/document.h"
#include "gpusched/io/kube_schema.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// The schema of a custom resource kind under its apiVersion, or nullptr.
const StructSchema* FindCrdSchema(std::string_view api_version, std::string_view kind);

struct CrdCheckResult {
  // Unknown and duplicate fields with their lines (as StrictDecodeResult's).
  std::vector<std::pair<int, std::string>> strict_errors;
  // Values of the wrong type, as OpenAPI validation words them.
  std::vector<FieldError> type_errors;
  int type_error_line = 0;

  bool ok() const { return strict_errors.empty() && type_errors.empty(); }
  // "strict decoding error: unknown field \"a\", unknown field \"b\"".
  std::string StrictMessage() const;
};

CrdCheckResult CheckCustomResource(const DocNode& object, const StructSchema& schema);

}  // namespace gpusched

#endif  // GPUSCHED_IO_CRD_SCHEMA_H_

// Decoding and validating workload controllers (Deployment, ReplicaSet,
// StatefulSet, Job, DaemonSet, CronJob) and the ownership fields of any
// object (metadata.ownerReferences), into the model. Reads only through
// DecodeContext's accessors; decode (type) errors go to the context, API
// validation errors are returned with upstream's messages
// (pkg/apis/apps/validation, pkg/apis/batch/validation,
// apimachinery ValidateOwnerReferences). Private to src/io.
#ifndef GPUSCHED_IO_CONTROLLER_DECODE_H_
#define GPUSCHED_IO_CONTROLLER_DECODE_H_

#include <optional>
#include <string>
#include <vector>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/controller.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// metadata.ownerReferences of `obj`: the controller reference goes to
// `controller`; the validation errors (a reference without apiVersion, kind,
// name or uid; two controller references) are returned.
std::vector<FieldError> DecodeOwnerReferences(DecodeContext& ctx, const DocNode& obj,
                                              std::optional<OwnerReference>& controller);

// A LabelSelector at parent[key] (path names it in errors).
std::optional<LabelSelector> DecodeLabelSelector(DecodeContext& ctx, const DocNode& parent, const char* key,
                                                 const std::string& path);

// Decodes `obj` (whose kind is `kind`) into `out`, defaulted as the API server
// defaults apps/v1 and batch/v1 objects (replicas 1, RollingUpdate 25%/25%,
// Job parallelism/completions). Decode errors go to ctx; the validation
// errors only decoding can see (ownerReferences, an int-or-percent string
// that is not a percentage) are returned, for ValidateController.
std::vector<FieldError> DecodeController(DecodeContext& ctx, const DocNode& obj, ControllerKind kind,
                                         Controller& out);

// A batch/v1 JobSpec at `spec` (path names it in errors), defaulted as
// SetDefaults_Job does, with its pod template; for a Job's spec and for the
// Job templates of other objects (a CronJob's, a JobSet's replicated jobs).
void DecodeJobSpec(DecodeContext& ctx, const DocNode& spec, const std::string& path, Controller& out);

// The API server's validation of a decoded controller (its metadata name,
// spec counts, selector against template labels, strategy, and the pod
// template as ValidatePod checks it), with `decoded` (what DecodeController
// returned) in upstream's order.
std::vector<FieldError> ValidateController(const Controller& c, std::vector<FieldError> decoded);

// Inserts `more` (errors of metadata fields) after the metadata.* errors at
// the front of `errs`, where ValidateObjectMeta would have reported them.
void InsertMetadataErrors(std::vector<FieldError>& errs, std::vector<FieldError> more);

}  // namespace gpusched

#endif  // GPUSCHED_IO_CONTROLLER_DECODE_H_

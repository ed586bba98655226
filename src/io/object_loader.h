// Loading one parsed Kubernetes object into Manifests: its apiVersion and
// kind select the type (a Pod must be v1, a Job batch/v1...); it is decoded
// strictly (kube_schema.h), defaulted and validated as the API server does;
// workloads expand into their pods; Lists load their items. Kinds gpusched
// does not model are counted and reported once per kind (FlushSkipped).
// Private to src/io.
#ifndef GPUSCHED_IO_OBJECT_LOADER_H_
#define GPUSCHED_IO_OBJECT_LOADER_H_

#include <string>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/field_error.h"

namespace gpusched {

struct Source {
  const std::string& file;
  Manifests& out;
  // Strict decoding (DecodesStrictly); off for objects an API server sent.
  bool strict = true;
};

// --- Shared with the kind loaders of other files (gang_decode.cc...) ---
// "Pod/ns/name" ("Node/name" for a cluster-scoped object).
std::string ObjectId(std::string_view kind, const ObjectMeta& m);
// "v1" of "apps/v1"; "apps" of "apps/v1" ("" for "v1").
std::string_view VersionOf(std::string_view api_version);
std::string_view GroupOf(std::string_view api_version);
// "Pod in version \"v1\" cannot be handled as a Pod: <why>".
std::string CannotHandle(std::string_view kind, std::string_view api_version, const std::string& why);
// CannotHandle with the context's decode errors joined by "; ".
std::string DecodeFailure(std::string_view kind, std::string_view api_version, const DecodeContext& ctx);
// The context's warnings into out.warnings, "file:line: id: text".
void FlushWarnings(const Source& src, const DecodeContext& ctx, const std::string& id);
void Reject(const Source& src, std::string id, int line, std::string message);
// Rejects with kubectl's "The Pod \"x\" is invalid: ..." (InvalidObjectMessage)
// and, for a fractional GPU request, what the user most likely wanted as
// the error's advice (FractionalGpuAdvice).
void RejectInvalid(const Source& src, std::string id, int line, std::string_view kind, std::string_view name,
                   const std::vector<FieldError>& errors);
// The id of an object before decoding (kind, namespace, name as far as they are strings).
std::string RawId(std::string_view kind, const DocNode& obj, bool namespaced);
// Strict decoding against the core tables' schema of `kind`; false, with
// the object rejected, when it fails.
bool DecodesStrictly(const Source& src, const DocNode& obj, std::string_view kind, std::string_view api_version,
                     bool namespaced);
// A deterministic name for an object with only generateName.
void ApplyGenerateName(ObjectMeta& m, std::string_view kind, const std::string& content, Manifests& out);
// --- end of the shared helpers ---

// `depth`: how many Lists hold the object (Lists nest at most 8 deep).
void LoadObject(const Source& src, const DocNode& obj, int depth);

// A core/v1 Pod or Node whose kind is known from where it comes (an
// extender request, an API server's list or watch: client-go's objects carry
// no apiVersion/kind). With `strict` false, unknown fields are ignored, as
// client-go's decoder ignores fields of a newer API server.
void LoadTypedObject(const Source& src, const DocNode& obj, std::string_view kind, bool strict);
// One of the other objects plugins read (model/api_objects.h: Namespaces,
// Services, ReplicationControllers, ReplicaSets, StatefulSets, PVs, PVCs,
// StorageClasses, CSINodes) of a known kind and apiVersion, into
// out.api_objects (a ReplicaSet or StatefulSet gives its spread selector
// only: its pods are the API server's). Strictness as src.strict.
void LoadTypedApiObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version);

// One warning per skipped kind ("file:line: skipping 3 ConfigMap objects
// (the first "a"): kind ConfigMap does not take part in scheduling"),
// appended to out.warnings; out.skipped is emptied.
void FlushSkipped(Manifests& out);

}  // namespace gpusched

#endif  // GPUSCHED_IO_OBJECT_LOADER_H_

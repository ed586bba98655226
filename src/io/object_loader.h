// Loading one parsed Kubernetes object into Manifests: its apiVersion and
// kind select the type (a Pod must be v1, a Job batch/v1...); it is decoded
// strictly (kube_schema.h), defaulted and validated as the API server does;
// workloads expand into their pods; Lists load their items. Kinds gpusched
// does not model are counted and reported once per kind (FlushSkipped).
// Private to src/io.
#ifndef GPUSCHED_IO_OBJECT_LOADER_H_
#define GPUSCHED_IO_OBJECT_LOADER_H_

#include <string>

#include "gpusched/io/document.h"
#include "gpusched/io/manifest_loader.h"

namespace gpusched {

struct Source {
  const std::string& file;
  Manifests& out;
};

// `depth`: how many Lists hold the object (Lists nest at most 8 deep).
void LoadObject(const Source& src, const DocNode& obj, int depth);

// A core/v1 Pod or Node whose kind is known from where it comes (an
// extender request, an API server's list or watch: client-go's objects carry
// no apiVersion/kind). With `strict` false, unknown fields are ignored, as
// client-go's decoder ignores fields of a newer API server.
void LoadTypedObject(const Source& src, const DocNode& obj, std::string_view kind, bool strict);

// One warning per skipped kind ("file:line: skipping 3 ConfigMap objects
// (the first "a"): kind ConfigMap does not take part in scheduling"),
// appended to out.warnings; out.skipped is emptied.
void FlushSkipped(Manifests& out);

}  // namespace gpusched

#endif  // GPUSCHED_IO_OBJECT_LOADER_H_

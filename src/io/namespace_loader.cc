// Namespace objects (core/v1): their names and labels, which pod affinity
// terms' namespaceSelector matches (InterPodAffinity reads them as
// upstream's plugin reads its namespace lister).
#include "namespace_loader.h"

#include "gpusched/io/kube_decode.h"
#include "gpusched/model/name_validation.h"
#include "gpusched/model/object_meta_validation.h"

namespace gpusched {

bool LoadNamespaceObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  if (kind != "Namespace" || version != "v1") return false;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  const int line = ctx.Line(obj);
  const std::string id = "Namespace/" + meta.name;
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, version, ctx)), true;
  // ValidateNamespace: ValidateObjectMeta with ValidateNamespaceName (a
  // DNS label), cluster-scoped.
  std::vector<FieldError> errs;
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const std::string& m : IsDNS1123Label(meta.name))
      errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  }
  ValidateLabels(meta.labels, "metadata.labels", errs);
  if (!errs.empty()) return RejectInvalid(src, id, ctx.LineOf(errs.front().field), kind, meta.name, errs), true;
  auto [it, added] = src.out.api_objects.namespace_labels.emplace(meta.name, meta.labels);
  if (!added) Reject(src, id, line, "namespaces \"" + meta.name + "\" already exists");
  return true;
}

}  // namespace gpusched

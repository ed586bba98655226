#include "spread_objects_decode.h"

#include "gpusched/io/kube_decode.h"
#include "gpusched/model/object_meta.h"

namespace gpusched {

bool LoadSpreadObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version) {
  if ((kind != "Service" && kind != "ReplicationController") || api_version != "v1") return false;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  if (meta.namespace_.empty()) meta.namespace_ = kDefaultNamespace;
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  std::optional<LabelMap> selector;
  if (spec.IsDefined() && spec["selector"].IsDefined() && !spec["selector"].IsNull())
    selector = ctx.StrMap(spec, "selector", "spec.selector");
  const std::string id = ObjectId(kind, meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) {
    Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, api_version, ctx));
    return true;
  }
  if (meta.name.empty()) {
    Reject(src, id, ctx.Line(obj),
           InvalidObjectMessage(kind, "", {FieldError::Required("metadata.name", "name or generateName is required")}));
    return true;
  }
  ApiObjects& objects = src.out.api_objects;
  if (kind == "Service") {
    objects.services.push_back(ServiceSelector{meta.namespace_, meta.name, std::move(selector)});
  } else {
    LabelSelector s;
    if (selector) s.match_labels = std::move(*selector);
    objects.spread_controllers.push_back(
        ControllerSelector{kind, api_version, meta.namespace_, meta.name, std::move(s)});
  }
  return true;
}

void NoteSpreadSelectors(Manifests& out) {
  for (const LoadedController& lc : out.controllers) {
    const Controller& c = lc.controller;
    if (c.kind != ControllerKind::kReplicaSet && c.kind != ControllerKind::kStatefulSet &&
        c.kind != ControllerKind::kDeployment)
      continue;
    out.api_objects.spread_controllers.push_back(
        ControllerSelector{std::string(KindName(c.kind)), "apps/v1", c.ns(), c.name(), c.selector});
  }
}

}  // namespace gpusched

#include "dra_decode.h"

#include "gpusched/io/kube_decode.h"

namespace gpusched {

bool IsDraKind(std::string_view kind, std::string_view api_version) {
  if (api_version.substr(0, 16) != "resource.k8s.io/") return false;
  return kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "ResourceSlice" || kind == "DeviceClass";
}

std::string DraResourceName(std::string_view kind) {
  if (kind == "ResourceClaim") return "resourceclaims.resource.k8s.io";
  if (kind == "ResourceClaimTemplate") return "resourceclaimtemplates.resource.k8s.io";
  if (kind == "ResourceSlice") return "resourceslices.resource.k8s.io";
  return "deviceclasses.resource.k8s.io";
}

void DecodeDeviceRequests(DecodeContext& ctx, const DocNode& devices, const std::string& path, ClaimSpec& out) {
  const DocNode requests = ctx.Seq(devices, "requests", path);
  if (!requests.IsDefined()) return;
  for (size_t i = 0; i < requests.size(); ++i) {
    const DocNode r = requests[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ctx.Record(p, r);
    if (!r.IsMap()) {
      ctx.Error(p, r, std::string("expected an object, got ") + YamlKind(r));
      continue;
    }
    DeviceRequest req;
    req.name = ctx.Str(r, "name", p + ".name");
    // v1 and v1beta2: exactly{...} or firstAvailable[]; v1beta1 and
    // v1alpha3 keep the exact request's fields on the request itself.
    auto exact = [&](const DocNode& e, const std::string& ep) {
      std::string cls = ctx.Str(e, "deviceClassName", ep + ".deviceClassName");
      if (!cls.empty()) req.device_classes.push_back(cls);
      if (ctx.Str(e, "allocationMode", ep + ".allocationMode") == "All") req.count = 0;
      if (auto n = ctx.Int(e, "count", ep + ".count")) req.count = *n;
    };
    const DocNode exactly = ctx.Map(r, "exactly", p + ".exactly");
    if (exactly.IsDefined()) exact(exactly, p + ".exactly");
    exact(r, p);
    const DocNode first = ctx.Seq(r, "firstAvailable", p + ".firstAvailable");
    if (first.IsDefined()) {
      for (size_t k = 0; k < first.size(); ++k) {
        const std::string sp = p + ".firstAvailable[" + std::to_string(k) + "]";
        ctx.Record(sp, first[k]);
        if (!first[k].IsMap()) {
          ctx.Error(sp, first[k], std::string("expected an object, got ") + YamlKind(first[k]));
          continue;
        }
        std::string cls = ctx.Str(first[k], "deviceClassName", sp + ".deviceClassName");
        if (!cls.empty()) req.device_classes.push_back(cls);
      }
    }
    out.requests.push_back(std::move(req));
  }
}

ClaimSpec DecodeClaimObject(DecodeContext& ctx, const DocNode& obj, std::string_view kind) {
  ClaimSpec c;
  DecodeObjectMeta(ctx, obj, "metadata", c.meta);
  c.api_version = ctx.Str(obj, "apiVersion", "apiVersion");
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    // A template holds a claim spec under spec.spec.
    const bool tmpl = kind == "ResourceClaimTemplate";
    const DocNode claim_spec = tmpl ? ctx.Map(spec, "spec", "spec.spec") : spec;
    const std::string base = tmpl ? "spec.spec" : "spec";
    if (claim_spec.IsDefined()) {
      const DocNode devices = ctx.Map(claim_spec, "devices", base + ".devices");
      if (devices.IsDefined()) DecodeDeviceRequests(ctx, devices, base + ".devices.requests", c);
    }
  }
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) c.allocated = ctx.Map(status, "allocation", "status.allocation").IsDefined();
  return c;
}

ResourceSliceInfo DecodeResourceSlice(DecodeContext& ctx, const DocNode& obj) {
  ResourceSliceInfo s;
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  s.name = meta.name;
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (!spec.IsDefined()) return s;
  s.driver = ctx.Str(spec, "driver", "spec.driver");
  s.node_name = ctx.Str(spec, "nodeName", "spec.nodeName");
  const DocNode devices = ctx.Seq(spec, "devices", "spec.devices");
  if (devices.IsDefined()) s.devices = static_cast<int64_t>(devices.size());
  return s;
}

}  // namespace gpusched

#include "dra_decode.h"

#include "gpusched/io/kube_decode.h"

namespace gpusched {
namespace {

// Whether `api_version` keeps the exact request's fields on the request
// itself (v1beta1, v1alpha3) and devices' fields under `basic`.
bool FlatVersion(std::string_view api_version) {
  return api_version == "resource.k8s.io/v1beta1" || api_version == "resource.k8s.io/v1alpha3";
}

std::optional<Quantity> DecodeQuantity(DecodeContext& ctx, const DocNode& n, const std::string& path) {
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  ctx.Record(path, n);
  if (!n.IsScalar()) {
    ctx.Error(path, n, std::string("expected a quantity, got ") + YamlKind(n));
    return std::nullopt;
  }
  Result<Quantity> q = Quantity::Parse(n.Scalar());
  if (!q.ok()) {
    ctx.Error(path, n, q.status().message());
    return std::nullopt;
  }
  return *q;
}

// A map of quantities whose values are {value: Q} (`wrapped`) or bare.
std::map<std::string, Quantity, std::less<>> DecodeQuantityMap(DecodeContext& ctx, const DocNode& parent,
                                                               std::string_view key, const std::string& path,
                                                               bool wrapped) {
  std::map<std::string, Quantity, std::less<>> out;
  const DocNode m = ctx.Map(parent, key, path);
  if (!m.IsDefined()) return out;
  for (size_t i = 0; i < m.size(); ++i) {
    const std::string name(m.KeyAt(i).Scalar());
    const std::string p = path + "." + name;
    const DocNode v = m.ValueAt(i);
    std::optional<Quantity> q;
    if (wrapped) {
      if (!v.IsMap()) {
        ctx.Error(p, v, std::string("expected an object, got ") + YamlKind(v));
        continue;
      }
      q = DecodeQuantity(ctx, v["value"], p + ".value");
    } else {
      q = DecodeQuantity(ctx, v, p);
    }
    if (q) out.emplace(name, *q);
  }
  return out;
}

void DecodeSelectors(DecodeContext& ctx, const DocNode& parent, const std::string& path,
                     std::vector<std::string>& out) {
  for (const auto& [s, p] : ctx.Objects(parent, "selectors", path)) {
    const DocNode cel = ctx.Map(s, "cel", p + ".cel");
    out.push_back(cel.IsDefined() ? ctx.Str(cel, "expression", p + ".cel.expression") : std::string());
  }
}

std::vector<DeviceToleration> DecodeDeviceTolerations(DecodeContext& ctx, const DocNode& parent,
                                                      const std::string& path) {
  std::vector<DeviceToleration> out;
  for (const auto& [t, p] : ctx.Objects(parent, "tolerations", path)) {
    DeviceToleration d;
    d.key = ctx.Str(t, "key", p + ".key");
    d.op = ctx.Str(t, "operator", p + ".operator");
    d.value = ctx.Str(t, "value", p + ".value");
    d.effect = ctx.Str(t, "effect", p + ".effect");
    d.toleration_seconds = ctx.Int(t, "tolerationSeconds", p + ".tolerationSeconds");
    out.push_back(std::move(d));
  }
  return out;
}

// The fields an exact request and a subrequest share, read from `r`.
void DecodeExactFields(DecodeContext& ctx, const DocNode& r, const std::string& path, ExactDeviceRequest& e) {
  e.device_class_name = ctx.Str(r, "deviceClassName", path + ".deviceClassName");
  DecodeSelectors(ctx, r, path + ".selectors", e.selectors);
  e.allocation_mode = ctx.Str(r, "allocationMode", path + ".allocationMode");
  // count: defaulted to 1 for ExactCount by the API server (SetDefaults_ExactDeviceRequest);
  // with All it stays 0 unless given, and validation refuses one given.
  if (std::optional<int64_t> n = ctx.Int(r, "count", path + ".count")) {
    e.count = *n;
  } else if (e.allocation_mode == kAllocationModeAll) {
    e.count = 0;
  }
  e.admin_access = ctx.Bool(r, "adminAccess", path + ".adminAccess");
  e.tolerations = DecodeDeviceTolerations(ctx, r, path + ".tolerations");
  const DocNode cap = ctx.Map(r, "capacity", path + ".capacity");
  if (cap.IsDefined()) e.capacity_requests = DecodeQuantityMap(ctx, cap, "requests", path + ".capacity.requests", false);
}

DeviceRequest DecodeRequest(DecodeContext& ctx, const DocNode& r, const std::string& p, bool flat) {
  DeviceRequest req;
  req.name = ctx.Str(r, "name", p + ".name");
  if (flat) {
    // v1beta1: a request without firstAvailable is an exact one.
    if (!r["firstAvailable"].IsDefined()) {
      ExactDeviceRequest e;
      DecodeExactFields(ctx, r, p, e);
      req.exactly = std::move(e);
    }
  } else {
    const DocNode exactly = ctx.Map(r, "exactly", p + ".exactly");
    if (exactly.IsDefined()) {
      ExactDeviceRequest e;
      DecodeExactFields(ctx, exactly, p + ".exactly", e);
      req.exactly = std::move(e);
    }
  }
  for (const auto& [s, sp] : ctx.Objects(r, "firstAvailable", p + ".firstAvailable")) {
    ExactDeviceRequest sub;
    sub.name = ctx.Str(s, "name", sp + ".name");
    DecodeExactFields(ctx, s, sp, sub);
    req.first_available.push_back(std::move(sub));
  }
  return req;
}

std::vector<DeviceConfiguration> DecodeConfigs(DecodeContext& ctx, const DocNode& parent, const std::string& path,
                                               std::vector<std::string>* sources) {
  std::vector<DeviceConfiguration> out;
  for (const auto& [c, p] : ctx.Objects(parent, "config", path)) {
    DeviceConfiguration d;
    d.requests = ctx.Strings(c, "requests", p + ".requests");
    const DocNode opaque = ctx.Map(c, "opaque", p + ".opaque");
    if (opaque.IsDefined()) {
      d.driver = ctx.Str(opaque, "driver", p + ".opaque.driver");
      ctx.Record(p + ".opaque.parameters", opaque["parameters"]);  // kept as the driver's, not read
    }
    if (sources) sources->push_back(ctx.Str(c, "source", p + ".source"));
    out.push_back(std::move(d));
  }
  return out;
}

std::map<std::string, DeviceAttribute, std::less<>> DecodeAttributes(DecodeContext& ctx, const DocNode& parent,
                                                                     const std::string& path) {
  std::map<std::string, DeviceAttribute, std::less<>> out;
  const DocNode m = ctx.Map(parent, "attributes", path);
  if (!m.IsDefined()) return out;
  for (size_t i = 0; i < m.size(); ++i) {
    const std::string name(m.KeyAt(i).Scalar());
    const std::string p = path + "." + name;
    const DocNode v = m.ValueAt(i);
    ctx.Record(p, v);
    if (!v.IsMap()) {
      ctx.Error(p, v, std::string("expected an object, got ") + YamlKind(v));
      continue;
    }
    // Exactly one of the four is validation's to check (dra_validation.h);
    // the decoder keeps the first it finds, in the API's field order.
    DeviceAttribute a;
    int set = 0;
    if (std::optional<int64_t> n = ctx.Int(v, "int", p + ".int")) {
      a.kind = DeviceAttribute::Kind::kInt;
      a.int_value = *n;
      ++set;
    }
    if (std::optional<bool> b = ctx.Bool(v, "bool", p + ".bool")) {
      if (!set) a.kind = DeviceAttribute::Kind::kBool, a.bool_value = *b;
      ++set;
    }
    if (v["string"].IsDefined()) {
      std::string s = ctx.Str(v, "string", p + ".string");
      if (!set) a = {DeviceAttribute::Kind::kString, 0, false, std::move(s)};
      ++set;
    }
    if (v["version"].IsDefined()) {
      std::string s = ctx.Str(v, "version", p + ".version");
      if (!set) a = {DeviceAttribute::Kind::kVersion, 0, false, std::move(s)};
      ++set;
    }
    if (set != 1) ctx.Error(p, v, "exactly one value must be specified");  // validateDeviceAttribute
    out.emplace(name, std::move(a));
  }
  return out;
}

std::vector<DeviceCounterConsumption> DecodeConsumes(DecodeContext& ctx, const DocNode& parent,
                                                     const std::string& path) {
  std::vector<DeviceCounterConsumption> out;
  for (const auto& [c, p] : ctx.Objects(parent, "consumesCounters", path)) {
    DeviceCounterConsumption d;
    d.counter_set = ctx.Str(c, "counterSet", p + ".counterSet");
    d.counters = DecodeQuantityMap(ctx, c, "counters", p + ".counters", true);
    out.push_back(std::move(d));
  }
  return out;
}

std::optional<std::vector<NodeSelectorTerm>> DecodeOptionalNodeSelector(DecodeContext& ctx, const DocNode& parent,
                                                                        const std::string& path) {
  const DocNode ns = ctx.Map(parent, "nodeSelector", path);
  if (!ns.IsDefined()) return std::nullopt;
  return DecodeNodeSelectorTerms(ctx, ns, path + ".nodeSelectorTerms");
}

Device DecodeDevice(DecodeContext& ctx, const DocNode& d, const std::string& p, bool flat) {
  Device dev;
  dev.name = ctx.Str(d, "name", p + ".name");
  // v1beta1 devices hold their fields under `basic` (BasicDevice).
  const DocNode basic = flat ? ctx.Map(d, "basic", p + ".basic") : d;
  const std::string bp = flat ? p + ".basic" : p;
  if (!basic.IsDefined()) return dev;
  dev.attributes = DecodeAttributes(ctx, basic, bp + ".attributes");
  // v1beta1's capacity is {value: Q}; v1alpha3 (Kubernetes 1.31) wrote a bare quantity.
  const DocNode cap = basic["capacity"];
  const bool bare = cap.IsMap() && cap.size() > 0 && cap.ValueAt(0).IsScalar();
  for (auto& [name, q] : DecodeQuantityMap(ctx, basic, "capacity", bp + ".capacity", !bare))
    dev.capacity.emplace(name, DeviceCapacity{q, std::nullopt});
  dev.consumes_counters = DecodeConsumes(ctx, basic, bp + ".consumesCounters");
  for (const auto& [t, tp] : ctx.Objects(basic, "taints", bp + ".taints"))
    dev.taints.push_back({ctx.Str(t, "key", tp + ".key"), ctx.Str(t, "value", tp + ".value"),
                          ctx.Str(t, "effect", tp + ".effect")});
  dev.allow_multiple_allocations = ctx.Bool(basic, "allowMultipleAllocations", bp + ".allowMultipleAllocations")
                                       .value_or(false);
  dev.node_name = ctx.Str(basic, "nodeName", bp + ".nodeName");
  dev.node_selector = DecodeOptionalNodeSelector(ctx, basic, bp + ".nodeSelector");
  dev.all_nodes = ctx.Bool(basic, "allNodes", bp + ".allNodes").value_or(false);
  dev.binds_to_node = ctx.Bool(basic, "bindsToNode", bp + ".bindsToNode").value_or(false);
  dev.binding_conditions = ctx.Strings(basic, "bindingConditions", bp + ".bindingConditions");
  dev.binding_failure_conditions = ctx.Strings(basic, "bindingFailureConditions", bp + ".bindingFailureConditions");
  return dev;
}

AllocationResult DecodeAllocation(DecodeContext& ctx, const DocNode& a, const std::string& path) {
  AllocationResult out;
  const DocNode devices = ctx.Map(a, "devices", path + ".devices");
  if (devices.IsDefined()) {
    for (const auto& [r, p] : ctx.Objects(devices, "results", path + ".devices.results")) {
      DeviceRequestAllocationResult res;
      res.request = ctx.Str(r, "request", p + ".request");
      res.driver = ctx.Str(r, "driver", p + ".driver");
      res.pool = ctx.Str(r, "pool", p + ".pool");
      res.device = ctx.Str(r, "device", p + ".device");
      res.admin_access = ctx.Bool(r, "adminAccess", p + ".adminAccess");
      res.tolerations = DecodeDeviceTolerations(ctx, r, p + ".tolerations");
      res.share_id = ctx.Str(r, "shareID", p + ".shareID");
      res.consumed_capacity = DecodeQuantityMap(ctx, r, "consumedCapacity", p + ".consumedCapacity", false);
      res.binding_conditions = ctx.Strings(r, "bindingConditions", p + ".bindingConditions");
      res.binding_failure_conditions = ctx.Strings(r, "bindingFailureConditions", p + ".bindingFailureConditions");
      out.results.push_back(std::move(res));
    }
    out.config = DecodeConfigs(ctx, devices, path + ".devices.config", &out.config_source);
  }
  out.node_selector = DecodeOptionalNodeSelector(ctx, a, path + ".nodeSelector");
  out.allocation_timestamp = ctx.Str(a, "allocationTimestamp", path + ".allocationTimestamp");
  return out;
}

}  // namespace

bool IsDraKind(std::string_view kind, std::string_view api_version) {
  // The versions that served these kinds after classic DRA (v1alpha2) was
  // removed: v1alpha3 (v1.31), v1beta1 (v1.32), v1beta2 (v1.33), v1 (v1.34).
  if (api_version != "resource.k8s.io/v1" && api_version != "resource.k8s.io/v1beta2" &&
      api_version != "resource.k8s.io/v1beta1" && api_version != "resource.k8s.io/v1alpha3")
    return false;
  return kind == "ResourceClaim" || kind == "ResourceClaimTemplate" || kind == "ResourceSlice" || kind == "DeviceClass";
}

std::string DraResourceName(std::string_view kind) {
  if (kind == "ResourceClaim") return "resourceclaims.resource.k8s.io";
  if (kind == "ResourceClaimTemplate") return "resourceclaimtemplates.resource.k8s.io";
  if (kind == "ResourceSlice") return "resourceslices.resource.k8s.io";
  return "deviceclasses.resource.k8s.io";
}

ResourceClaimSpec DecodeResourceClaimSpec(DecodeContext& ctx, const DocNode& spec, const std::string& path,
                                          std::string_view api_version) {
  ResourceClaimSpec out;
  const DocNode devices = ctx.Map(spec, "devices", path + ".devices");
  if (!devices.IsDefined()) return out;
  const bool flat = FlatVersion(api_version);
  for (const auto& [r, p] : ctx.Objects(devices, "requests", path + ".devices.requests"))
    out.requests.push_back(DecodeRequest(ctx, r, p, flat));
  for (const auto& [c, p] : ctx.Objects(devices, "constraints", path + ".devices.constraints")) {
    DeviceConstraint dc;
    dc.requests = ctx.Strings(c, "requests", p + ".requests");
    if (c["matchAttribute"].IsDefined()) dc.match_attribute = ctx.Str(c, "matchAttribute", p + ".matchAttribute");
    if (c["distinctAttribute"].IsDefined())
      dc.distinct_attribute = ctx.Str(c, "distinctAttribute", p + ".distinctAttribute");
    out.constraints.push_back(std::move(dc));
  }
  out.config = DecodeConfigs(ctx, devices, path + ".devices.config", nullptr);
  return out;
}

ResourceClaim DecodeResourceClaim(DecodeContext& ctx, const DocNode& obj) {
  ResourceClaim c;
  DecodeObjectMeta(ctx, obj, "metadata", c.meta);
  c.api_version = ctx.Str(obj, "apiVersion", "apiVersion");
  const DocNode meta = obj["metadata"];
  if (meta.IsMap()) {
    c.being_deleted = meta["deletionTimestamp"].IsDefined() && !meta["deletionTimestamp"].IsNull();
    for (const auto& [o, p] : ctx.Objects(meta, "ownerReferences", "metadata.ownerReferences")) {
      if (!ctx.Bool(o, "controller", p + ".controller").value_or(false)) continue;
      c.owner_kind = ctx.Str(o, "kind", p + ".kind");
      c.owner_name = ctx.Str(o, "name", p + ".name");
      c.owner_uid = ctx.Str(o, "uid", p + ".uid");
    }
  }
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) c.spec = DecodeResourceClaimSpec(ctx, spec, "spec", c.api_version);
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    const DocNode alloc = ctx.Map(status, "allocation", "status.allocation");
    if (alloc.IsDefined()) c.allocation = DecodeAllocation(ctx, alloc, "status.allocation");
    for (const auto& [r, p] : ctx.Objects(status, "reservedFor", "status.reservedFor"))
      c.reserved_for.push_back({ctx.Str(r, "apiGroup", p + ".apiGroup"), ctx.Str(r, "resource", p + ".resource"),
                                ctx.Str(r, "name", p + ".name"), ctx.Str(r, "uid", p + ".uid")});
  }
  return c;
}

ResourceClaimTemplate DecodeResourceClaimTemplate(DecodeContext& ctx, const DocNode& obj) {
  ResourceClaimTemplate t;
  DecodeObjectMeta(ctx, obj, "metadata", t.meta);
  t.api_version = ctx.Str(obj, "apiVersion", "apiVersion");
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (!spec.IsDefined()) return t;
  const DocNode m = ctx.Map(spec, "metadata", "spec.metadata");
  if (m.IsDefined()) {
    t.claim_labels = ctx.StrMap(m, "labels", "spec.metadata.labels");
    t.claim_annotations = ctx.StrMap(m, "annotations", "spec.metadata.annotations");
  }
  const DocNode claim_spec = ctx.Map(spec, "spec", "spec.spec");
  if (claim_spec.IsDefined()) t.spec = DecodeResourceClaimSpec(ctx, claim_spec, "spec.spec", t.api_version);
  return t;
}

ResourceSlice DecodeResourceSlice(DecodeContext& ctx, const DocNode& obj) {
  ResourceSlice s;
  DecodeObjectMeta(ctx, obj, "metadata", s.meta);
  s.api_version = ctx.Str(obj, "apiVersion", "apiVersion");
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (!spec.IsDefined()) return s;
  s.driver = ctx.Str(spec, "driver", "spec.driver");
  const DocNode pool = ctx.Map(spec, "pool", "spec.pool");
  if (pool.IsDefined()) {
    s.pool.name = ctx.Str(pool, "name", "spec.pool.name");
    s.pool.generation = ctx.Int(pool, "generation", "spec.pool.generation").value_or(0);
    s.pool.resource_slice_count = ctx.Int(pool, "resourceSliceCount", "spec.pool.resourceSliceCount").value_or(0);
  }
  s.node_name = ctx.Str(spec, "nodeName", "spec.nodeName");
  s.node_selector = DecodeOptionalNodeSelector(ctx, spec, "spec.nodeSelector");
  s.all_nodes = ctx.Bool(spec, "allNodes", "spec.allNodes").value_or(false);
  s.per_device_node_selection = ctx.Bool(spec, "perDeviceNodeSelection", "spec.perDeviceNodeSelection").value_or(false);
  const bool flat = FlatVersion(s.api_version);
  for (const auto& [d, p] : ctx.Objects(spec, "devices", "spec.devices")) s.devices.push_back(DecodeDevice(ctx, d, p, flat));
  for (const auto& [c, p] : ctx.Objects(spec, "sharedCounters", "spec.sharedCounters"))
    s.shared_counters.push_back({ctx.Str(c, "name", p + ".name"), DecodeQuantityMap(ctx, c, "counters", p + ".counters", true)});
  return s;
}

DeviceClass DecodeDeviceClass(DecodeContext& ctx, const DocNode& obj) {
  DeviceClass c;
  DecodeObjectMeta(ctx, obj, "metadata", c.meta);
  c.api_version = ctx.Str(obj, "apiVersion", "apiVersion");
  const DocNode meta = obj["metadata"];
  if (meta.IsMap()) c.creation_timestamp = ctx.Str(meta, "creationTimestamp", "metadata.creationTimestamp");
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (!spec.IsDefined()) return c;
  DecodeSelectors(ctx, spec, "spec.selectors", c.selectors);
  c.config = DecodeConfigs(ctx, spec, "spec.config", nullptr);
  c.extended_resource_name = ctx.Str(spec, "extendedResourceName", "spec.extendedResourceName");
  return c;
}

}  // namespace gpusched

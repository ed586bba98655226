#include "gang_decode.h"

#include <algorithm>
#include <optional>

#include "controller_decode.h"
#include "crd_schema.h"
#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_decode.h"
#include "gpusched/io/kube_schema.h"
#include "gpusched/model/gang.h"
#include "gpusched/model/label_selector.h"
#include "gpusched/model/validation.h"
#include "gpusched/util/ascii.h"
#include "operator_decode.h"

namespace gpusched {
namespace {

// Built-in kinds: strict decoding against k8s.io/api's struct of that
// apiVersion (the Workload API's names repeat across versions).
bool DecodesStrictlyAs(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version,
                       bool namespaced) {
  const StructSchema* schema = FindKindSchema(version, kind);
  if (!schema) return true;
  const StrictDecodeResult r = StrictDecode(obj, *schema);
  if (r.ok()) return true;
  Reject(src, RawId(kind, obj, namespaced), r.Line() ? r.Line() : obj.Line(), CannotHandle(kind, version, r.Message()));
  return false;
}

std::string RawName(const DocNode& obj) {
  const DocNode n = obj["metadata"]["name"];
  return n.IsScalar() ? std::string(n.Scalar()) : "";
}

void NameErrors(const ObjectMeta& meta, std::vector<FieldError>& errs) {
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
    return;
  }
  for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
}

// Decodes metadata (namespace defaulted) and returns the ownership errors.
std::vector<FieldError> DecodeMeta(DecodeContext& ctx, const DocNode& obj, ObjectMeta& meta,
                                   std::optional<OwnerReference>& owner) {
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  std::vector<FieldError> errs = DecodeOwnerReferences(ctx, obj, owner);
  if (meta.namespace_.empty()) meta.namespace_ = kDefaultNamespace;
  return errs;
}

// DecodeMeta for a group object, whose name must be given (no generateName):
// the metadata errors with the name's among them, in the API server's order.
std::vector<FieldError> DecodeNamedMeta(DecodeContext& ctx, const DocNode& obj, ObjectMeta& meta,
                                        std::optional<OwnerReference>& owner) {
  std::vector<FieldError> errs = DecodeMeta(ctx, obj, meta, owner);
  std::vector<FieldError> name_errs;
  NameErrors(meta, name_errs);
  InsertMetadataErrors(errs, std::move(name_errs));
  return errs;
}

// Refuses a second object of the same resource, namespace and name.
bool Unique(const Source& src, const std::string& kind, const std::string& version, const ObjectMeta& meta,
            const std::string& id, int line) {
  const std::string key = GangResourceName(kind, version) + "/" + meta.namespace_ + "/" + meta.name;
  if (src.out.gang_object_keys.insert(key).second) return true;
  Reject(src, id, line, GangResourceName(kind, version) + " \"" + meta.name + "\" already exists");
  return false;
}

// OpenAPI's minimum for a custom resource's integer (kube-openapi: "<path>
// in body should be greater than or equal to <min>").
void Minimum(std::optional<int64_t> v, int64_t min, const std::string& path, std::vector<FieldError>& errs) {
  if (v && *v < min)
    errs.push_back(FieldError{FieldError::Type::kInvalid, path, std::to_string(*v),
                              path + " in body should be greater than or equal to " + std::to_string(min)});
}

// ValidatePositiveField.
void Positive(int64_t v, const std::string& path, std::vector<FieldError>& errs) {
  if (v <= 0)
    errs.push_back(FieldError{FieldError::Type::kInvalid, path, std::to_string(v), "must be greater than 0"});
}

// A scheduling policy {basic: {}} | {gang: {minCount}}: exactly one
// (validatePodGroupPolicy, pkg/apis/scheduling/validation).
void DecodePolicy(DecodeContext& ctx, const DocNode& parent, const char* key, const std::string& path, bool& gang,
                  int32_t& min_count, std::vector<FieldError>& errs) {
  const DocNode policy = ctx.Map(parent, key, path);
  const DocNode basic = policy.IsDefined() ? policy["basic"] : DocNode();
  const DocNode g = policy.IsDefined() ? ctx.Map(policy, "gang", path + ".gang") : DocNode();
  const bool has_basic = basic.IsDefined() && !basic.IsNull();
  const bool has_gang = g.IsDefined();
  if (has_basic && has_gang) {
    errs.push_back(FieldError{FieldError::Type::kInvalid, path, "\"{`basic`, `gang`}\"",
                              "exactly one of `basic`, `gang` is required, but multiple fields are set"});
  } else if (!has_basic && !has_gang) {
    errs.push_back(FieldError::Required(path, "exactly one of `basic`, `gang` is required"));
  }
  gang = has_gang && !has_basic;
  min_count = 0;
  if (has_gang) {
    const int64_t mc = ctx.Int(g, "minCount", path + ".gang.minCount").value_or(0);
    if (!has_basic) Positive(mc, path + ".gang.minCount", errs);
    min_count = static_cast<int32_t>(std::clamp<int64_t>(mc, 0, INT32_MAX));
  }
}

std::string PathSegmentErrors(const std::string& v) {
  // pathvalidation.IsValidPathSegmentName.
  if (v == "." || v == "..") return "may not be '" + v + "'";
  for (const char* bad : {"/", "%"})
    if (v.find(bad) != std::string::npos) return std::string("may not contain '") + bad + "'";
  return "";
}

void ControllerRefErrors(DecodeContext& ctx, const DocNode& spec, std::vector<FieldError>& errs) {
  const DocNode ref = ctx.Map(spec, "controllerRef", "spec.controllerRef");
  if (!ref.IsDefined()) return;
  const std::string p = "spec.controllerRef";
  const std::string group = ctx.Str(ref, "apiGroup", p + ".apiGroup");
  const std::string kind = ctx.Str(ref, "kind", p + ".kind");
  const std::string name = ctx.Str(ref, "name", p + ".name");
  if (!group.empty())
    for (const auto& m : IsDNS1123Subdomain(group)) errs.push_back(FieldError::Invalid(p + ".apiGroup", group, m));
  for (const auto& [field, v] : {std::pair<std::string, std::string>{p + ".kind", kind}, {p + ".name", name}}) {
    if (v.empty()) {
      errs.push_back(FieldError::Required(field, ""));
    } else if (std::string m = PathSegmentErrors(v); !m.empty()) {
      errs.push_back(FieldError::Invalid(field, v, m));
    }
  }
}

constexpr int kMaxPodGroups = 8;  // WorkloadMaxPodGroups, WorkloadMaxPodGroupTemplates

struct Loaded {
  ObjectMeta meta;
  std::string id;
  int line = 0;
};

// The common steps of every kind here: decode errors reported, validation
// errors reported; on success the object's identity.
std::optional<Loaded> Finish(const Source& src, DecodeContext& ctx, const DocNode& obj, const std::string& kind,
                             const std::string& version, ObjectMeta meta, std::vector<FieldError> errs) {
  Loaded l;
  l.id = ObjectId(kind, meta);
  l.line = ctx.Line(obj);
  FlushWarnings(src, ctx, l.id);
  if (!ctx.errors().empty()) {
    Reject(src, l.id, ctx.first_error_line(), DecodeFailure(kind, version, ctx));
    return std::nullopt;
  }
  if (!errs.empty()) {
    Reject(src, l.id, ctx.LineOf(errs.front().field), InvalidObjectMessage(kind, meta.name, errs));
    return std::nullopt;
  }
  if (!Unique(src, kind, version, meta, l.id, l.line)) return std::nullopt;
  l.meta = std::move(meta);
  return l;
}

PodGroupDecl NewDecl(GangApi api, const Loaded& l, const Source& src) {
  PodGroupDecl d;
  d.api = api;
  d.ns = l.meta.namespace_;
  d.name = l.meta.name;
  d.file = src.file;
  d.line = l.line;
  return d;
}

// The owner a group object names (an operator's PodGroup), "Kind/ns/name".
std::string OwnerOf(const std::optional<OwnerReference>& ref, const std::string& ns) {
  if (!ref) return "";
  std::string kind = ref->kind;
  if (ApiGroup(ref->api_version) == "batch.volcano.sh") kind += ".batch.volcano.sh";
  return kind + "/" + ns + "/" + ref->name;
}

// A Workload's spec.<key> (its groups, or its group templates), with the
// controllerRef errors and the list's own: at least one, at most kMaxPodGroups.
std::vector<std::pair<DocNode, std::string>> WorkloadGroupList(DecodeContext& ctx, const DocNode& obj,
                                                               const std::string& key,
                                                               std::vector<FieldError>& errs) {
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) ControllerRefErrors(ctx, spec, errs);
  const std::string path = "spec." + key;
  auto items = spec.IsDefined() ? ctx.Objects(spec, key, path) : std::vector<std::pair<DocNode, std::string>>{};
  if (items.empty()) {
    errs.push_back(FieldError::Required(path, "must have at least one item"));
  } else if (items.size() > kMaxPodGroups) {
    errs.push_back(FieldError::TooMany(path, static_cast<int64_t>(items.size()), kMaxPodGroups));
  }
  return items;
}

// A group's (or group template's) name at `path`: a DNS label, unique in its Workload.
void GroupNameErrors(const std::string& name, const std::string& path, std::vector<std::string>& seen,
                     std::vector<FieldError>& errs) {
  for (const auto& m : IsDNS1123Label(name)) errs.push_back(FieldError::Invalid(path + ".name", name, m));
  if (std::find(seen.begin(), seen.end(), name) != seen.end())
    errs.push_back(FieldError::Duplicate(path + ".name", name));
  seen.push_back(name);
}

void LoadWorkloadV1alpha1(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  if (!DecodesStrictlyAs(src, obj, kind, version, true)) return;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  std::optional<OwnerReference> owner;
  std::vector<FieldError> errs = DecodeNamedMeta(ctx, obj, meta, owner);
  std::vector<PodGroupDecl::WorkloadGroup> groups;
  const auto items = WorkloadGroupList(ctx, obj, "podGroups", errs);
  std::vector<std::string> seen;
  for (const auto& [g, p] : items) {
    PodGroupDecl::WorkloadGroup wg;
    wg.name = ctx.Str(g, "name", p + ".name");
    if (items.size() <= kMaxPodGroups) GroupNameErrors(wg.name, p, seen, errs);
    std::vector<FieldError> policy_errs;
    DecodePolicy(ctx, g, "policy", p + ".policy", wg.gang, wg.min_count, policy_errs);
    if (items.size() <= kMaxPodGroups) errs.insert(errs.end(), policy_errs.begin(), policy_errs.end());
    groups.push_back(std::move(wg));
  }
  std::optional<Loaded> l = Finish(src, ctx, obj, kind, version, std::move(meta), std::move(errs));
  if (!l) return;
  PodGroupDecl d = NewDecl(GangApi::kWorkloadV1alpha1, *l, src);
  d.workload_groups = std::move(groups);
  d.timeout_seconds = kWorkloadGangTimeoutSeconds;
  d.owner = OwnerOf(owner, d.ns);
  src.out.pod_groups.push_back(std::move(d));
}

// v1.36: Workload with podGroupTemplates. The scheduler reads the PodGroups
// made from them (their policy is copied into each), so the Workload itself
// is validated and counted, and forms no group.
void LoadWorkloadV1alpha2(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  if (!DecodesStrictlyAs(src, obj, kind, version, true)) return;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  std::optional<OwnerReference> owner;
  std::vector<FieldError> errs = DecodeNamedMeta(ctx, obj, meta, owner);
  const auto items = WorkloadGroupList(ctx, obj, "podGroupTemplates", errs);
  std::vector<std::string> seen;
  for (const auto& [t, p] : items) {
    const std::string name = ctx.Str(t, "name", p + ".name");
    bool gang = false;
    int32_t min_count = 0;
    std::vector<FieldError> template_errs;
    GroupNameErrors(name, p, seen, template_errs);
    DecodePolicy(ctx, t, "schedulingPolicy", p + ".schedulingPolicy", gang, min_count, template_errs);
    if (items.size() <= kMaxPodGroups) errs.insert(errs.end(), template_errs.begin(), template_errs.end());
  }
  Finish(src, ctx, obj, kind, version, std::move(meta), std::move(errs));
}

// v1.36's PodGroup: the group pods name in spec.schedulingGroup.
void LoadPodGroupV1alpha2(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  if (!DecodesStrictlyAs(src, obj, kind, version, true)) return;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  std::optional<OwnerReference> owner;
  std::vector<FieldError> errs = DecodeNamedMeta(ctx, obj, meta, owner);
  bool gang = false;
  int32_t min_count = 0;
  std::string priority_class;
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    const DocNode ref = ctx.Map(spec, "podGroupTemplateRef", "spec.podGroupTemplateRef");
    if (ref.IsDefined()) {
      const DocNode w = ctx.Map(ref, "workload", "spec.podGroupTemplateRef.workload");
      if (w.IsDefined()) {
        const std::string p = "spec.podGroupTemplateRef.workload";
        const std::string workload = ctx.Str(w, "workloadName", p + ".workloadName");
        const std::string tmpl = ctx.Str(w, "podGroupTemplateName", p + ".podGroupTemplateName");
        if (workload.empty()) errs.push_back(FieldError::Required(p + ".workloadName", ""));
        for (const auto& m : workload.empty() ? std::vector<std::string>{} : IsDNS1123Subdomain(workload))
          errs.push_back(FieldError::Invalid(p + ".workloadName", workload, m));
        if (tmpl.empty()) errs.push_back(FieldError::Required(p + ".podGroupTemplateName", ""));
        for (const auto& m : tmpl.empty() ? std::vector<std::string>{} : IsDNS1123Label(tmpl))
          errs.push_back(FieldError::Invalid(p + ".podGroupTemplateName", tmpl, m));
      }
    }
    DecodePolicy(ctx, spec, "schedulingPolicy", "spec.schedulingPolicy", gang, min_count, errs);
    priority_class = ctx.Str(spec, "priorityClassName", "spec.priorityClassName");
  } else {
    errs.push_back(FieldError::Required("spec.schedulingPolicy", "exactly one of `basic`, `gang` is required"));
  }
  std::optional<Loaded> l = Finish(src, ctx, obj, kind, version, std::move(meta), std::move(errs));
  if (!l) return;
  PodGroupDecl d = NewDecl(GangApi::kPodGroupV1alpha2, *l, src);
  d.gang = gang;
  d.min_count = min_count;
  d.timeout_seconds = kWorkloadGangTimeoutSeconds;  // permitTimeoutDuration, 5 min
  d.priority_class_name = priority_class;
  d.owner = OwnerOf(owner, d.ns);
  src.out.pod_groups.push_back(std::move(d));
}

// Checks a custom resource against its CRD; false (rejected) when it fails.
bool CheckCrd(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  const StructSchema* schema = FindCrdSchema(version, kind);
  if (!schema) return true;
  const CrdCheckResult r = CheckCustomResource(obj, *schema);
  if (!r.strict_errors.empty()) {
    Reject(src, RawId(kind, obj, true), r.strict_errors.front().first, CannotHandle(kind, version, r.StrictMessage()));
    return false;
  }
  if (!r.type_errors.empty()) {
    Reject(src, RawId(kind, obj, true), r.type_error_line, InvalidObjectMessage(kind, RawName(obj), r.type_errors));
    return false;
  }
  return true;
}

void LoadCrdPodGroup(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version,
                     GangApi api) {
  if (!CheckCrd(src, obj, kind, version)) return;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  std::optional<OwnerReference> owner;
  std::vector<FieldError> errs = DecodeNamedMeta(ctx, obj, meta, owner);
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  std::optional<int64_t> min_member;
  PodGroupDecl d;
  d.api = api;
  if (spec.IsDefined()) {
    min_member = ctx.Int(spec, "minMember", "spec.minMember");
    d.min_resources = ctx.Quantities(spec, "minResources", "spec.minResources");
    switch (api) {
      case GangApi::kCoscheduling: {
        // apis/scheduling/v1alpha1: +kubebuilder:validation:Minimum=1.
        Minimum(min_member, 1, "spec.minMember", errs);
        const std::optional<int64_t> timeout = ctx.Int(spec, "scheduleTimeoutSeconds", "spec.scheduleTimeoutSeconds");
        // util.GetWaitTimeDuration: the PodGroup's, else the plugin's
        // permitWaitingTimeSeconds (its args, default 60: the scheduler's
        // configuration decides, sched/framework/gang_serving.h).
        if (timeout && *timeout > 0) d.timeout_seconds = static_cast<double>(*timeout);
        break;
      }
      case GangApi::kVolcano: {
        d.queue = ctx.Str(spec, "queue", "spec.queue");
        if (d.queue.empty()) d.queue = "default";  // Volcano's podgroup webhook
        d.priority_class_name = ctx.Str(spec, "priorityClassName", "spec.priorityClassName");
        const DocNode tasks = ctx.Map(spec, "minTaskMember", "spec.minTaskMember");
        if (tasks.IsDefined()) {
          for (auto [k, v] : tasks.Entries()) {
            const std::string task(k.Scalar());
            const int64_t n = ctx.Int(tasks, task, "spec.minTaskMember." + task).value_or(0);
            d.subgroups.push_back(GangSubgroup{task, static_cast<int32_t>(std::clamp<int64_t>(n, 0, INT32_MAX)), ""});
          }
          // Map order is not the input's concern: by task name.
          std::sort(d.subgroups.begin(), d.subgroups.end(),
                    [](const GangSubgroup& a, const GangSubgroup& b) { return a.name < b.name; });
        }
        break;
      }
      case GangApi::kKai: {
        Minimum(min_member, 0, "spec.minMember", errs);
        if (!min_member) min_member = 1;
        d.queue = ctx.Str(spec, "queue", "spec.queue");
        d.priority_class_name = ctx.Str(spec, "priorityClassName", "spec.priorityClassName");
        for (const auto& [sg, p] : ctx.Objects(spec, "subGroups", "spec.subGroups")) {
          GangSubgroup s;
          s.name = ctx.Str(sg, "name", p + ".name");
          const std::optional<int64_t> n = ctx.Int(sg, "minMember", p + ".minMember");
          Minimum(n, 0, p + ".minMember", errs);
          s.min_count = static_cast<int32_t>(std::clamp<int64_t>(n.value_or(0), 0, INT32_MAX));
          s.parent = ctx.Str(sg, "parent", p + ".parent");
          d.subgroups.push_back(std::move(s));
        }
        break;
      }
      default: break;
    }
  }
  std::optional<Loaded> l = Finish(src, ctx, obj, kind, version, std::move(meta), std::move(errs));
  if (!l) return;
  d.ns = l->meta.namespace_;
  d.name = l->meta.name;
  d.file = src.file;
  d.line = l->line;
  d.min_count = static_cast<int32_t>(std::clamp<int64_t>(min_member.value_or(0), 0, INT32_MAX));
  d.owner = OwnerOf(owner, d.ns);
  src.out.pod_groups.push_back(std::move(d));
}

// intstr.IntOrString at parent[key] for a PDB: a count, or a percentage
// string ("[0-9]+%"); any other string is ValidatePositiveIntOrPercent's
// error, returned in `errs`.
std::optional<IntOrPercent> DecodeIntOrPercentValue(DecodeContext& ctx, const DocNode& parent, const char* key,
                                                    const std::string& path, std::vector<FieldError>& errs) {
  const DocNode n = parent[key];
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  if (n.IsScalar() && n.Kind() == ScalarKind::kNumber) {
    const std::optional<int64_t> v = ctx.Int(parent, key, path);
    if (!v) return std::nullopt;
    return IntOrPercent{*v, false};
  }
  const std::string s = ctx.Str(parent, key, path);
  if (!n.IsScalar()) return std::nullopt;
  const std::string_view digits = std::string_view(s).substr(0, s.empty() ? 0 : s.size() - 1);
  if (!s.empty() && s.back() == '%' && !digits.empty() && digits.size() <= 18 &&
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return IntOrPercent{std::stoll(std::string(digits)), true};
  errs.push_back(FieldError::Invalid(path, s,
                                     "a valid percent string must be a numeric string followed by an ending '%' (e.g. "
                                     "'1%',  or '93%', regex used for validation is '[0-9]+%')"));
  // The value is still set: "minAvailable and maxUnavailable cannot be both set" applies.
  return IntOrPercent{0, true};
}

void LoadPdb(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  if (!DecodesStrictlyAs(src, obj, kind, version, true)) return;
  DecodeContext ctx(obj);
  PodDisruptionBudget pdb;
  std::optional<OwnerReference> owner;
  std::vector<FieldError> decoded = DecodeMeta(ctx, obj, pdb.meta, owner);
  ApplyGenerateName(pdb.meta, kind, "", src.out);
  std::vector<FieldError> percent_errs;
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    pdb.min_available = DecodeIntOrPercentValue(ctx, spec, "minAvailable", "spec.minAvailable", percent_errs);
    pdb.max_unavailable = DecodeIntOrPercentValue(ctx, spec, "maxUnavailable", "spec.maxUnavailable", percent_errs);
    pdb.selector = DecodeLabelSelector(ctx, spec, "selector", "spec.selector");
    pdb.unhealthy_pod_eviction_policy = ctx.Str(spec, "unhealthyPodEvictionPolicy", "spec.unhealthyPodEvictionPolicy");
  }
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    if (auto v = ctx.Int(status, "disruptionsAllowed", "status.disruptionsAllowed"))
      pdb.status_disruptions_allowed = static_cast<int32_t>(std::clamp<int64_t>(*v, INT32_MIN, INT32_MAX));
  }
  std::vector<FieldError> errs = ValidatePdb(pdb, std::move(percent_errs));
  InsertMetadataErrors(errs, std::move(decoded));
  // A percentage that did not parse is an error, not a value.
  std::optional<Loaded> l = Finish(src, ctx, obj, kind, version, pdb.meta, std::move(errs));
  if (!l) return;
  src.out.pdbs.push_back(LoadedPdb{std::move(pdb), src.file, l->line});
}

}  // namespace

std::string GangResourceName(const std::string& kind, const std::string& api_version) {
  std::string r = AsciiLower(kind) + 's';
  if (kind == "PodDisruptionBudget") r = "poddisruptionbudgets";
  const std::string group(GroupOf(api_version));
  return group.empty() ? r : r + "." + group;
}

bool LoadGangObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& version) {
  if (kind == "Workload" && version == "scheduling.k8s.io/v1alpha1") {
    LoadWorkloadV1alpha1(src, obj, kind, version);
  } else if (kind == "Workload" && version == "scheduling.k8s.io/v1alpha2") {
    LoadWorkloadV1alpha2(src, obj, kind, version);
  } else if (kind == "PodGroup" && version == "scheduling.k8s.io/v1alpha2") {
    LoadPodGroupV1alpha2(src, obj, kind, version);
  } else if (kind == "PodGroup" && version == "scheduling.x-k8s.io/v1alpha1") {
    LoadCrdPodGroup(src, obj, kind, version, GangApi::kCoscheduling);
  } else if (kind == "PodGroup" && version == "scheduling.volcano.sh/v1beta1") {
    LoadCrdPodGroup(src, obj, kind, version, GangApi::kVolcano);
  } else if (kind == "PodGroup" && version == "scheduling.run.ai/v2alpha2") {
    LoadCrdPodGroup(src, obj, kind, version, GangApi::kKai);
  } else if (kind == "PodDisruptionBudget" && version == "policy/v1") {
    LoadPdb(src, obj, kind, version);
  } else if (std::optional<OperatorKind> op = ParseOperatorKind(version, kind)) {
    if (CheckCrd(src, obj, kind, version)) LoadOperator(src, obj, *op, version);
  } else if ((kind == "PodDisruptionBudget" && GroupOf(version) == "policy") ||
             ((kind == "Workload" || kind == "PodGroup") && GroupOf(version) == "scheduling.k8s.io")) {
    // Built-in groups that do not serve this version (policy/v1beta1 was
    // removed in v1.25; the Workload API is v1alpha1 in v1.35, v1alpha2 in
    // v1.36): kubectl's REST mapping finds no such kind.
    Reject(src, RawId(kind, obj, true), obj.Line(), "no matches for kind \"" + kind + "\" in version \"" + version + "\"");
  } else {
    return false;
  }
  return true;
}

}  // namespace gpusched

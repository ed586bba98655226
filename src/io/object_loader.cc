#include "object_loader.h"

#include <algorithm>
#include <optional>

#include "controller_decode.h"
#include "dra_decode.h"
#include "gang_decode.h"
#include "namespace_loader.h"
#include "spread_objects_decode.h"
#include "volume_decode.h"
#include "gpusched/controllers/template_key.h"
#include "gpusched/controllers/workload_names.h"
#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_decode.h"
#include "gpusched/io/kube_schema.h"
#include "gpusched/model/dra/dra_validation.h"
#include "gpusched/model/fractional_gpu_advice.h"
#include "gpusched/model/hami.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// --- Helpers shared with the kind loaders of other files (object_loader.h) ---
std::string ObjectId(std::string_view kind, const ObjectMeta& m) {
  std::string id(kind);
  if (!m.namespace_.empty()) id += "/" + m.namespace_;
  return id + "/" + m.name;
}

// The version part of an apiVersion ("apps/v1" -> "v1"), as the API server
// names it in "Deployment in version "v1" cannot be handled as a Deployment".
std::string_view VersionOf(std::string_view api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
}
std::string_view GroupOf(std::string_view api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

// "Pod in version "v1" cannot be handled as a Pod: <errors>", the API
// server's message for a body it cannot decode.
std::string CannotHandle(std::string_view kind, std::string_view api_version, const std::string& why) {
  return std::string(kind) + " in version \"" + std::string(VersionOf(api_version)) + "\" cannot be handled as a " +
         std::string(kind) + ": " + why;
}

std::string DecodeFailure(std::string_view kind, std::string_view api_version, const DecodeContext& ctx) {
  std::string msg;
  for (size_t i = 0; i < ctx.errors().size(); ++i) msg += (i ? "; " : "") + ctx.errors()[i];
  return CannotHandle(kind, api_version, msg);
}

void FlushWarnings(const Source& src, const DecodeContext& ctx, const std::string& id) {
  for (const auto& [line, text] : ctx.warnings())
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": " + text);
}

void Reject(const Source& src, std::string id, int line, std::string message) {
  src.out.rejected.push_back(InputError{std::move(id), src.file, line, std::move(message)});
}

void RejectInvalid(const Source& src, std::string id, int line, std::string_view kind, std::string_view name,
                   const std::vector<FieldError>& errors) {
  src.out.rejected.push_back(
      InputError{std::move(id), src.file, line, InvalidObjectMessage(kind, name, errors), FractionalGpuAdvice(errors)});
}

// The id of an object before it is decoded: its kind, namespace and name as
// far as they are strings.
std::string RawId(std::string_view kind, const DocNode& obj, bool namespaced) {
  ObjectMeta m;
  const DocNode meta = obj["metadata"];
  if (meta["name"].IsScalar() && meta["name"].Kind() == ScalarKind::kString) m.name = std::string(meta["name"].Scalar());
  if (namespaced) {
    const DocNode ns = meta["namespace"];
    m.namespace_ = ns.IsScalar() && ns.Kind() == ScalarKind::kString && !ns.Scalar().empty() ? std::string(ns.Scalar())
                                                                                              : kDefaultNamespace;
  }
  return ObjectId(kind, m);
}

// Strict decoding (kube_schema.h): false, with the object rejected, when a
// value has the wrong type or a field is unknown or given twice.
bool DecodesStrictly(const Source& src, const DocNode& obj, std::string_view kind, std::string_view api_version,
                     bool namespaced) {
  if (!src.strict) return true;  // an API server's object: newer fields are ignored, as client-go ignores them
  const StructSchema* schema = FindStructSchema(kind);
  if (!schema) return true;
  const StrictDecodeResult r = StrictDecode(obj, *schema);
  if (r.ok()) return true;
  Reject(src, RawId(kind, obj, namespaced), r.Line() ? r.Line() : obj.Line(), CannotHandle(kind, api_version, r.Message()));
  return false;
}

// Gives an object with only generateName a deterministic name, derived from
// what it is (kind, namespace, generateName and `content`, the canonical
// text of its spec) and numbered among identical ones: the same objects get
// the same names whatever their files are called and in whichever order
// they come.
void ApplyGenerateName(ObjectMeta& m, std::string_view kind, const std::string& content, Manifests& out) {
  if (!m.name.empty() || m.generate_name.empty()) return;
  std::string key = std::string(kind) + "/" + m.namespace_ + "/" + m.generate_name + "/" + content;
  const int n = out.generated_names[Fnv1a64(key)]++;
  m.name = m.generate_name + SafeSuffix(Fnv1a64(key + "#" + std::to_string(n)), 5);
}

// --- end of the shared helpers ---

namespace {

// Checks for duplicates and keeps one pod (plain or expanded).
bool AcceptPod(const Source& src, Pod pod, int line) {
  std::string key = pod.ns() + "/" + pod.name();
  if (!src.out.pod_keys.insert(std::move(key)).second) {
    Reject(src, ObjectId("Pod", pod.meta), line, "pods \"" + pod.name() + "\" already exists");
    return false;
  }
  src.out.pods.push_back(LoadedPod{std::move(pod), src.file, line});
  return true;
}

void LoadPod(const Source& src, const DocNode& obj, const std::string& api_version, bool strict = true) {
  if (strict && !DecodesStrictly(src, obj, "Pod", api_version, true)) return;
  DecodeContext ctx(obj);
  Pod pod;
  DecodePod(ctx, obj, pod);
  std::vector<FieldError> ownership = DecodeOwnerReferences(ctx, obj, pod.controller_ref);
  const int line = ctx.Line(obj);
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  ApplyGenerateName(pod.meta, "Pod", TemplateKey(pod) + "|" + pod.node_name + "|" + pod.phase, src.out);
  const std::string id = ObjectId("Pod", pod.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure("Pod", api_version, ctx));
  DefaultPod(pod);
  // The API server merges matchLabelKeys into a new pod's pod affinity
  // selectors; a pod read from a cluster (it has a uid) had it done there.
  if (pod.meta.uid.empty()) MergeAffinityLabelKeys(pod);
  std::vector<FieldError> errs = ValidatePod(pod);
  InsertMetadataErrors(errs, std::move(ownership));
  if (!errs.empty())
    return RejectInvalid(src, id, ctx.LineOf(errs.front().field), "Pod", pod.name(), errs);
  if (IsTerminated(pod)) {
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": status.phase is " + pod.phase +
                               ": a terminated pod holds no resources and is not scheduled");
    // Kept aside: its controller counts it (a Job's completions).
    src.out.terminal_pods.push_back(LoadedPod{std::move(pod), src.file, line});
    return;
  }
  AcceptPod(src, std::move(pod), line);
}

void LoadNode(const Source& src, const DocNode& obj, const std::string& api_version, bool strict = true) {
  if (strict && !DecodesStrictly(src, obj, "Node", api_version, false)) return;
  DecodeContext ctx(obj);
  Node node;
  DecodeNode(ctx, obj, node);
  // A cluster-scoped object's namespace is dropped by the API server
  // (rest.EnsureObjectNamespaceMatchesRequestNamespace), not refused.
  node.meta.namespace_.clear();
  const int line = ctx.Line(obj);
  const std::string id = ObjectId("Node", node.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure("Node", api_version, ctx));
  std::vector<FieldError> errs = ValidateNode(node);
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage("Node", node.name(), errs));
  if (!src.out.node_keys.insert(node.name()).second)
    return Reject(src, id, line, "nodes \"" + node.name() + "\" already exists");
  if (IsHamiNode(node))
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": " + HamiNodeNote(node));
  if (!node.EffectiveAllocatable().count(std::string(kResourcePods)))
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id +
                               ": no \"pods\" in status.allocatable or status.capacity: kube-scheduler "
                               "treats the node as full (\"Too many pods\"); kubelets report pods: \"110\"");
  src.out.nodes.push_back(LoadedNode{std::move(node), src.file, line});
}

// A workload controller: decoded, validated, and kept for ExpandControllers,
// which runs once every file is read.
void LoadController(const Source& src, const DocNode& obj, ControllerKind kind, const std::string& api_version) {
  const std::string kind_name(KindName(kind));
  if (!DecodesStrictly(src, obj, kind_name, api_version, true)) return;
  DecodeContext ctx(obj);
  Controller c;
  std::vector<FieldError> decoded = DecodeController(ctx, obj, kind, c);
  const int line = ctx.Line(obj);
  if (c.meta.namespace_.empty()) c.meta.namespace_ = kDefaultNamespace;
  ApplyGenerateName(c.meta, kind_name,
                    TemplateKey(c.tmpl) + "|" + std::to_string(c.replicas) + "|" + std::to_string(c.parallelism) + "|" +
                        std::to_string(c.completions.value_or(-1)),
                    src.out);
  const std::string id = ObjectId(kind_name, c.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind_name, api_version, ctx));
  std::vector<FieldError> errs = ValidateController(c, std::move(decoded));
  if (!errs.empty())
    return RejectInvalid(src, id, ctx.LineOf(errs.front().field), kind_name, c.name(), errs);
  c.tmpl.meta.namespace_ = c.meta.namespace_;
  DefaultPod(c.tmpl);
  src.out.controllers.push_back(LoadedController{std::move(c), src.file, line});
}

// resource.k8s.io objects: decoded into Manifests::dra (model/dra/), read
// by the DynamicResources plugin (sched/plugins/dynamicresources/).
void LoadDraObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version) {
  DecodeContext ctx(obj);
  DraObjects& dra = src.out.dra;
  ResourceClaim claim;
  ResourceClaimTemplate tmpl;
  ResourceSlice slice;
  DeviceClass cls;
  ObjectMeta meta;
  if (kind == "ResourceClaim") {
    claim = DecodeResourceClaim(ctx, obj);
    if (claim.meta.namespace_.empty()) claim.meta.namespace_ = kDefaultNamespace;
    meta = claim.meta;
  } else if (kind == "ResourceClaimTemplate") {
    tmpl = DecodeResourceClaimTemplate(ctx, obj);
    if (tmpl.meta.namespace_.empty()) tmpl.meta.namespace_ = kDefaultNamespace;
    meta = tmpl.meta;
  } else if (kind == "ResourceSlice") {
    slice = DecodeResourceSlice(ctx, obj);
    meta = slice.meta;
  } else {
    cls = DecodeDeviceClass(ctx, obj);
    meta = cls.meta;
  }
  const std::string id = ObjectId(kind, meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, api_version, ctx));
  std::vector<FieldError> errs;
  if (meta.name.empty()) errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  if (meta.name.empty()) return Reject(src, id, ctx.Line(obj), InvalidObjectMessage(kind, meta.name, errs));
  // The spec as the API server validates it (model/dra/dra_validation.h).
  std::vector<FieldError> spec_errs;
  if (kind == "ResourceClaim") {
    spec_errs = ValidateResourceClaim(claim);
  } else if (kind == "ResourceClaimTemplate") {
    spec_errs = ValidateResourceClaimTemplate(tmpl);
  } else if (kind == "ResourceSlice") {
    spec_errs = ValidateResourceSlice(slice);
  } else {
    spec_errs = ValidateDeviceClass(cls);
  }
  for (FieldError& e : spec_errs) errs.push_back(std::move(e));
  if (!errs.empty()) return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage(kind, meta.name, errs));
  const std::string exists = DraResourceName(kind) + " \"" + meta.name + "\" already exists";
  const int line = ctx.Line(obj);
  const std::string key = meta.namespace_ + "/" + meta.name;
  bool added = true;
  if (kind == "ResourceClaim") {
    added = dra.claims.emplace(key, std::move(claim)).second;
  } else if (kind == "ResourceClaimTemplate") {
    added = dra.templates.emplace(key, std::move(tmpl)).second;
  } else if (kind == "ResourceSlice") {
    for (const ResourceSlice& sl : dra.slices) added = added && sl.meta.name != slice.meta.name;
    if (added) dra.slices.push_back(std::move(slice));
  } else {
    added = dra.device_classes.emplace(meta.name, std::move(cls)).second;
  }
  if (!added) Reject(src, id, line, exists);
}

// The system classes every cluster has (pkg/apis/scheduling/v1,
// SystemPriorityClasses).
struct SystemClass {
  const char* name;
  int32_t value;
};
constexpr SystemClass kSystemClasses[] = {{"system-node-critical", 2000001000}, {"system-cluster-critical", 2000000000}};
constexpr int32_t kHighestUserDefinablePriority = 1000000000;

// PriorityClass as pkg/apis/scheduling/validation.ValidatePriorityClass and
// the Priority admission plugin (one globalDefault) check it.
void LoadPriorityClass(const Source& src, const DocNode& obj, const std::string& api_version) {
  if (!DecodesStrictly(src, obj, "PriorityClass", api_version, false)) return;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  ApplyGenerateName(meta, "PriorityClass", "", src.out);
  const int32_t value = static_cast<int32_t>(ctx.Int(obj, "value", "value").value_or(0));
  const bool global_default = ctx.Bool(obj, "globalDefault", "globalDefault").value_or(false);
  const DocNode policy_node = obj["preemptionPolicy"];
  std::string policy = ctx.Str(obj, "preemptionPolicy", "preemptionPolicy");
  const std::string id = "PriorityClass/" + meta.name;
  if (!ctx.errors().empty())
    return Reject(src, id, ctx.first_error_line(), DecodeFailure("PriorityClass", api_version, ctx));
  std::vector<FieldError> errs;
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  }
  bool known_system = false;
  if (meta.name.rfind("system-", 0) == 0) {
    // scheduling.IsKnownSystemPriorityClass
    std::string why = meta.name + " is not a known system priority class";
    for (const SystemClass& c : kSystemClasses) {
      if (meta.name != c.name) continue;
      if (value != c.value) {
        why = "value of " + meta.name + " PriorityClass must be " + std::to_string(c.value);
      } else if (global_default) {
        why = "globalDefault of " + meta.name + " PriorityClass must be false";
      } else {
        why.clear();
        known_system = true;
      }
    }
    if (!why.empty())
      errs.push_back(FieldError::Forbidden(
          "metadata.name", "priority class names with 'system-' prefix are reserved for system use only. error: " + why));
  } else if (value > kHighestUserDefinablePriority) {
    errs.push_back(FieldError::Forbidden("value", "maximum allowed value of a user defined priority is " +
                                                      std::to_string(kHighestUserDefinablePriority)));
  }
  if (policy_node.IsDefined() && !policy_node.IsNull()) {
    // apivalidation.ValidatePreemptionPolicy
    if (policy.empty()) {
      errs.push_back(FieldError::Required("preemptionPolicy", ""));
    } else if (policy != "PreemptLowerPriority" && policy != "Never") {
      errs.push_back(FieldError::NotSupported("preemptionPolicy", policy, {"PreemptLowerPriority", "Never"}));
    }
  } else {
    policy = "PreemptLowerPriority";  // SetDefaults_PriorityClass
  }
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage("PriorityClass", meta.name, errs));
  // The built-in classes exist in every cluster; a dump of one lists them.
  if (known_system) return;
  if (global_default) {
    for (const auto& [name, pc] : src.out.priority_classes) {
      if (pc.global_default)
        return Reject(src, id, ctx.LineOf("globalDefault"),
                      "priorityclasses.scheduling.k8s.io \"" + meta.name + "\" is forbidden: PriorityClass " + name +
                          " is already marked as default. Only one default can exist");
    }
  }
  Manifests::PriorityClass pc;
  pc.value = value;
  pc.global_default = global_default;
  pc.preemption_policy = policy;
  if (!src.out.priority_classes.emplace(meta.name, pc).second)
    return Reject(src, id, ctx.Line(obj), "priorityclasses.scheduling.k8s.io \"" + meta.name + "\" already exists");
}

void LoadList(const Source& src, const DocNode& obj, int depth) {
  const DocNode items = obj["items"];
  if (items.IsDefined() && !items.IsNull() && !items.IsSequence())
    return Reject(src, "List", items.Line(), std::string("items: expected a list, got ") + DocKind(items));
  for (DocNode item : items) LoadObject(src, item, depth + 1);
}

// Counts an object of a kind gpusched does not model; one warning per kind.
void Skip(const Source& src, const DocNode& obj, const std::string& key, const std::string& why) {
  Manifests::Skipped& s = src.out.skipped[key];
  if (s.count++ == 0) {
    s.order = src.out.skipped.size();
    s.file = src.file;
    s.line = obj.Line();
    s.why = why;
    const DocNode name = obj["metadata"]["name"];
    s.first_name = name.IsScalar() ? std::string(name.Scalar()) : "";
  }
}

// What each kind gpusched reads must say as its apiVersion.
struct KindEntry {
  const char* kind;
  const char* api_version;
};
constexpr KindEntry kKinds[] = {{"Pod", "v1"},          {"Node", "v1"},          {"Deployment", "apps/v1"},
                                {"ReplicaSet", "apps/v1"}, {"StatefulSet", "apps/v1"}, {"DaemonSet", "apps/v1"},
                                {"Job", "batch/v1"},   {"CronJob", "batch/v1"}, {"PriorityClass", "scheduling.k8s.io/v1"}};

// API groups the API server serves itself: a kind of ours under another
// version of one of them has no match there ("no matches for kind"); under
// any other group it is another type (a custom resource such as Volcano's
// batch.volcano.sh Job).
bool IsBuiltInGroup(std::string_view group) {
  static constexpr std::string_view kGroups[] = {
      "", "apps", "batch", "scheduling.k8s.io", "policy", "autoscaling", "extensions", "networking.k8s.io",
      "rbac.authorization.k8s.io", "storage.k8s.io", "apiextensions.k8s.io", "admissionregistration.k8s.io",
      "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io", "node.k8s.io", "resource.k8s.io",
      "certificates.k8s.io", "flowcontrol.apiserver.k8s.io", "apiregistration.k8s.io", "authentication.k8s.io",
      "authorization.k8s.io", "internal.apiserver.k8s.io", "storagemigration.k8s.io"};
  return std::find(std::begin(kGroups), std::end(kGroups), group) != std::end(kGroups);
}

}  // namespace

void LoadObject(const Source& src, const DocNode& obj, int depth) {
  // Counted here, uncounted below for a List: its items are the objects.
  ++src.out.objects_read;
  if (!obj.IsMap()) {
    std::string why = std::string("expected a Kubernetes object (a map with apiVersion and kind), got ") + DocKind(obj);
    // A trace CSV among manifests: simulate and experiment read those.
    if (src.file.ends_with(".csv"))
      why += " (a trace CSV is read by simulate: -f NODES.csv --workload PODS.csv)";
    return Reject(src, "", obj.Line(), why);
  }
  const DocNode kind_node = obj["kind"];
  const DocNode version_node = obj["apiVersion"];
  // A List is any object with items (apimachinery's unstructured decoding
  // reads it so), or of a kind that says so.
  const bool has_items = obj["items"].IsDefined();
  // The decoder wants a kind first ("Object 'Kind' is missing"); kubectl's
  // validation (k8s.io/kubectl/pkg/validation, getObjectKind) then an
  // apiVersion, as a string.
  if (!kind_node.IsDefined() || kind_node.IsNull() ||
      (kind_node.IsScalar() && kind_node.Kind() == ScalarKind::kString && kind_node.Scalar().empty()))
    return Reject(src, "", obj.Line(), "Object 'Kind' is missing");
  std::string invalid;
  if (!version_node.IsDefined() || version_node.IsNull()) {
    invalid = "apiVersion not set";
  } else if (!version_node.IsScalar() || version_node.Kind() != ScalarKind::kString) {
    invalid = "apiVersion isn't string type";
  } else if (!kind_node.IsScalar() || kind_node.Kind() != ScalarKind::kString) {
    invalid = "kind isn't string type";
  }
  if (!invalid.empty())
    return Reject(src,
                  kind_node.Kind() == ScalarKind::kString
                      ? RawId(kind_node.Scalar(), obj, kind_node.Scalar() != "Node" && kind_node.Scalar() != "PriorityClass")
                      : "",
                  obj.Line(),
                  "error validating data: " + invalid + "; if you choose to ignore these errors, turn validation off "
                  "with --validate=false");
  const std::string kind(kind_node.Scalar());
  const std::string version(version_node.Scalar());
  if (has_items || kind == "List" || (kind.size() > 4 && kind.ends_with("List"))) {
    if (depth > 8) return Reject(src, kind, obj.Line(), "Lists nested more than 8 deep");
    --src.out.objects_read;
    return LoadList(src, obj, depth);
  }
  // resource.k8s.io: read and counted for DRA pods (before the kinds below,
  // as its group is a built-in one).
  if (IsDraKind(kind, version)) return LoadDraObject(src, obj, kind, version);
  if (kind == "DeviceTaintRule" && GroupOf(version) == "resource.k8s.io")
    return Skip(src, obj, kind + " (" + version + ")",
                "DeviceTaintRule (DRADeviceTaints) is not modelled by gpusched: the taints it puts on devices are "
                "not applied (taints in the ResourceSlices are)");
  if (GroupOf(version) == "resource.k8s.io") {
    // Another version of the group (v1alpha2's classic DRA: ResourceClass,
    // parametersRef, removed in v1.31) or a kind gpusched does not read:
    // kubectl's REST mapping finds no such kind there on a v1.35 cluster.
    const bool classic = version == "resource.k8s.io/v1alpha1" || version == "resource.k8s.io/v1alpha2";
    return Reject(src, RawId(kind, obj, kind != "ResourceClass" && kind != "DeviceClass"), obj.Line(),
                  "no matches for kind \"" + kind + "\" in version \"" + version + "\"" +
                      (classic ? " (classic DRA with ResourceClass and parametersRef, removed in Kubernetes v1.31: "
                                 "write it as a resource.k8s.io/v1 claim with a DeviceClass)"
                               : ""));
  }
  if (kind == "KubeSchedulerConfiguration")
    return Reject(src, "KubeSchedulerConfiguration", obj.Line(),
                  "a KubeSchedulerConfiguration configures the scheduler: pass it with --config, not -f");
  // Gangs, operator workloads and PodDisruptionBudgets (gang_decode.h).
  if (LoadGangObject(src, obj, kind, version)) return;
  if (LoadVolumeObject(src, obj, kind, version)) return;  // PVs, PVCs, StorageClasses, CSINodes
  if (LoadSpreadObject(src, obj, kind, version)) return;  // Services, RCs (PodTopologySpread)
  if (LoadNamespaceObject(src, obj, kind, version)) return;  // InterPodAffinity's namespaceSelector
  for (const KindEntry& k : kKinds) {
    if (kind != k.kind) continue;
    if (version != k.api_version) {
      if (IsBuiltInGroup(GroupOf(version))) {
        // kubectl's REST mapping finds no such kind there.
        return Reject(src, RawId(kind, obj, kind != "Node" && kind != "PriorityClass"), obj.Line(),
                      "no matches for kind \"" + kind + "\" in version \"" + version + "\"");
      }
      return Skip(src, obj, kind + " (" + version + ")",
                  "kind " + kind + " of " + version + " is not the " + k.api_version + " " + kind +
                      " and is not modelled by gpusched");
    }
    if (kind == "Pod") return LoadPod(src, obj, version);
    if (kind == "Node") return LoadNode(src, obj, version);
    if (kind == "PriorityClass") return LoadPriorityClass(src, obj, version);
    if (std::optional<ControllerKind> ck = ParseControllerKind(kind)) return LoadController(src, obj, *ck, version);
  }
  Skip(src, obj, IsBuiltInGroup(GroupOf(version)) ? kind : kind + " (" + version + ")",
       "kind " + kind + " does not take part in scheduling");
}

void FlushSkipped(Manifests& out) {
  std::vector<std::pair<std::string, Manifests::Skipped>> kinds(out.skipped.begin(), out.skipped.end());
  // In input order of each kind's first object.
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
  for (const auto& [key, s] : kinds) {
    std::string what = s.count == 1 ? key + " \"" + s.first_name + "\""
                                    : std::to_string(s.count) + " " + key + " objects (the first \"" + s.first_name +
                                          "\")";
    out.warnings.push_back(s.file + ":" + std::to_string(s.line) + ": skipping " + what + ": " + s.why);
  }
  out.skipped.clear();
}

void LoadTypedObject(const Source& src, const DocNode& obj, std::string_view kind, bool strict) {
  if (!obj.IsMap())
    return Reject(src, "", obj.Line(), std::string("expected a ") + std::string(kind) + " object, got " + DocKind(obj));
  if (kind == "Pod") return LoadPod(src, obj, "v1", strict);
  if (kind == "Node") return LoadNode(src, obj, "v1", strict);
  Reject(src, "", obj.Line(), "cannot decode a " + std::string(kind) + " here");
}

void LoadTypedApiObject(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version) {
  if (!obj.IsMap()) return Reject(src, "", obj.Line(), "expected a " + kind + " object, got " + DocKind(obj));
  if (LoadVolumeObject(src, obj, kind, api_version)) return;
  if (LoadSpreadObject(src, obj, kind, api_version)) return;
  if (LoadNamespaceObject(src, obj, kind, api_version)) return;
  if (api_version == "apps/v1" && (kind == "ReplicaSet" || kind == "StatefulSet")) {
    LoadController(src, obj, *ParseControllerKind(kind), api_version);
    NoteSpreadSelectors(src.out);
    src.out.controllers.clear();  // not expanded: the API server lists their pods
    return;
  }
  Reject(src, "", obj.Line(), "cannot decode a " + kind + " (" + api_version + ") here");
}

}  // namespace gpusched

#include "object_loader.h"

#include <algorithm>
#include <optional>

#include "decode_context.h"
#include "gpusched/io/kube_schema.h"
#include "gpusched/io/workload_names.h"
#include "gpusched/model/validation.h"
#include "kube_decode.h"

namespace gpusched {
namespace {

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
  const StructSchema* schema = FindStructSchema(kind);
  if (!schema) return true;
  const StrictDecodeResult r = StrictDecode(obj, *schema);
  if (r.ok()) return true;
  Reject(src, RawId(kind, obj, namespaced), r.Line() ? r.Line() : obj.Line(), CannotHandle(kind, api_version, r.Message()));
  return false;
}

// Gives an object with only generateName a deterministic generated name.
void ApplyGenerateName(ObjectMeta& m, const std::string& file, int line) {
  if (m.name.empty() && !m.generate_name.empty())
    m.name = m.generate_name + SafeSuffix(Fnv1a64(file + ":" + std::to_string(line) + ":" + m.generate_name), 5);
}

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

void LoadPod(const Source& src, const DocNode& obj, const std::string& api_version) {
  if (!DecodesStrictly(src, obj, "Pod", api_version, true)) return;
  DecodeContext ctx(obj);
  Pod pod;
  DecodePod(ctx, obj, pod);
  const int line = ctx.Line(obj);
  ApplyGenerateName(pod.meta, src.file, line);
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  const std::string id = ObjectId("Pod", pod.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure("Pod", api_version, ctx));
  DefaultPod(pod);
  std::vector<FieldError> errs = ValidatePod(pod);
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage("Pod", pod.name(), errs));
  if (pod.phase == "Succeeded" || pod.phase == "Failed") {
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": status.phase is " + pod.phase +
                               ": a terminated pod holds no resources and is not scheduled");
    return;
  }
  AcceptPod(src, std::move(pod), line);
}

void LoadNode(const Source& src, const DocNode& obj, const std::string& api_version) {
  if (!DecodesStrictly(src, obj, "Node", api_version, false)) return;
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
  if (!node.EffectiveAllocatable().count(std::string(kResourcePods)))
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id +
                               ": no \"pods\" in status.allocatable or status.capacity: kube-scheduler "
                               "treats the node as full (\"Too many pods\"); kubelets report pods: \"110\"");
  src.out.nodes.push_back(LoadedNode{std::move(node), src.file, line});
}

// Deployment, ReplicaSet, StatefulSet (spec.replicas, default 1) and Job
// (min(parallelism, completions), default 1) become that many pods.
void LoadWorkload(const Source& src, const DocNode& obj, const std::string& kind, const std::string& api_version) {
  if (!DecodesStrictly(src, obj, kind, api_version, true)) return;
  DecodeContext ctx(obj);
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  const int line = ctx.Line(obj);
  ApplyGenerateName(meta, src.file, line);
  if (meta.namespace_.empty()) meta.namespace_ = kDefaultNamespace;
  const std::string id = ObjectId(kind, meta);
  Pod tmpl;
  int64_t count = 1;
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    if (kind == "Job") {
      int64_t parallelism = ctx.Int(spec, "parallelism", "spec.parallelism").value_or(1);
      std::optional<int64_t> completions = ctx.Int(spec, "completions", "spec.completions");
      count = completions ? std::min(parallelism, *completions) : parallelism;
    } else {
      count = ctx.Int(spec, "replicas", "spec.replicas").value_or(1);
    }
    const DocNode tpl = ctx.Map(spec, "template", "spec.template");
    if (tpl.IsDefined()) {
      DecodeObjectMeta(ctx, tpl, "spec.template.metadata", tmpl.meta);
      DecodePodSpec(ctx, tpl, "spec.template.spec", tmpl);
    }
  }
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, api_version, ctx));
  std::vector<FieldError> errs;
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  }
  if (count < 0) {
    const char* field = kind == "Job" ? "spec.parallelism" : "spec.replicas";
    errs.push_back(FieldError::Invalid(field, std::to_string(count), "must be greater than or equal to 0"));
  }
  tmpl.meta.namespace_ = meta.namespace_;
  // The API server defaults requests from limits on Pods only (SetDefaults_Pod),
  // so a template is validated as written; its pods get the defaults.
  std::vector<FieldError> spec_errs = ValidatePod(tmpl, "spec.template.spec", /*validate_meta=*/false);
  errs.insert(errs.end(), spec_errs.begin(), spec_errs.end());
  if (!errs.empty()) return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage(kind, meta.name, errs));
  DefaultPod(tmpl);
  if (count == 0) {
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": 0 replicas: no pods");
    return;
  }
  constexpr int64_t kMaxReplicas = 1'000'000;
  if (count > kMaxReplicas) {
    return Reject(src, id, ctx.LineOf(kind == "Job" ? "spec.parallelism" : "spec.replicas"),
                  kind + " " + meta.name + ": " + std::to_string(count) + " replicas is more than gpusched expands (" +
                      std::to_string(kMaxReplicas) + ")");
  }
  for (int64_t i = 0; i < count; ++i) {
    Pod p = tmpl;
    p.meta.name = ExpandedPodName(kind, meta.namespace_, meta.name, i);
    p.meta.generate_name.clear();
    p.owner = kind + "/" + meta.name;
    AcceptPod(src, std::move(p), line);
  }
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
  ApplyGenerateName(meta, src.file, ctx.Line(obj));
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
    } else if (policy != "PreemptLowerByPriority" && policy != "Never") {
      errs.push_back(FieldError::NotSupported("preemptionPolicy", policy, {"PreemptLowerByPriority", "Never"}));
    }
  } else {
    policy = "PreemptLowerByPriority";  // SetDefaults_PriorityClass
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
  if (!obj.IsMap()) {
    return Reject(src, "", obj.Line(),
                  std::string("expected a Kubernetes object (a map with apiVersion and kind), got ") + DocKind(obj));
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
    return LoadList(src, obj, depth);
  }
  if (kind == "KubeSchedulerConfiguration")
    return Reject(src, "KubeSchedulerConfiguration", obj.Line(),
                  "a KubeSchedulerConfiguration configures the scheduler: pass it with --config, not -f");
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
    if (kind == "DaemonSet" || kind == "CronJob")
      return Skip(src, obj, kind, "kind " + kind + " is not expanded into pods by gpusched (yet); write its pods or a "
                                                   "Job instead");
    return LoadWorkload(src, obj, kind, version);
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

}  // namespace gpusched

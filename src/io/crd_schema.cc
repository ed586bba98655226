#include "crd_schema.h"

#include <algorithm>
#include <deque>
#include <unordered_set>

namespace gpusched {
namespace {

// Builds StructSchemas at run time (they point into the core tables, whose
// objects are not constant-initialisable from here). Nodes live in deques:
// their addresses never move.
class Builder {
 public:
  static FieldType Str() { return {FieldKind::kString, "string", nullptr, nullptr}; }
  static FieldType I32() { return {FieldKind::kInt32, "int32", nullptr, nullptr}; }
  static FieldType I64() { return {FieldKind::kInt64, "int64", nullptr, nullptr}; }
  static FieldType Bool() { return {FieldKind::kBool, "bool", nullptr, nullptr}; }
  // IntOrString, Quantity, Duration, Time, RawExtension: their own decoders judge.
  static FieldType Any() { return {FieldKind::kAny, "any", nullptr, nullptr}; }
  static FieldType Obj(const StructSchema* s) { return {FieldKind::kStruct, s->go_name, s, nullptr}; }
  static FieldType Core(const char* name) { return Obj(FindStructSchema(name)); }
  FieldType Slice(FieldType elem) {
    types_.push_back(elem);
    return {FieldKind::kSlice, "[]", nullptr, &types_.back()};
  }
  FieldType Map(FieldType elem) {
    types_.push_back(elem);
    return {FieldKind::kMap, "map", nullptr, &types_.back()};
  }
  // A struct whose fields are all listed: unknown ones are refused.
  const StructSchema* Strict(const char* name, std::vector<FieldSchema> fields) { return Add(name, true, std::move(fields)); }
  // A struct gpusched does not read into: its listed fields are typed, any
  // other name is accepted.
  const StructSchema* Open(const char* name, std::vector<FieldSchema> fields = {}) {
    return Add(name, false, std::move(fields));
  }

 private:
  const StructSchema* Add(const char* name, bool strict, std::vector<FieldSchema> fields) {
    fields_.push_back(std::move(fields));
    const std::vector<FieldSchema>& f = fields_.back();
    structs_.push_back(StructSchema{name, strict, f.empty() ? nullptr : f.data(), f.size()});
    return &structs_.back();
  }
  std::deque<FieldType> types_;
  std::deque<std::vector<FieldSchema>> fields_;
  std::deque<StructSchema> structs_;
};

struct Entry {
  const char* api_version;
  const char* kind;
  const StructSchema* schema;
};

// The top level of every object: TypeMeta, ObjectMeta, spec, status.
const StructSchema* TopLevel(Builder& b, const char* kind, const StructSchema* spec) {
  return b.Strict(kind, {{"apiVersion", Builder::Str()},
                         {"kind", Builder::Str()},
                         {"metadata", Builder::Core("ObjectMeta")},
                         {"spec", Builder::Obj(spec)},
                         {"status", Builder::Obj(b.Open("Status"))}});
}

std::vector<Entry> BuildSchemas(Builder& b) {
  std::vector<Entry> out;
  const FieldType quantities = b.Map(Builder::Any());
  const FieldType tmpl = Builder::Core("PodTemplateSpec");

  // scheduler-plugins apis/scheduling/v1alpha1/types.go @903da7df.
  const StructSchema* sp_spec = b.Strict("PodGroupSpec", {{"minMember", Builder::I32()},
                                                          {"minResources", quantities},
                                                          {"scheduleTimeoutSeconds", Builder::I32()}});
  out.push_back({"scheduling.x-k8s.io/v1alpha1", "PodGroup", TopLevel(b, "PodGroup", sp_spec)});

  // Volcano staging/src/volcano.sh/apis/pkg/apis/scheduling/v1beta1/types.go @ed72c7c81.
  const StructSchema* vol_pg_spec =
      b.Strict("PodGroupSpec", {{"minMember", Builder::I32()},
                                {"minTaskMember", b.Map(Builder::I32())},
                                {"queue", Builder::Str()},
                                {"priorityClassName", Builder::Str()},
                                {"minResources", quantities},
                                {"networkTopology", Builder::Obj(b.Open("NetworkTopologySpec"))},
                                {"subGroupPolicy", b.Slice(Builder::Obj(b.Open("SubGroupPolicySpec")))}});
  out.push_back({"scheduling.volcano.sh/v1beta1", "PodGroup", TopLevel(b, "PodGroup", vol_pg_spec)});

  // KAI pkg/apis/scheduling/v2alpha2/podgroup_types.go @d5bc503a.
  const StructSchema* kai_sub = b.Strict("SubGroup", {{"name", Builder::Str()},
                                                      {"minMember", Builder::I32()},
                                                      {"minSubGroup", Builder::I32()},
                                                      {"parent", Builder::Str()},
                                                      {"topologyConstraint", Builder::Obj(b.Open("TopologyConstraint"))}});
  const StructSchema* kai_spec =
      b.Strict("PodGroupSpec", {{"minMember", Builder::I32()},
                                {"minSubGroup", Builder::I32()},
                                {"queue", Builder::Str()},
                                {"priorityClassName", Builder::Str()},
                                {"preemptibility", Builder::Str()},
                                {"topologyConstraint", Builder::Obj(b.Open("TopologyConstraint"))},
                                {"subGroups", b.Slice(Builder::Obj(kai_sub))},
                                {"markUnschedulable", Builder::Bool()},
                                {"schedulingBackoff", Builder::I32()},
                                {"preemptionDelay", Builder::Any()},
                                {"stalenessGracePeriod", Builder::Any()}});
  out.push_back({"scheduling.run.ai/v2alpha2", "PodGroup", TopLevel(b, "PodGroup", kai_spec)});

  // Kubeflow training-operator pkg/apis/kubeflow.org/v1 @v1.9.0.
  const StructSchema* replica = b.Strict("ReplicaSpec", {{"replicas", Builder::I32()},
                                                         {"template", tmpl},
                                                         {"restartPolicy", Builder::Str()}});
  const StructSchema* sched_policy = b.Strict("SchedulingPolicy", {{"minAvailable", Builder::I32()},
                                                                   {"queue", Builder::Str()},
                                                                   {"minResources", quantities},
                                                                   {"priorityClass", Builder::Str()},
                                                                   {"scheduleTimeoutSeconds", Builder::I32()}});
  const StructSchema* run_policy = b.Strict("RunPolicy", {{"cleanPodPolicy", Builder::Str()},
                                                          {"ttlSecondsAfterFinished", Builder::I32()},
                                                          {"activeDeadlineSeconds", Builder::I64()},
                                                          {"backoffLimit", Builder::I32()},
                                                          {"schedulingPolicy", Builder::Obj(sched_policy)},
                                                          {"suspend", Builder::Bool()},
                                                          {"managedBy", Builder::Str()}});
  const FieldType replicas = b.Map(Builder::Obj(replica));
  const FieldType run = Builder::Obj(run_policy);
  const FieldType elastic = Builder::Obj(b.Open("ElasticPolicy"));
  out.push_back({"kubeflow.org/v1", "PyTorchJob",
                 TopLevel(b, "PyTorchJob",
                          b.Strict("PyTorchJobSpec", {{"runPolicy", run},
                                                      {"elasticPolicy", elastic},
                                                      {"pytorchReplicaSpecs", replicas},
                                                      {"nprocPerNode", Builder::Str()}}))});
  out.push_back({"kubeflow.org/v1", "TFJob",
                 TopLevel(b, "TFJob",
                          b.Strict("TFJobSpec", {{"runPolicy", run},
                                                 {"successPolicy", Builder::Str()},
                                                 {"tfReplicaSpecs", replicas},
                                                 {"enableDynamicWorker", Builder::Bool()}}))});
  out.push_back({"kubeflow.org/v1", "MPIJob",
                 TopLevel(b, "MPIJob",
                          b.Strict("MPIJobSpec", {{"slotsPerWorker", Builder::I32()},
                                                  {"cleanPodPolicy", Builder::Str()},
                                                  {"mpiReplicaSpecs", replicas},
                                                  {"mainContainer", Builder::Str()},
                                                  {"runPolicy", run}}))});
  out.push_back({"kubeflow.org/v1", "XGBoostJob",
                 TopLevel(b, "XGBoostJob",
                          b.Strict("XGBoostJobSpec", {{"runPolicy", run}, {"xgbReplicaSpecs", replicas}}))});
  out.push_back({"kubeflow.org/v1", "PaddleJob",
                 TopLevel(b, "PaddleJob",
                          b.Strict("PaddleJobSpec",
                                   {{"runPolicy", run}, {"elasticPolicy", elastic}, {"paddleReplicaSpecs", replicas}}))});
  out.push_back({"kubeflow.org/v1", "JAXJob",
                 TopLevel(b, "JAXJob", b.Strict("JAXJobSpec", {{"runPolicy", run}, {"jaxReplicaSpecs", replicas}}))});

  // Volcano staging/src/volcano.sh/apis/pkg/apis/batch/v1alpha1/job.go @ed72c7c81.
  const StructSchema* lifecycle = b.Strict("LifecyclePolicy", {{"action", Builder::Str()},
                                                               {"event", Builder::Str()},
                                                               {"events", b.Slice(Builder::Str())},
                                                               {"exitCode", Builder::I32()},
                                                               {"timeout", Builder::Any()}});
  const StructSchema* task = b.Strict("TaskSpec", {{"name", Builder::Str()},
                                                   {"replicas", Builder::I32()},
                                                   {"minAvailable", Builder::I32()},
                                                   {"template", tmpl},
                                                   {"policies", b.Slice(Builder::Obj(lifecycle))},
                                                   {"topologyPolicy", Builder::Str()},
                                                   {"maxRetry", Builder::I32()},
                                                   {"dependsOn", Builder::Obj(b.Open("DependsOn"))},
                                                   {"partitionPolicy", Builder::Obj(b.Open("PartitionPolicySpec"))}});
  const StructSchema* vjob_spec =
      b.Strict("JobSpec", {{"schedulerName", Builder::Str()},
                           {"minAvailable", Builder::I32()},
                           {"volumes", b.Slice(Builder::Obj(b.Open("VolumeSpec")))},
                           {"tasks", b.Slice(Builder::Obj(task))},
                           {"policies", b.Slice(Builder::Obj(lifecycle))},
                           {"plugins", b.Map(b.Slice(Builder::Str()))},
                           {"runningEstimate", Builder::Any()},
                           {"queue", Builder::Str()},
                           {"maxRetry", Builder::I32()},
                           {"ttlSecondsAfterFinished", Builder::I32()},
                           {"priorityClassName", Builder::Str()},
                           {"minSuccess", Builder::I32()},
                           {"networkTopology", Builder::Obj(b.Open("NetworkTopologySpec"))}});
  out.push_back({"batch.volcano.sh/v1alpha1", "Job", TopLevel(b, "Job", vjob_spec)});

  // JobSet api/jobset/v1alpha2/jobset_types.go @08dfbdfd.
  const StructSchema* rjob = b.Strict("ReplicatedJob", {{"name", Builder::Str()},
                                                        {"groupName", Builder::Str()},
                                                        {"template", Builder::Core("JobTemplateSpec")},
                                                        {"replicas", Builder::I32()},
                                                        {"dependsOn", b.Slice(Builder::Obj(b.Open("DependsOn")))}});
  const StructSchema* jobset_spec =
      b.Strict("JobSetSpec", {{"replicatedJobs", b.Slice(Builder::Obj(rjob))},
                              {"network", Builder::Obj(b.Open("Network"))},
                              {"successPolicy", Builder::Obj(b.Open("SuccessPolicy"))},
                              {"failurePolicy", Builder::Obj(b.Open("FailurePolicy"))},
                              {"startupPolicy", Builder::Obj(b.Open("StartupPolicy"))},
                              {"suspend", Builder::Bool()},
                              {"coordinator", Builder::Obj(b.Open("Coordinator"))},
                              {"managedBy", Builder::Str()},
                              {"ttlSecondsAfterFinished", Builder::I32()},
                              {"volumeClaimPolicies", b.Slice(Builder::Obj(b.Open("VolumeClaimPolicy")))}});
  out.push_back({"jobset.x-k8s.io/v1alpha2", "JobSet", TopLevel(b, "JobSet", jobset_spec)});

  // LeaderWorkerSet api/leaderworkerset/v1/leaderworkerset_types.go @060ab4d.
  const StructSchema* lwt =
      b.Strict("LeaderWorkerTemplate", {{"leaderTemplate", tmpl},
                                        {"workerTemplate", tmpl},
                                        {"size", Builder::I32()},
                                        {"restartPolicy", Builder::Str()},
                                        {"subGroupPolicy", Builder::Obj(b.Open("SubGroupPolicy"))},
                                        {"volumeClaimTemplates", b.Slice(Builder::Obj(b.Open("PersistentVolumeClaim")))},
                                        {"persistentVolumeClaimRetentionPolicy", Builder::Obj(b.Open("Retention"))}});
  const StructSchema* lws_spec = b.Strict("LeaderWorkerSetSpec", {{"replicas", Builder::I32()},
                                                                  {"leaderWorkerTemplate", Builder::Obj(lwt)},
                                                                  {"rolloutStrategy", Builder::Obj(b.Open("RolloutStrategy"))},
                                                                  {"startupPolicy", Builder::Str()},
                                                                  {"networkConfig", Builder::Obj(b.Open("NetworkConfig"))}});
  out.push_back({"leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", TopLevel(b, "LeaderWorkerSet", lws_spec)});
  return out;
}

// kube-openapi's names for a JSON value's type.
std::string OpenApiType(const DocNode& n) {
  if (n.IsNull()) return "null";
  if (n.IsMap()) return "object";
  if (n.IsSequence()) return "array";
  switch (n.Kind()) {
    case ScalarKind::kString: return "string";
    case ScalarKind::kBool: return "boolean";
    case ScalarKind::kNumber: {
      const std::string_view s = n.Scalar();
      return s.find_first_of(".eE") == std::string_view::npos ? "integer" : "number";
    }
  }
  return "string";
}

const char* Wanted(FieldKind k) {
  switch (k) {
    case FieldKind::kString: return "string";
    case FieldKind::kInt32:
    case FieldKind::kInt64:
    case FieldKind::kUint32:
    case FieldKind::kUint64: return "integer";
    case FieldKind::kBool: return "boolean";
    case FieldKind::kFloat: return "number";
    case FieldKind::kStruct:
    case FieldKind::kMap: return "object";
    case FieldKind::kSlice: return "array";
    case FieldKind::kAny: return "";
  }
  return "";
}

bool Matches(const DocNode& n, FieldKind k) {
  const std::string t = OpenApiType(n);
  switch (k) {
    case FieldKind::kString: return t == "string";
    case FieldKind::kInt32:
    case FieldKind::kInt64:
    case FieldKind::kUint32:
    case FieldKind::kUint64: return t == "integer";
    case FieldKind::kBool: return t == "boolean";
    case FieldKind::kFloat: return t == "integer" || t == "number";
    case FieldKind::kStruct:
    case FieldKind::kMap: return t == "object";
    case FieldKind::kSlice: return t == "array";
    case FieldKind::kAny: return true;
  }
  return true;
}

// field.TypeInvalid's value as the API server prints it: a string quoted, a
// number or boolean as written, an object or array elided.
std::string BadValue(const DocNode& n) {
  if (n.IsMap()) return "map[string]interface {}{...}";
  if (n.IsSequence()) return "[]interface {}{...}";
  if (n.Kind() == ScalarKind::kString) return GoQuote(n.Scalar());
  return std::string(n.Scalar());
}

class CrdChecker {
 public:
  explicit CrdChecker(CrdCheckResult& out) : out_(out) {}

  void Check(const DocNode& n, const FieldType& t, const std::string& path) {
    if (!n.IsDefined() || n.IsNull()) return;  // pruned
    if (!Matches(n, t.kind)) {
      if (out_.type_errors.empty()) out_.type_error_line = n.Line();
      out_.type_errors.push_back(FieldError{FieldError::Type::kInvalid, path, BadValue(n),
                                            path + " in body must be of type " + Wanted(t.kind) + ": \"" +
                                                OpenApiType(n) + "\""});
      return;
    }
    switch (t.kind) {
      case FieldKind::kStruct: return Struct(n, *t.schema, path);
      case FieldKind::kSlice:
        for (size_t i = 0; i < n.size(); ++i) Check(n[i], *t.elem, path + "[" + std::to_string(i) + "]");
        return;
      case FieldKind::kMap:
        for (auto [k, v] : n.Entries()) Check(v, *t.elem, path + "." + std::string(k.Scalar()));
        return;
      default: return;
    }
  }

  void Struct(const DocNode& n, const StructSchema& s, const std::string& path) {
    for (auto [k, v] : n.Entries()) {
      const std::string_view key = k.Scalar();
      const std::string p = path.empty() ? std::string(key) : path + "." + std::string(key);
      const FieldSchema* f = key.empty() ? nullptr : s.Find(key);
      if (f) {
        Check(v, f->type, p);
      } else if (s.strict) {
        out_.strict_errors.emplace_back(k.Line(), "unknown field \"" + p + "\"");
      }
    }
  }

 private:
  CrdCheckResult& out_;
};

}  // namespace

const StructSchema* FindCrdSchema(std::string_view api_version, std::string_view kind) {
  static Builder builder;  // holds the schemas kEntries points to
  static const std::vector<Entry> kEntries = BuildSchemas(builder);
  for (const Entry& e : kEntries)
    if (api_version == e.api_version && kind == e.kind) return e.schema;
  return nullptr;
}

std::string CrdCheckResult::StrictMessage() const {
  std::string s = "strict decoding error: ";
  for (size_t i = 0; i < strict_errors.size(); ++i) s += (i ? ", " : "") + strict_errors[i].second;
  return s;
}

CrdCheckResult CheckCustomResource(const DocNode& object, const StructSchema& schema) {
  CrdCheckResult r;
  if (!object.IsMap()) return r;
  CrdChecker(r).Struct(object, schema, "");
  for (auto& d : DuplicateFieldErrors(object)) r.strict_errors.push_back(std::move(d));
  std::stable_sort(r.strict_errors.begin(), r.strict_errors.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::unordered_set<std::string> seen;
  std::vector<std::pair<int, std::string>> unique;
  for (auto& e : r.strict_errors) {
    if (unique.size() >= 100) break;
    if (seen.insert(e.second).second) unique.push_back(std::move(e));
  }
  r.strict_errors = std::move(unique);
  return r;
}

}  // namespace gpusched

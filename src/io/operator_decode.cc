#include "operator_decode.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "controller_decode.h"
#include "gang_decode.h"
#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_decode.h"
#include "gpusched/model/validation.h"
#include "gpusched/util/ascii.h"
#include "volcano_policies.h"

namespace gpusched {
namespace {

int32_t Clamp32(int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); }

// apimachinery IsDNS1035Label.
std::vector<std::string> IsDNS1035Label(std::string_view v) {
  std::vector<std::string> errs;
  if (v.size() > 63) errs.push_back("must be no more than 63 characters");
  bool ok = !v.empty() && v.front() >= 'a' && v.front() <= 'z' && (std::isalnum(static_cast<unsigned char>(v.back())) != 0);
  for (char c : v) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!ok)
    errs.push_back(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
        "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
        "is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  return errs;
}

// A pod template at parent[key]: its metadata and spec, defaulted as the
// pods the operator creates will be.
void DecodePodTemplate(DecodeContext& ctx, const DocNode& parent, const char* key, const std::string& path, Pod& out) {
  const DocNode t = ctx.Map(parent, key, path);
  if (!t.IsDefined()) return;
  DecodeObjectMeta(ctx, t, path + ".metadata", out.meta);
  DecodePodSpec(ctx, t, path + ".spec", out);
}

void ValidateTemplate(const Pod& tmpl, const std::string& ns, const std::string& path, std::vector<FieldError>& errs) {
  Pod p = tmpl;
  p.meta.namespace_ = ns;
  for (FieldError& e : ValidatePod(p, path + ".spec", /*validate_meta=*/false)) errs.push_back(std::move(e));
}

bool ConditionTrue(DecodeContext& ctx, const DocNode& status, std::initializer_list<const char*> types) {
  bool found = false;
  for (const auto& [c, p] : ctx.Objects(status, "conditions", "status.conditions")) {
    const std::string type = ctx.Str(c, "type", p + ".type");
    const std::string st = ctx.Str(c, "status", p + ".status");
    for (const char* t : types) found = found || (type == t && st == "True");
  }
  return found;
}

struct KubeflowInfo {
  OperatorKind kind;
  const char* specs;  // the replica specs field
  const char* container;  // the default container name
  std::vector<const char*> roles;  // canonical replica types, in creation order
};
const KubeflowInfo& Kubeflow(OperatorKind kind) {
  static const KubeflowInfo kInfo[] = {
      {OperatorKind::kPyTorchJob, "pytorchReplicaSpecs", "pytorch", {"Master", "Worker"}},
      {OperatorKind::kTFJob, "tfReplicaSpecs", "tensorflow", {"Chief", "Master", "PS", "Worker", "Evaluator"}},
      {OperatorKind::kMPIJob, "mpiReplicaSpecs", "mpi", {"Launcher", "Worker"}},
      {OperatorKind::kXGBoostJob, "xgbReplicaSpecs", "xgboost", {"Master", "Worker"}},
      {OperatorKind::kPaddleJob, "paddleReplicaSpecs", "paddle", {"Master", "Worker"}},
      {OperatorKind::kJAXJob, "jaxReplicaSpecs", "jax", {"Worker"}},
  };
  for (const KubeflowInfo& i : kInfo)
    if (i.kind == kind) return i;
  return kInfo[0];
}

// PyTorchJob spec.elasticPolicy: the minimum as SetDefaults_PyTorchJob
// leaves it (kubeflow/training-operator pkg/apis/kubeflow.org/v1/
// pytorch_defaults.go, setElasticPolicy) and what the validating webhook
// checks of it (pkg/webhooks/pytorch/pytorchjob_webhook.go, validateSpec).
// Call after the roles are decoded.
void DecodeElasticPolicy(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w,
                         std::vector<FieldError>& errs) {
  const DocNode ep = ctx.Map(spec, "elasticPolicy", "spec.elasticPolicy");
  if (!ep.IsDefined()) return;
  const std::optional<int64_t> min = ctx.Int(ep, "minReplicas", "spec.elasticPolicy.minReplicas");
  const std::optional<int64_t> max = ctx.Int(ep, "maxReplicas", "spec.elasticPolicy.maxReplicas");
  const OperatorRole* worker = nullptr;
  for (const OperatorRole& r : w.roles)
    if (r.name == "Worker") worker = &r;
  if (worker == nullptr)
    errs.push_back(FieldError::Required("spec.pytorchReplicaSpecs[Worker]", "must be configured if elastic policy is used"));
  auto set = [](const DocNode& n) { return n.IsDefined() && !n.IsNull(); };
  if (set(ep["nProcPerNode"]) && set(spec["nprocPerNode"]))
    errs.push_back(FieldError::Forbidden("spec.elasticPolicy.nProcPerNode", "must not be used with spec.nprocPerNode"));
  if (min) {
    w.elastic_min_replicas = Clamp32(*min);
  } else if (max) {
    w.elastic_min_replicas = Clamp32(*max);
  } else if (worker != nullptr) {
    w.elastic_min_replicas = Clamp32(worker->replicas);
  }
}

// training-operator v1.9 registers no webhook for the v1 MPIJob
// (pkg/webhooks/webhooks.go: MPIJobKind is `scaffold`): the API server
// admits what its CRD schema allows, and the controller checks the rest
// (pkg/apis/kubeflow.org/v1/mpi_validation.go ValidateV1MpiJobSpec, called
// by pkg/controller.v1/mpi/mpijob_controller.go Reconcile) before creating
// any pod. `raw_roles` are the replica types as written: no defaulting runs
// before that check, so `roles` carry their replica types as written. Go
// walks the map in random order and returns the first error; `roles` are
// walked here in creation order (Launcher, Worker, then by name). "" when
// the controller accepts the job.
std::string MpiJobRefusal(const std::vector<OperatorRole>& roles) {
  bool launcher = false;
  for (const OperatorRole& r : roles) {
    const std::string& type = r.name;
    if (r.tmpl.containers.empty()) return "MPIReplicaSpecs is not valid: containers definition expected in " + type;
    if (type != "Launcher" && type != "Worker")
      return "MPIReplicaType is " + type + " but must be one of [Launcher Worker]";
    for (const Container& c : r.tmpl.containers) {
      if (c.image.empty()) return "MPIReplicaSpec is not valid: Image is undefined in the container of " + type;
      if (c.name.empty()) return "MPIReplicaSpec is not valid: ImageName is undefined in the container of " + type;
    }
    if (type == "Launcher") {
      launcher = true;
      if (r.replicas != 1) return "MPIReplicaSpec is not valid: There must be only 1 launcher replica";
    }
  }
  if (!launcher) return "MPIReplicaSpec is not valid: Master ReplicaSpec must be present";
  return "";
}

// Returns the controller's refusal of an MPIJob (MpiJobRefusal); "" for the
// other kinds, whose webhooks report into `errs`.
std::string DecodeKubeflow(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w,
                           std::vector<FieldError>& errs) {
  const KubeflowInfo& info = Kubeflow(w.kind);
  const bool webhook = w.kind != OperatorKind::kMPIJob;
  const DocNode run = ctx.Map(spec, "runPolicy", "spec.runPolicy");
  if (run.IsDefined()) {
    w.suspend = ctx.Bool(run, "suspend", "spec.runPolicy.suspend").value_or(false);
    const DocNode sp = ctx.Map(run, "schedulingPolicy", "spec.runPolicy.schedulingPolicy");
    if (sp.IsDefined()) {
      const std::string p = "spec.runPolicy.schedulingPolicy";
      if (auto v = ctx.Int(sp, "minAvailable", p + ".minAvailable")) w.min_available = Clamp32(*v);
      w.queue = ctx.Str(sp, "queue", p + ".queue");
      w.min_resources = ctx.Quantities(sp, "minResources", p + ".minResources");
      w.priority_class = ctx.Str(sp, "priorityClass", p + ".priorityClass");
      if (auto v = ctx.Int(sp, "scheduleTimeoutSeconds", p + ".scheduleTimeoutSeconds"))
        w.schedule_timeout_seconds = Clamp32(*v);
    }
  }
  const std::string specs_path = std::string("spec.") + info.specs;
  const DocNode specs = ctx.Map(spec, info.specs, specs_path);
  if (!specs.IsDefined()) {
    if (w.kind == OperatorKind::kPyTorchJob) DecodeElasticPolicy(ctx, spec, w, errs);
    // The webhook's text, or the CRD schema's `required` (MPIJob).
    errs.push_back(FieldError::Required(specs_path, webhook ? "must be required" : ""));
    return "";
  }
  // validateSpec reports the elastic policy before the replica specs.
  const size_t replica_errors_at = errs.size();
  for (auto [k, v] : specs.Entries()) {
    // The defaulting webhook renames replica types case-insensitively
    // (setTypeNamesToCamelCase).
    std::string role(k.Scalar());
    if (webhook)  // the v1 MPIJob has no defaulting before the controller's check

      for (const char* canonical : info.roles)
        if (AsciiLower(role) == AsciiLower(canonical)) role = canonical;
    const std::string rp = specs_path + "[" + role + "]";
    OperatorRole r;
    r.name = role;
    const std::string key_path = specs_path + "." + std::string(k.Scalar());
    const DocNode rs = ctx.Map(specs, k.Scalar(), key_path);
    std::optional<int64_t> replicas;
    if (rs.IsDefined()) {
      replicas = ctx.Int(rs, "replicas", key_path + ".replicas");
      r.restart_policy = ctx.Str(rs, "restartPolicy", key_path + ".restartPolicy");
      DecodePodTemplate(ctx, rs, "template", key_path + ".template", r.tmpl);
      ctx.Record(rp, k);
    }
    r.replicas = replicas.value_or(1);  // SetDefaults: replicas 1
    if (!webhook) {
      w.roles.push_back(std::move(r));
      continue;
    }
    // The validating webhook (pkg/webhooks/<framework>).
    if (std::find_if(info.roles.begin(), info.roles.end(), [&](const char* c) { return role == c; }) ==
        info.roles.end()) {
      std::vector<std::string> supported(info.roles.begin(), info.roles.end());
      errs.push_back(FieldError::NotSupported(rp, role, supported));
    }
    const std::string containers = rp + ".template.spec.containers";
    if (r.tmpl.containers.empty()) errs.push_back(FieldError::Required(containers, "must be specified"));
    bool default_container = false;
    for (size_t i = 0; i < r.tmpl.containers.size(); ++i) {
      const Container& c = r.tmpl.containers[i];
      if (c.image.empty())
        errs.push_back(FieldError::Required(containers + "[" + std::to_string(i) + "].image", "must be required"));
      default_container = default_container || c.name == info.container;
    }
    if (!default_container)
      errs.push_back(FieldError::Required(containers, std::string("must have at least one container with name ") +
                                                          info.container));
    if (w.kind == OperatorKind::kPyTorchJob && role == "Master" && r.replicas != 1) {
      errs.push_back(FieldError::Forbidden(rp + ".replicas", "must be 1"));
    } else if (replicas && *replicas < 1) {
      errs.push_back(FieldError::Forbidden(rp + ".replicas", "must be at least 1"));
    }
    w.roles.push_back(std::move(r));
  }
  if (w.kind == OperatorKind::kPyTorchJob) {
    std::vector<FieldError> elastic;
    DecodeElasticPolicy(ctx, spec, w, elastic);
    errs.insert(errs.begin() + static_cast<std::ptrdiff_t>(replica_errors_at), elastic.begin(), elastic.end());
  }
  // The creation order: the framework's roles, then others by name.
  auto rank = [&](const std::string& name) {
    for (size_t i = 0; i < info.roles.size(); ++i)
      if (name == info.roles[i]) return i;
    return info.roles.size();
  };
  std::stable_sort(w.roles.begin(), w.roles.end(), [&](const OperatorRole& a, const OperatorRole& b) {
    if (rank(a.name) != rank(b.name)) return rank(a.name) < rank(b.name);
    return a.name < b.name;
  });
  return webhook ? "" : MpiJobRefusal(w.roles);
}

// Volcano's admission webhook denies with one message of ";"-separated
// reasons (pkg/webhooks/admission/jobs/validate/admit_job.go).
std::string DecodeVolcanoJob(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w) {
  w.scheduler_name = ctx.Str(spec, "schedulerName", "spec.schedulerName");
  if (w.scheduler_name.empty()) w.scheduler_name = "volcano";  // patchDefaultScheduler
  const std::optional<int64_t> min_available = ctx.Int(spec, "minAvailable", "spec.minAvailable");
  w.queue = ctx.Str(spec, "queue", "spec.queue");
  if (w.queue.empty()) w.queue = "default";  // patchDefaultQueue
  w.priority_class = ctx.Str(spec, "priorityClassName", "spec.priorityClassName");
  const std::vector<VolcanoPolicy> job_policies = DecodeVolcanoPolicies(ctx, spec, "spec.policies");
  w.policies = PolicyEventActions(job_policies);
  const auto tasks = ctx.Objects(spec, "tasks", "spec.tasks");
  std::string denied;
  if (tasks.empty()) return "No task specified in job spec";
  int64_t total = 0, sum_min = 0;
  std::vector<std::string> names;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const auto& [t, p] = tasks[i];
    OperatorRole r;
    r.name = ctx.Str(t, "name", p + ".name");
    if (r.name.empty()) r.name = "default" + std::to_string(i);  // mutateSpec: DefaultTaskSpec + index
    r.replicas = ctx.Int(t, "replicas", p + ".replicas").value_or(0);
    const std::optional<int64_t> task_min = ctx.Int(t, "minAvailable", p + ".minAvailable");
    r.min_available = Clamp32(task_min.value_or(r.replicas));
    const std::vector<VolcanoPolicy> task_policies = DecodeVolcanoPolicies(ctx, t, p + ".policies");
    r.policies = PolicyEventActions(task_policies);
    DecodePodTemplate(ctx, t, "template", p + ".template", r.tmpl);
    if (r.tmpl.scheduler_name == kDefaultSchedulerName && t["template"]["spec"]["schedulerName"].IsDefined() == false)
      r.tmpl.scheduler_name = w.scheduler_name;  // createJobPod: the Job's when the template names none
    if (r.tmpl.priority_class_name.empty()) r.tmpl.priority_class_name = w.priority_class;
    if (*r.min_available > r.replicas)
      denied += " 'minAvailable' is greater than 'replicas' in task: " + r.name + ", job: " + w.name() + ";";
    total += r.replicas;
    sum_min += *r.min_available;
    if (std::find(names.begin(), names.end(), r.name) != names.end()) {
      denied += " duplicated task name " + r.name + ";";
      break;
    }
    names.push_back(r.name);
    denied += ValidateVolcanoPolicies(task_policies, "spec.tasks.policies");
    w.roles.push_back(std::move(r));
  }
  // patchDefaultMinAvailable: the tasks' minAvailable (or replicas) summed.
  w.min_available = Clamp32(min_available && *min_available != 0 ? *min_available : sum_min);
  if (total < *w.min_available) denied += " job 'minAvailable' should not be greater than total replicas in tasks;";
  denied += ValidateVolcanoPolicies(job_policies, "spec.policies");
  return denied;
}

void DecodeJobSet(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w, std::vector<FieldError>& errs) {
  w.suspend = ctx.Bool(spec, "suspend", "spec.suspend").value_or(false);
  const DocNode startup = ctx.Map(spec, "startupPolicy", "spec.startupPolicy");
  if (startup.IsDefined()) {
    const std::string order = ctx.Str(startup, "startupPolicyOrder", "spec.startupPolicy.startupPolicyOrder");
    if (!order.empty()) w.startup_policy_order = order;
  }
  std::vector<std::string> names;
  for (const auto& [rj, p] : ctx.Objects(spec, "replicatedJobs", "spec.replicatedJobs")) {
    OperatorRole r;
    r.name = ctx.Str(rj, "name", p + ".name");
    r.replicas = ctx.Int(rj, "replicas", p + ".replicas").value_or(1);
    for (const auto& m : IsDNS1123Label(r.name)) errs.push_back(FieldError::Invalid(p + ".name", r.name, m));
    if (std::find(names.begin(), names.end(), r.name) != names.end())
      errs.push_back(FieldError::Duplicate(p + ".name", r.name));
    names.push_back(r.name);
    r.job.kind = ControllerKind::kJob;
    r.job.api_version = "batch/v1";
    const DocNode t = ctx.Map(rj, "template", p + ".template");
    if (t.IsDefined()) {
      DecodeObjectMeta(ctx, t, p + ".template.metadata", r.job.meta);
      const DocNode js = ctx.Map(t, "spec", p + ".template.spec");
      if (js.IsDefined()) {
        DecodeJobSpec(ctx, js, p + ".template.spec", r.job);
        // JobSet's webhook defaults its Jobs to Indexed completion.
        if (!js["completionMode"].IsDefined()) r.job.indexed = true;
      }
    }
    r.tmpl = r.job.tmpl;
    w.roles.push_back(std::move(r));
  }
  if (w.roles.empty()) errs.push_back(FieldError::Required("spec.replicatedJobs", ""));
}

void DecodeLws(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w, std::vector<FieldError>& errs) {
  const int64_t replicas = ctx.Int(spec, "replicas", "spec.replicas").value_or(1);
  const std::string startup = ctx.Str(spec, "startupPolicy", "spec.startupPolicy");
  if (!startup.empty()) w.startup_policy = startup;
  if (w.startup_policy != "LeaderCreated" && w.startup_policy != "LeaderReady")
    errs.push_back(FieldError::NotSupported("spec.startupPolicy", w.startup_policy, {"LeaderCreated", "LeaderReady"}));
  if (replicas < 0)
    errs.push_back(FieldError{FieldError::Type::kInvalid, "spec.replicas", std::to_string(replicas),
                              "spec.replicas in body should be greater than or equal to 0"});
  const DocNode lwt = ctx.Map(spec, "leaderWorkerTemplate", "spec.leaderWorkerTemplate");
  OperatorRole leader, worker;
  leader.name = "leader";
  worker.name = "worker";
  leader.replicas = worker.replicas = replicas;
  bool has_leader = false;
  if (lwt.IsDefined()) {
    const std::string p = "spec.leaderWorkerTemplate";
    const int64_t size = ctx.Int(lwt, "size", p + ".size").value_or(1);
    if (size < 1)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".size", std::to_string(size),
                                p + ".size in body should be greater than or equal to 1"});
    w.group_size = Clamp32(std::max<int64_t>(size, 1));
    const std::string restart = ctx.Str(lwt, "restartPolicy", p + ".restartPolicy");
    if (!restart.empty()) w.restart_policy = restart;
    const std::vector<std::string> policies = {"Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart",
                                               "None"};
    if (std::find(policies.begin(), policies.end(), w.restart_policy) == policies.end())
      errs.push_back(FieldError::NotSupported(p + ".restartPolicy", w.restart_policy, policies));
    has_leader = lwt["leaderTemplate"].IsDefined() && !lwt["leaderTemplate"].IsNull();
    DecodePodTemplate(ctx, lwt, "workerTemplate", p + ".workerTemplate", worker.tmpl);
    if (has_leader) {
      DecodePodTemplate(ctx, lwt, "leaderTemplate", p + ".leaderTemplate", leader.tmpl);
    } else {
      leader.tmpl = worker.tmpl;
    }
  }
  w.roles.push_back(std::move(leader));
  w.roles.push_back(std::move(worker));
}

// The canonical text of a document subtree (map keys sorted): what an
// object with only generateName is, for ApplyGenerateName's name, whatever
// the file's order or layout.
std::string CanonicalText(const DocNode& n) {
  if (!n.IsDefined() || n.IsNull()) return "~";
  if (n.IsScalar()) return "\"" + std::string(n.Scalar()) + "\"";
  std::string out;
  if (n.IsSequence()) {
    out = "[";
    for (size_t i = 0; i < n.size(); ++i) out += (i ? "," : "") + CanonicalText(n[i]);
    return out + "]";
  }
  std::vector<std::pair<std::string, std::string>> entries;
  for (auto [k, v] : n.Entries()) entries.emplace_back(std::string(k.Scalar()), CanonicalText(v));
  std::sort(entries.begin(), entries.end());
  out = "{";
  for (size_t i = 0; i < entries.size(); ++i) out += (i ? "," : "") + entries[i].first + ":" + entries[i].second;
  return out + "}";
}

}  // namespace

void LoadOperator(const Source& src, const DocNode& obj, OperatorKind kind, const std::string& api_version) {
  const std::string kind_name(OperatorKindName(kind));
  DecodeContext ctx(obj);
  OperatorWorkload w;
  w.kind = kind;
  w.api_version = api_version;
  DecodeObjectMeta(ctx, obj, "metadata", w.meta);
  std::vector<FieldError> errs = DecodeOwnerReferences(ctx, obj, w.controller_ref);
  if (w.meta.namespace_.empty()) w.meta.namespace_ = kDefaultNamespace;
  // The API server names an object with only generateName before any
  // validation or webhook sees it (the registry's BeforeCreate).
  ApplyGenerateName(w.meta, kind_name, CanonicalText(obj["spec"]), src.out);
  std::vector<FieldError> name_errs;
  if (w.meta.name.empty()) {
    name_errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(w.meta.name))
      name_errs.push_back(FieldError::Invalid("metadata.name", w.meta.name, m));
  }
  InsertMetadataErrors(errs, std::move(name_errs));
  std::string denied;
  std::string refused;  // by the operator's controller, after the API server admitted it
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  const DocNode status = ctx.Map(obj, "status", "status");
  if (IsKubeflowKind(kind)) {
    if (!w.meta.name.empty() && kind != OperatorKind::kMPIJob) {  // the webhooks' name rule
      std::vector<std::string> dns = IsDNS1035Label(w.meta.name);
      std::string joined;
      for (size_t i = 0; i < dns.size(); ++i) joined += (i ? "," : "") + dns[i];
      if (!dns.empty()) errs.push_back(FieldError::Invalid("metadata.name", w.meta.name, "should match: " + joined));
    }
    if (spec.IsDefined()) {
      refused = DecodeKubeflow(ctx, spec, w, errs);
    } else {
      errs.push_back(FieldError::Required(std::string("spec.") + Kubeflow(kind).specs,
                                          kind == OperatorKind::kMPIJob ? "" : "must be required"));
    }
    if (status.IsDefined()) w.finished = ConditionTrue(ctx, status, {"Succeeded", "Failed"});
  } else if (kind == OperatorKind::kVolcanoJob) {
    denied = spec.IsDefined() ? DecodeVolcanoJob(ctx, spec, w) : "No task specified in job spec";
    if (status.IsDefined()) {
      const DocNode state = ctx.Map(status, "state", "status.state");
      const std::string phase = state.IsDefined() ? ctx.Str(state, "phase", "status.state.phase") : "";
      w.finished = phase == "Completed" || phase == "Failed" || phase == "Terminated" || phase == "Aborted";
    }
  } else if (kind == OperatorKind::kJobSet) {
    if (spec.IsDefined()) DecodeJobSet(ctx, spec, w, errs);
    if (status.IsDefined()) w.finished = ConditionTrue(ctx, status, {"Completed", "Failed"});
  } else {
    if (spec.IsDefined()) DecodeLws(ctx, spec, w, errs);
  }
  for (size_t i = 0; i < w.roles.size(); ++i) {
    const OperatorRole& r = w.roles[i];
    std::string path;
    switch (kind) {
      case OperatorKind::kVolcanoJob: path = "spec.tasks[" + std::to_string(i) + "].template"; break;
      case OperatorKind::kJobSet: path = "spec.replicatedJobs[" + std::to_string(i) + "].template.spec.template"; break;
      case OperatorKind::kLeaderWorkerSet:
        path = std::string("spec.leaderWorkerTemplate.") + (r.name == "leader" ? "leaderTemplate" : "workerTemplate");
        break;
      default: path = std::string("spec.") + Kubeflow(kind).specs + "[" + r.name + "].template"; break;
    }
    if (kind == OperatorKind::kLeaderWorkerSet && r.name == "leader" && i + 1 < w.roles.size() &&
        !obj["spec"]["leaderWorkerTemplate"]["leaderTemplate"].IsDefined())
      continue;  // the leader uses the worker template, validated once
    ValidateTemplate(r.tmpl, w.ns(), path, errs);
  }
  const std::string id = OperatorId(kind, w.ns(), w.name());
  const int line = ctx.Line(obj);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind_name, api_version, ctx));
  if (!errs.empty()) return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage(kind_name, w.name(), errs));
  if (!denied.empty())
    return Reject(src, id, line, "admission webhook \"validatejob.volcano.sh\" denied the request:" +
                                     (denied.front() == ' ' ? denied : " " + denied));
  if (!refused.empty())
    return Reject(src, id, line,
                  "admitted, but training-operator's MPIJob controller creates no pod for it (its event: \"MPIJob "
                  "failed validation because " + refused + "\")");
  const std::string key = GangResourceName(kind_name, api_version) + "/" + w.ns() + "/" + w.name();
  if (!src.out.gang_object_keys.insert(key).second)
    return Reject(src, id, line, GangResourceName(kind_name, api_version) + " \"" + w.name() + "\" already exists");
  for (OperatorRole& r : w.roles) {
    r.tmpl.meta.namespace_ = w.ns();
    DefaultPod(r.tmpl);
    if (kind == OperatorKind::kJobSet) {
      r.job.tmpl.meta.namespace_ = w.ns();
      DefaultPod(r.job.tmpl);
    }
  }
  src.out.operators.push_back(LoadedOperator{std::move(w), src.file, line});
}

}  // namespace gpusched

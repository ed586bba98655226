#include "operator_decode.h"

#include <algorithm>
#include <optional>

#include "controller_decode.h"
#include "gang_decode.h"
#include "gpusched/controllers/kubeflow_admission.h"
#include "gpusched/controllers/volcano_job_admission.h"
#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_decode.h"
#include "gpusched/model/validation.h"
#include "gpusched/util/saturate.h"

namespace gpusched {
namespace {

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

// PyTorchJob spec.elasticPolicy, as training-operator's webhooks default
// and check it (AdmitElasticPolicy). Call after the roles are decoded.
void DecodeElasticPolicy(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w,
                         std::vector<FieldError>& errs) {
  const DocNode ep = ctx.Map(spec, "elasticPolicy", "spec.elasticPolicy");
  if (!ep.IsDefined()) return;
  ElasticPolicySpec e;
  e.min_replicas = ctx.Int(ep, "minReplicas", "spec.elasticPolicy.minReplicas");
  e.max_replicas = ctx.Int(ep, "maxReplicas", "spec.elasticPolicy.maxReplicas");
  auto set = [](const DocNode& n) { return n.IsDefined() && !n.IsNull(); };
  e.nproc_per_node_twice = set(ep["nProcPerNode"]) && set(spec["nprocPerNode"]);
  AdmitElasticPolicy(e, w, errs);
}

// Returns the controller's refusal of an MPIJob (MpiJobRefusal); "" for the
// other kinds, whose webhooks report into `errs` (kubeflow_admission.h).
std::string DecodeKubeflow(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w,
                           std::vector<FieldError>& errs) {
  const KubeflowFramework& info = KubeflowFrameworkOf(w.kind);
  const bool webhook = info.webhooks;
  const DocNode run = ctx.Map(spec, "runPolicy", "spec.runPolicy");
  if (run.IsDefined()) {
    w.suspend = ctx.Bool(run, "suspend", "spec.runPolicy.suspend").value_or(false);
    const DocNode sp = ctx.Map(run, "schedulingPolicy", "spec.runPolicy.schedulingPolicy");
    if (sp.IsDefined()) {
      const std::string p = "spec.runPolicy.schedulingPolicy";
      if (auto v = ctx.Int(sp, "minAvailable", p + ".minAvailable")) w.min_available = SaturateInt32(*v);
      w.queue = ctx.Str(sp, "queue", p + ".queue");
      w.min_resources = ctx.Quantities(sp, "minResources", p + ".minResources");
      w.priority_class = ctx.Str(sp, "priorityClass", p + ".priorityClass");
      if (auto v = ctx.Int(sp, "scheduleTimeoutSeconds", p + ".scheduleTimeoutSeconds"))
        w.schedule_timeout_seconds = SaturateInt32(*v);
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
    OperatorRole r;
    // The v1 MPIJob has no defaulting before the controller's check.
    r.name = webhook ? CanonicalReplicaType(info, k.Scalar()) : std::string(k.Scalar());
    const std::string rp = specs_path + "[" + r.name + "]";
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
    if (webhook) ValidateKubeflowReplica(info, r, rp, errs);
    w.roles.push_back(std::move(r));
  }
  if (w.kind == OperatorKind::kPyTorchJob) {
    std::vector<FieldError> elastic;
    DecodeElasticPolicy(ctx, spec, w, elastic);
    errs.insert(errs.begin() + static_cast<std::ptrdiff_t>(replica_errors_at), elastic.begin(), elastic.end());
  }
  SortReplicaTypes(info, w.roles);
  return webhook ? "" : MpiJobRefusal(w.roles);
}

// A Volcano Job's lifecycle policies at parent.policies, as written
// (getEventList's events: events[] then event, first occurrences only).
std::vector<VolcanoPolicy> DecodeVolcanoPolicies(DecodeContext& ctx, const DocNode& parent, const std::string& path) {
  std::vector<VolcanoPolicy> out;
  for (const auto& [pol, p] : ctx.Objects(parent, "policies", path)) {
    VolcanoPolicy v;
    v.action = ctx.Str(pol, "action", p + ".action");
    const std::string event = ctx.Str(pol, "event", p + ".event");
    const DocNode events = ctx.Seq(pol, "events", p + ".events");
    for (size_t i = 0; i < events.size(); ++i)
      if (events[i].IsScalar()) v.events.emplace_back(events[i].Scalar());
    v.has_event = !event.empty() || !v.events.empty();
    if (!event.empty()) v.events.push_back(event);
    std::vector<std::string> unique;
    for (const std::string& e : v.events)
      if (std::find(unique.begin(), unique.end(), e) == unique.end()) unique.push_back(e);
    v.events = std::move(unique);
    v.exit_code = ctx.Int(pol, "exitCode", p + ".exitCode");
    out.push_back(std::move(v));
  }
  return out;
}

// A Volcano Job's spec, task by task through its admission webhooks
// (volcano_job_admission.h); returns what they deny it with, "" when admitted.
std::string DecodeVolcanoJob(DecodeContext& ctx, const DocNode& spec, OperatorWorkload& w) {
  w.scheduler_name = ctx.Str(spec, "schedulerName", "spec.schedulerName");
  const std::optional<int64_t> min_available = ctx.Int(spec, "minAvailable", "spec.minAvailable");
  w.queue = ctx.Str(spec, "queue", "spec.queue");
  w.priority_class = ctx.Str(spec, "priorityClassName", "spec.priorityClassName");
  VolcanoJobAdmission admission(w, DecodeVolcanoPolicies(ctx, spec, "spec.policies"));
  for (const auto& [t, p] : ctx.Objects(spec, "tasks", "spec.tasks")) {
    VolcanoTask task;
    task.role.name = ctx.Str(t, "name", p + ".name");
    task.role.replicas = ctx.Int(t, "replicas", p + ".replicas").value_or(0);
    task.min_available = ctx.Int(t, "minAvailable", p + ".minAvailable");
    task.policies = DecodeVolcanoPolicies(ctx, t, p + ".policies");
    DecodePodTemplate(ctx, t, "template", p + ".template", task.role.tmpl);
    task.template_names_scheduler = t["template"]["spec"]["schedulerName"].IsDefined();
    if (!admission.AddTask(std::move(task))) break;
  }
  return admission.Finish(min_available);
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
    w.group_size = SaturateInt32(std::max<int64_t>(size, 1));
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
    ValidateKubeflowJobName(kind, w.meta.name, errs);
    if (spec.IsDefined()) {
      refused = DecodeKubeflow(ctx, spec, w, errs);
    } else {
      const KubeflowFramework& info = KubeflowFrameworkOf(kind);
      errs.push_back(FieldError::Required(std::string("spec.") + info.specs, info.webhooks ? "must be required" : ""));
    }
    if (status.IsDefined()) w.finished = ConditionTrue(ctx, status, {"Succeeded", "Failed"});
  } else if (kind == OperatorKind::kVolcanoJob) {
    denied = spec.IsDefined() ? DecodeVolcanoJob(ctx, spec, w) : VolcanoJobAdmission(w, {}).Finish(std::nullopt);
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
      default: path = std::string("spec.") + KubeflowFrameworkOf(kind).specs + "[" + r.name + "].template"; break;
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
  if (!errs.empty()) return RejectInvalid(src, id, ctx.LineOf(errs.front().field), kind_name, w.name(), errs);
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

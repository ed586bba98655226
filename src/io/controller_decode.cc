#include "controller_decode.h"

#include <algorithm>

#include "gpusched/io/kube_decode.h"
#include "volume_decode.h"
#include "gpusched/model/volume_validation.h"

namespace gpusched {
namespace {

// schema.FromAPIVersionAndKind(...).Version: "" for "" and for a string
// ParseGroupVersion refuses (more than one "/").
std::string ApiVersionPart(const std::string& api_version) {
  const size_t slash = api_version.find('/');
  if (slash == std::string::npos) return api_version;
  if (api_version.find('/', slash + 1) != std::string::npos) return "";
  return api_version.substr(slash + 1);
}

// A value field.Invalid renders with %v (an integer): unquoted.
FieldError InvalidNumber(std::string field, int64_t value, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), std::to_string(value), std::move(detail)};
}

void NonNegative(const std::string& field, int64_t value, std::vector<FieldError>& errs) {
  if (value < 0) errs.push_back(InvalidNumber(field, value, "must be greater than or equal to 0"));
}

// An intstr.IntOrString that must be a count or a percentage (maxSurge,
// maxUnavailable). ValidatePositiveIntOrPercent's error for a string that is
// not "[0-9]+%".
std::optional<IntOrPercent> DecodeIntOrPercent(DecodeContext& ctx, const DocNode& parent, const char* key,
                                               const std::string& path, std::vector<FieldError>& errs) {
  const std::string s = ctx.Str(parent, key, path);
  if (s.empty()) return std::nullopt;
  auto digits = [](std::string_view d) {
    return !d.empty() && d.size() <= 18 && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (s.back() == '%' && digits(std::string_view(s).substr(0, s.size() - 1)))
    return IntOrPercent{std::stoll(s.substr(0, s.size() - 1)), true};
  const bool negative = s.front() == '-';
  if (digits(std::string_view(s).substr(negative ? 1 : 0))) {
    const int64_t v = std::stoll(s);
    return IntOrPercent{v, false};
  }
  errs.push_back(FieldError::Invalid(path, s,
                                     "a valid percent string must be a numeric string followed by an ending '%' (e.g. "
                                     "'1%',  or '93%', regex used for validation is '[0-9]+%')"));
  return std::nullopt;
}

// The pod template at parent["template"] (metadata and spec).
void DecodeTemplate(DecodeContext& ctx, const DocNode& parent, const std::string& path, Controller& out) {
  const DocNode tpl = ctx.Map(parent, "template", path);
  if (!tpl.IsDefined()) return;
  DecodeObjectMeta(ctx, tpl, path + ".metadata", out.tmpl.meta);
  DecodePodSpec(ctx, tpl, path + ".spec", out.tmpl);
  if (out.kind == ControllerKind::kDaemonSet) {
    const DocNode spec = ctx.Map(tpl, "spec", path + ".spec");
    if (spec.IsDefined()) out.host_network = ctx.Bool(spec, "hostNetwork", path + ".spec.hostNetwork").value_or(false);
  }
}

void DecodeDeploymentStrategy(DecodeContext& ctx, const DocNode& spec, Controller& out,
                              std::vector<FieldError>& errs) {
  out.paused = ctx.Bool(spec, "paused", "spec.paused").value_or(false);
  const DocNode strategy = ctx.Map(spec, "strategy", "spec.strategy");
  if (!strategy.IsDefined()) return;
  const std::string type = ctx.Str(strategy, "type", "spec.strategy.type");
  const DocNode ru = ctx.Map(strategy, "rollingUpdate", "spec.strategy.rollingUpdate");
  if (type == "Recreate") {
    out.recreate = true;
    if (ru.IsDefined())
      errs.push_back(FieldError::Forbidden("spec.strategy.rollingUpdate",
                                           "may not be specified when strategy `type` is 'Recreate'"));
    return;
  }
  if (!type.empty() && type != "RollingUpdate") {
    errs.push_back(FieldError::NotSupported("spec.strategy.type", type, {"Recreate", "RollingUpdate"}));
    return;
  }
  if (!ru.IsDefined()) return;
  const std::string p = "spec.strategy.rollingUpdate";
  if (auto v = DecodeIntOrPercent(ctx, ru, "maxUnavailable", p + ".maxUnavailable", errs)) out.max_unavailable = *v;
  if (auto v = DecodeIntOrPercent(ctx, ru, "maxSurge", p + ".maxSurge", errs)) out.max_surge = *v;
}

}  // namespace

void DecodeJobSpec(DecodeContext& ctx, const DocNode& spec, const std::string& path, Controller& out) {
  // SetDefaults_Job (pkg/apis/batch/v1/defaults.go): both unset -> both 1;
  // parallelism unset -> 1; completions stays unset when only parallelism is
  // given (a work queue).
  std::optional<int64_t> parallelism = ctx.Int(spec, "parallelism", path + ".parallelism");
  out.completions = ctx.Int(spec, "completions", path + ".completions");
  if (!parallelism && !out.completions) out.completions = 1;
  out.parallelism = parallelism.value_or(1);
  out.indexed = ctx.Str(spec, "completionMode", path + ".completionMode") == "Indexed";
  out.suspend = ctx.Bool(spec, "suspend", path + ".suspend").value_or(false);
  out.selector = DecodeLabelSelector(ctx, spec, "selector", path + ".selector");
  DecodeTemplate(ctx, spec, path + ".template", out);
}

namespace {

void DecodeStatus(DecodeContext& ctx, const DocNode& obj, Controller& out) {
  const DocNode status = ctx.Map(obj, "status", "status");
  if (!status.IsDefined()) return;
  out.status_replicas = ctx.Int(status, "replicas", "status.replicas").value_or(0);
  out.status_available_replicas = ctx.Int(status, "availableReplicas", "status.availableReplicas").value_or(0);
  out.observed_generation = ctx.Int(status, "observedGeneration", "status.observedGeneration").value_or(0);
  if (out.kind != ControllerKind::kJob) return;
  out.status_succeeded = ctx.Int(status, "succeeded", "status.succeeded").value_or(0);
  out.completed_indexes = ctx.Str(status, "completedIndexes", "status.completedIndexes");
  const DocNode conds = ctx.Seq(status, "conditions", "status.conditions");
  if (!conds.IsDefined()) return;
  for (size_t i = 0; i < conds.size(); ++i) {
    const std::string p = "status.conditions[" + std::to_string(i) + "]";
    const std::string type = ctx.Str(conds[i], "type", p + ".type");
    const std::string st = ctx.Str(conds[i], "status", p + ".status");
    // The conditions after which the Job controller creates no more pods
    // (pkg/controller/job: Complete and Failed, and the interim
    // SuccessCriteriaMet and FailureTarget).
    if (st == "True" &&
        (type == "Complete" || type == "Failed" || type == "SuccessCriteriaMet" || type == "FailureTarget"))
      out.finished = true;
  }
}

}  // namespace

std::vector<FieldError> DecodeOwnerReferences(DecodeContext& ctx, const DocNode& obj,
                                              std::optional<OwnerReference>& controller) {
  std::vector<FieldError> errs;
  const DocNode meta = ctx.Map(obj, "metadata", "metadata");
  if (!meta.IsDefined()) return errs;
  const DocNode refs = ctx.Seq(meta, "ownerReferences", "metadata.ownerReferences");
  if (!refs.IsDefined()) return errs;
  // apimachinery ValidateOwnerReferences: errors at metadata.ownerReferences
  // (not indexed), as upstream reports them.
  const std::string path = "metadata.ownerReferences";
  std::string first_controller;
  for (size_t i = 0; i < refs.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    const DocNode r = refs[i];
    ctx.Record(p, r);
    if (!r.IsMap()) {
      ctx.Error(p, r, std::string("expected an object, got ") + YamlKind(r));
      continue;
    }
    OwnerReference ref{ctx.Str(r, "apiVersion", p + ".apiVersion"), ctx.Str(r, "kind", p + ".kind"),
                       ctx.Str(r, "name", p + ".name"), ctx.Str(r, "uid", p + ".uid")};
    const bool is_controller = ctx.Bool(r, "controller", p + ".controller").value_or(false);
    ctx.Bool(r, "blockOwnerDeletion", p + ".blockOwnerDeletion");
    if (ApiVersionPart(ref.api_version).empty())
      errs.push_back(FieldError::Invalid(path + ".apiVersion", ref.api_version, "version must not be empty"));
    if (ref.kind.empty()) errs.push_back(FieldError::Invalid(path + ".kind", ref.kind, "kind must not be empty"));
    if (ref.name.empty()) errs.push_back(FieldError::Invalid(path + ".name", ref.name, "name must not be empty"));
    if (ref.uid.empty()) errs.push_back(FieldError::Invalid(path + ".uid", ref.uid, "uid must not be empty"));
    if (!is_controller) continue;
    const std::string id = ref.kind + "/" + ref.name;
    if (!first_controller.empty()) {
      // Upstream prints the whole []OwnerReference with %#v (pointer
      // addresses included); the two references named are what matters.
      errs.push_back(FieldError{FieldError::Type::kInvalid, path, "[]v1.OwnerReference{...}",
                                "Only one reference can have Controller set to true. Found \"true\" in references for " +
                                    first_controller + " and " + id});
      continue;
    }
    first_controller = id;
    controller = std::move(ref);
  }
  return errs;
}

std::optional<LabelSelector> DecodeLabelSelector(DecodeContext& ctx, const DocNode& parent, const char* key,
                                                 const std::string& path) {
  const DocNode s = ctx.Map(parent, key, path);
  if (!s.IsDefined()) return std::nullopt;
  LabelSelector sel;
  sel.match_labels = ctx.StrMap(s, "matchLabels", path + ".matchLabels");
  const DocNode exprs = ctx.Seq(s, "matchExpressions", path + ".matchExpressions");
  if (!exprs.IsDefined()) return sel;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const std::string p = path + ".matchExpressions[" + std::to_string(i) + "]";
    const DocNode e = exprs[i];
    ctx.Record(p, e);
    if (!e.IsMap()) {
      ctx.Error(p, e, std::string("expected an object, got ") + YamlKind(e));
      continue;
    }
    LabelSelectorRequirement r{ctx.Str(e, "key", p + ".key"), ctx.Str(e, "operator", p + ".operator"), {}};
    const DocNode values = ctx.Seq(e, "values", p + ".values");
    if (values.IsDefined()) {
      for (size_t k = 0; k < values.size(); ++k) {
        if (!values[k].IsScalar()) {
          ctx.Error(p + ".values[" + std::to_string(k) + "]", values[k],
                    std::string("expected a string, got ") + YamlKind(values[k]));
          continue;
        }
        r.values.emplace_back(values[k].Scalar());
      }
    }
    sel.match_expressions.push_back(std::move(r));
  }
  return sel;
}

std::vector<FieldError> DecodeController(DecodeContext& ctx, const DocNode& obj, ControllerKind kind,
                                         Controller& out) {
  out.kind = kind;
  out.api_version = ctx.Str(obj, "apiVersion", "apiVersion");
  DecodeObjectMeta(ctx, obj, "metadata", out.meta);
  std::vector<FieldError> errs = DecodeOwnerReferences(ctx, obj, out.controller_ref);
  const DocNode meta = ctx.Map(obj, "metadata", "metadata");
  if (meta.IsDefined()) {
    out.creation_timestamp = ctx.Str(meta, "creationTimestamp", "metadata.creationTimestamp");
    out.generation = ctx.Int(meta, "generation", "metadata.generation").value_or(0);
  }
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    switch (kind) {
      case ControllerKind::kDeployment:
      case ControllerKind::kReplicaSet:
      case ControllerKind::kStatefulSet:
        out.replicas = ctx.Int(spec, "replicas", "spec.replicas").value_or(1);
        out.selector = DecodeLabelSelector(ctx, spec, "selector", "spec.selector");
        DecodeTemplate(ctx, spec, "spec.template", out);
        if (kind == ControllerKind::kDeployment) DecodeDeploymentStrategy(ctx, spec, out, errs);
        if (kind == ControllerKind::kStatefulSet) {
          const DocNode ord = ctx.Map(spec, "ordinals", "spec.ordinals");
          if (ord.IsDefined()) out.ordinals_start = ctx.Int(ord, "start", "spec.ordinals.start").value_or(0);
          const DocNode templates = ctx.Seq(spec, "volumeClaimTemplates", "spec.volumeClaimTemplates");
          for (size_t k = 0; k < templates.size(); ++k) {
            PersistentVolumeClaim t = DecodePvcTemplate(ctx, templates[k]);
            const std::string at = "spec.volumeClaimTemplates[" + std::to_string(k) + "]";
            if (t.meta.name.empty()) {
              errs.push_back(FieldError::Required(at + ".metadata.name", "name is required"));
            } else {
              // The claim's spec as the API server validates the claim the
              // controller creates, named under the template.
              ValidatePersistentVolumeClaimTemplate(t, at, errs);
            }
            out.volume_claim_templates.push_back(std::move(t));
          }
        }
        break;
      case ControllerKind::kDaemonSet:
        out.selector = DecodeLabelSelector(ctx, spec, "selector", "spec.selector");
        DecodeTemplate(ctx, spec, "spec.template", out);
        break;
      case ControllerKind::kJob:
        DecodeJobSpec(ctx, spec, "spec", out);
        break;
      case ControllerKind::kCronJob: {
        out.schedule = ctx.Str(spec, "schedule", "spec.schedule");
        out.suspend = ctx.Bool(spec, "suspend", "spec.suspend").value_or(false);
        const DocNode jt = ctx.Map(spec, "jobTemplate", "spec.jobTemplate");
        const DocNode js = jt.IsDefined() ? ctx.Map(jt, "spec", "spec.jobTemplate.spec") : jt;
        if (js.IsDefined()) {
          const bool suspend = out.suspend;
          DecodeJobSpec(ctx, js, "spec.jobTemplate.spec", out);
          out.suspend = suspend;
        }
        break;
      }
    }
  }
  DecodeStatus(ctx, obj, out);
  return errs;
}

void InsertMetadataErrors(std::vector<FieldError>& errs, std::vector<FieldError> more) {
  auto at = std::find_if(errs.begin(), errs.end(), [](const FieldError& e) { return !e.field.starts_with("metadata."); });
  errs.insert(at, std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

std::vector<FieldError> ValidateController(const Controller& c, std::vector<FieldError> decoded) {
  std::vector<FieldError> errs;
  if (c.meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(c.meta.name))
      errs.push_back(FieldError::Invalid("metadata.name", c.meta.name, m));
  }
  // Ownership errors belong to ValidateObjectMeta; the strategy's to the spec.
  std::vector<FieldError> strategy;
  for (FieldError& e : decoded) (e.field.starts_with("metadata.") ? errs : strategy).push_back(std::move(e));

  const bool cron = c.kind == ControllerKind::kCronJob;
  const std::string tpl = cron ? "spec.jobTemplate.spec.template" : "spec.template";
  if (cron && c.schedule.empty()) errs.push_back(FieldError::Required("spec.schedule", ""));
  if (c.kind == ControllerKind::kJob || cron) {
    const std::string js = cron ? "spec.jobTemplate.spec" : "spec";
    NonNegative(js + ".parallelism", c.parallelism, errs);
    if (c.completions) NonNegative(js + ".completions", *c.completions, errs);
    if (c.indexed && !c.completions)
      errs.push_back(FieldError::Required(js + ".completions", "when completion mode is Indexed"));
  }
  if (c.kind == ControllerKind::kDeployment || c.kind == ControllerKind::kReplicaSet ||
      c.kind == ControllerKind::kStatefulSet)
    NonNegative("spec.replicas", c.replicas, errs);
  // Selector and template labels (ValidateDeploymentSpec,
  // ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec).
  if (c.kind != ControllerKind::kJob && !cron) {
    const char* what = c.kind == ControllerKind::kStatefulSet ? "statefulset"
                       : c.kind == ControllerKind::kDaemonSet ? "daemonset"
                                                              : "deployment";
    if (!c.selector) {
      if (c.kind != ControllerKind::kDaemonSet) errs.push_back(FieldError::Required("spec.selector", ""));
    } else {
      ValidateLabelSelector(*c.selector, "spec.selector", errs);
      if (c.selector->Empty())
        errs.push_back(FieldError{FieldError::Type::kInvalid, "spec.selector", "v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}",
                                  std::string("empty selector is invalid for ") + what});
    }
    // A missing selector selects nothing (labels.Nothing()), an empty one
    // everything; either way the template's labels must satisfy it.
    if (!c.selector || !SelectorMatches(*c.selector, c.tmpl.meta.labels))
      errs.push_back(FieldError{FieldError::Type::kInvalid, tpl + ".metadata.labels", GoLabelMap(c.tmpl.meta.labels),
                                "`selector` does not match template `labels`"});
  }
  // The API server defaults requests from limits on Pods only
  // (SetDefaults_Pod), so a template is validated as written.
  Pod tmpl = c.tmpl;
  tmpl.meta.namespace_ = c.meta.namespace_;
  std::vector<FieldError> spec_errs = ValidatePod(tmpl, tpl + ".spec", /*validate_meta=*/false);
  errs.insert(errs.end(), spec_errs.begin(), spec_errs.end());
  if (c.kind == ControllerKind::kDeployment && !c.recreate) {
    // ValidateRollingUpdateDeployment.
    const std::string p = "spec.strategy.rollingUpdate";
    auto check = [&](const IntOrPercent& v, const std::string& field) {
      if (v.value < 0) errs.push_back(InvalidNumber(field, v.value, "must be greater than or equal to 0"));
    };
    check(c.max_unavailable, p + ".maxUnavailable");
    check(c.max_surge, p + ".maxSurge");
    if (c.max_unavailable.value == 0 && c.max_surge.value == 0)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".maxUnavailable", c.max_unavailable.percent ? "0%" : "0",
                                "may not be 0 when `maxSurge` is 0"});
    if (c.max_unavailable.percent && c.max_unavailable.value > 100)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".maxUnavailable",
                                std::to_string(c.max_unavailable.value) + "%", "must not be greater than 100%"});
  }
  errs.insert(errs.end(), std::make_move_iterator(strategy.begin()), std::make_move_iterator(strategy.end()));
  return errs;
}

}  // namespace gpusched

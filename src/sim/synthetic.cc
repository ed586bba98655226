#include "gpusched/sim/synthetic.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <utility>

#include "gpusched/model/gpu_request.h"
#include "gpusched/model/resources.h"
#include "gpusched/util/random.h"

namespace gpusched {
namespace {

// Exponential with the given mean, by inversion. 1 - u is in (0, 1], so the
// logarithm is finite.
double Exponential(Rng& rng, double mean) { return -mean * std::log(1.0 - rng.UniformDouble()); }

// Standard normal by Box-Muller (one of the pair; the other is dropped so
// that every draw takes exactly two uniforms).
double StandardNormal(Rng& rng) {
  const double u1 = 1.0 - rng.UniformDouble();  // (0, 1]
  const double u2 = rng.UniformDouble();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Index of the entry picked with probability weight / total.
size_t PickWeighted(Rng& rng, const std::vector<double>& cumulative) {
  const double x = rng.UniformDouble() * cumulative.back();
  for (size_t i = 0; i < cumulative.size(); ++i)
    if (x < cumulative[i]) return i;
  return cumulative.size() - 1;  // x rounded up to the total
}

bool Finite(double v) { return std::isfinite(v); }

// A number as upstream's field errors render one: unquoted, shortest form.
std::string Number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc() ? end : buf);
}

FieldError InvalidNumber(std::string field, std::string rendered, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), std::move(rendered), std::move(detail)};
}

void ValidateDuration(const LogNormalDuration& d, const std::string& path, std::vector<FieldError>& errs) {
  if (!Finite(d.median_seconds) || d.median_seconds <= 0)
    errs.push_back(InvalidNumber(path + ".median", Number(d.median_seconds), "must be greater than 0"));
  if (!Finite(d.sigma) || d.sigma < 0)
    errs.push_back(InvalidNumber(path + ".sigma", Number(d.sigma), "must be greater than or equal to 0"));
}

void ValidateEntry(const SyntheticMixEntry& e, const std::string& path, std::vector<FieldError>& errs) {
  if (!e.name.empty())
    for (const auto& m : IsValidLabelValue(e.name)) errs.push_back(FieldError::Invalid(path + ".name", e.name, m));
  if (!Finite(e.weight) || e.weight <= 0)
    errs.push_back(InvalidNumber(path + ".weight", Number(e.weight), "must be greater than 0"));
  if (e.gpus < 0)
    errs.push_back(InvalidNumber(path + ".gpus", std::to_string(e.gpus), "must be greater than or equal to 0"));
  if (e.gpu_milli < 0 || e.gpu_milli >= kGpuMilli) {
    errs.push_back(InvalidNumber(path + ".gpuMilli", std::to_string(e.gpu_milli),
                                       "must be between 1 and 999 (a share of one GPU; whole GPUs are gpus)"));
  } else if (e.gpu_milli > 0 && e.gpus > 0) {
    errs.push_back(InvalidNumber(path + ".gpuMilli", std::to_string(e.gpu_milli),
                                       "may not be set together with gpus (a share is of one GPU)"));
  }
  if (e.cpu.Sign() < 0)
    errs.push_back(FieldError::Invalid(path + ".cpu", e.cpu.String(), "must be greater than or equal to 0"));
  if (e.memory.Sign() < 0)
    errs.push_back(FieldError::Invalid(path + ".memory", e.memory.String(), "must be greater than or equal to 0"));
  if (!e.gpu_models.empty() && e.gpus <= 0 && e.gpu_milli <= 0)
    errs.push_back(FieldError::Forbidden(path + ".gpuModels", "may only be set for an entry that requests a GPU"));
  for (size_t j = 0; j < e.gpu_models.size(); ++j) {
    const std::string p = path + ".gpuModels[" + std::to_string(j) + "]";
    const std::string& model = e.gpu_models[j];
    // A model is compared with a node label value, so it must be one.
    if (model.empty()) errs.push_back(FieldError::Required(p, ""));
    for (const auto& m : IsValidLabelValue(model)) errs.push_back(FieldError::Invalid(p, model, m));
  }
  if (e.duration) ValidateDuration(*e.duration, path + ".duration", errs);
  // A template name is an object name (ValidateResourceClaimTemplateName).
  for (const auto& m : IsDNS1123Subdomain(e.resource_claim_template))
    if (!e.resource_claim_template.empty())
      errs.push_back(FieldError::Invalid(path + ".resourceClaimTemplate", e.resource_claim_template, m));
}

std::string JoinModels(const std::vector<std::string>& models) {
  std::string s;
  for (const auto& m : models) s += (s.empty() ? "" : "|") + m;
  return s;
}

// The pod of one mix entry, without name and times.
Pod PodTemplate(const SyntheticMixEntry& e) {
  Pod pod;
  pod.meta.namespace_ = kDefaultNamespace;
  Container& c = pod.containers.emplace_back();
  c.name = "main";
  if (!e.cpu.IsZero()) c.requests.emplace(std::string(kResourceCPU), e.cpu);
  if (!e.memory.IsZero()) c.requests.emplace(std::string(kResourceMemory), e.memory);
  if (e.gpus > 0) c.requests.emplace(std::string(kResourceGPU), Quantity::FromInt(e.gpus));
  c.limits = c.requests;
  if (e.gpu_milli > 0) {
    pod.meta.annotations.emplace(std::string(kAnnotationGpuMilli), std::to_string(e.gpu_milli));
    pod.meta.annotations.emplace(std::string(kAnnotationGpuCount), "1");
  }
  if (!e.gpu_models.empty())
    pod.meta.annotations.emplace(std::string(kAnnotationGpuCardModel), JoinModels(e.gpu_models));
  if (!e.name.empty()) pod.meta.labels.emplace(std::string(kLabelSyntheticMix), e.name);
  if (!e.resource_claim_template.empty()) {
    c.claims.push_back({"gpu", ""});
    auto extras = std::make_shared<PodSpecExtras>();
    PodResourceClaim claim;
    claim.name = "gpu";
    claim.resource_claim_template_name = e.resource_claim_template;
    extras->resource_claims.push_back(std::move(claim));
    pod.extras = std::move(extras);
  }
  return pod;
}

}  // namespace

std::vector<FieldError> ValidateSyntheticSpec(const SyntheticSpec& spec) {
  std::vector<FieldError> errs;
  if (spec.pods < 0) {
    errs.push_back(InvalidNumber("pods", std::to_string(spec.pods), "must be greater than or equal to 0"));
  } else if (spec.pods > kMaxSyntheticPods) {
    errs.push_back(
        InvalidNumber("pods", std::to_string(spec.pods), "must be at most " + std::to_string(kMaxSyntheticPods)));
  }
  if (!Finite(spec.mean_interarrival_seconds) || spec.mean_interarrival_seconds <= 0)
    errs.push_back(InvalidNumber("meanInterarrival", Number(spec.mean_interarrival_seconds),
                                       "must be greater than 0"));
  if (spec.duration) ValidateDuration(*spec.duration, "duration", errs);
  if (spec.mix.empty() && spec.pods > 0)
    errs.push_back(FieldError::Required("mix", "at least one entry is needed to generate pods"));
  double total_weight = 0;
  for (size_t i = 0; i < spec.mix.size(); ++i) {
    ValidateEntry(spec.mix[i], "mix[" + std::to_string(i) + "]", errs);
    total_weight += spec.mix[i].weight;
  }
  // Each weight finite but their sum not: the pick would always be the last.
  if (errs.empty() && !Finite(total_weight))
    errs.push_back(FieldError::Forbidden("mix", "the weights must add up to a finite number"));
  for (size_t i = 0; i < spec.node_events.size(); ++i) {
    const NodeEvent& e = spec.node_events[i];
    const std::string p = "nodeEvents[" + std::to_string(i) + "]";
    if (!Finite(e.time) || e.time < 0)
      errs.push_back(InvalidNumber(p + ".time", Number(e.time), "must be greater than or equal to 0"));
    if (e.kind == NodeEvent::Kind::kAdd && e.node.name().empty())
      errs.push_back(FieldError::Required(p + ".node.metadata.name", "name is required"));
    if (e.kind == NodeEvent::Kind::kRemove && e.name.empty())
      errs.push_back(FieldError::Required(p + ".node", "the name of the node to remove"));
  }
  return errs;
}

Workload GenerateSyntheticWorkload(const SyntheticSpec& spec, uint64_t seed) {
  Workload w;
  if (std::vector<FieldError> errs = ValidateSyntheticSpec(spec); !errs.empty()) {
    for (const FieldError& e : errs) w.rejected.push_back(InputError{"SyntheticWorkload", spec.file, 0, e.ToString()});
    return w;
  }
  w.node_events = spec.node_events;
  if (spec.pods == 0) return w;

  std::vector<double> cumulative;
  std::vector<Pod> templates;
  cumulative.reserve(spec.mix.size());
  templates.reserve(spec.mix.size());
  double total = 0;
  for (const SyntheticMixEntry& e : spec.mix) {
    cumulative.push_back(total += e.weight);
    templates.push_back(PodTemplate(e));
  }

  Rng rng(seed);
  w.pods.reserve(static_cast<size_t>(spec.pods));
  double now = 0;
  const SourceFile file(spec.file);  // one copy of the name for all the pods
  for (int64_t i = 0; i < spec.pods; ++i) {
    now += Exponential(rng, spec.mean_interarrival_seconds);
    const size_t k = PickWeighted(rng, cumulative);
    const std::optional<LogNormalDuration>& d = spec.mix[k].duration ? spec.mix[k].duration : spec.duration;
    const double z = StandardNormal(rng);  // drawn even when unused, to keep every pod at four uniforms
    WorkloadPod& wp = w.pods.emplace_back();
    wp.pod = templates[k];
    char name[32];
    std::snprintf(name, sizeof name, "syn-%06lld", static_cast<long long>(i + 1));
    wp.pod.meta.name = name;
    wp.arrival = now;
    wp.duration = d ? d->median_seconds * std::exp(d->sigma * z) : -1;
    wp.file = file;
  }
  return w;
}

}  // namespace gpusched

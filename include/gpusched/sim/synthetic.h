// Synthetic workloads: a stream of pods drawn from a spec with a seeded Rng,
// for what-if runs when no trace fits. Pods arrive as a Poisson process
// (exponential inter-arrival times), each picks an entry of a weighted
// GPU-size mix, and runs for a lognormal time given by its median and sigma
// (median * exp(sigma * Z), Z standard normal: half the pods run shorter
// than the median; sigma 1 puts the 90th percentile at 3.6 x the median), or
// forever when no duration is given.
//
// Every pod draws exactly four uniforms, in a fixed order (inter-arrival,
// mix entry, two for the normal), so the same spec and seed give the same
// workload, and changing one entry's duration leaves the arrivals and mix
// choices of every pod as they were. The distributions are ours, built on
// Rng::UniformDouble (the std:: ones differ between standard libraries).
#ifndef GPUSCHED_SIM_SYNTHETIC_H_
#define GPUSCHED_SIM_SYNTHETIC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/quantity.h"
#include "gpusched/model/validation.h"
#include "gpusched/sim/workload.h"

namespace gpusched {

// The label a synthetic pod gets with its mix entry's name.
inline constexpr std::string_view kLabelSyntheticMix = "gpusched.io/mix";
// More pods than this is a typo, not a workload.
inline constexpr int64_t kMaxSyntheticPods = 10'000'000;

struct LogNormalDuration {
  double median_seconds = 3600;
  double sigma = 1;  // of ln(duration); 0 = every pod runs exactly the median
};

// One kind of pod. GPU: `gpus` whole GPUs (nvidia.com/gpu), or `gpu_milli`
// (1..999) of one GPU (the alibabacloud.com/gpu-milli and gpu-count
// annotations, as the Alibaba trace's sharing pods), or neither (CPU-only).
struct SyntheticMixEntry {
  std::string name;  // optional; the pods' gpusched.io/mix label
  double weight = 1;
  int64_t gpus = 0;
  int32_t gpu_milli = 0;
  Quantity cpu;     // per pod, requests = limits; zero = not requested
  Quantity memory;  // likewise
  // Allowed GPU models (alibabacloud.com/gpu-card-model, joined with "|");
  // empty = any.
  std::vector<std::string> gpu_models;
  std::optional<LogNormalDuration> duration;  // overrides SyntheticSpec::duration
  // DRA: each pod asks through a claim made from this ResourceClaimTemplate
  // (namespace default, from the cluster files), as a pod of a Job with
  // spec.resourceClaims[{name: gpu, resourceClaimTemplateName: ...}] does;
  // the claim is made per pod and its devices are freed when the pod ends.
  std::string resource_claim_template;
};

struct SyntheticSpec {
  int64_t pods = 0;
  // Mean time between arrivals, i.e. 3600 / (arrivals per hour). The first
  // pod arrives one draw after time 0.
  double mean_interarrival_seconds = 60;
  // Absent: pods run until the end, as manifest pods without
  // gpusched.io/duration (and every pod in the FGD simulator).
  std::optional<LogNormalDuration> duration;
  std::vector<SyntheticMixEntry> mix;
  // Copied into the workload as they are.
  std::vector<NodeEvent> node_events;
  std::optional<uint64_t> seed;  // a spec file's own seed, for callers that use it
  std::string file;              // where the spec came from: WorkloadPod::file
};

// What is wrong with `spec`, with field paths as a spec file spells them
// ("mix[2].weight", "duration.median"); empty when it can be generated.
std::vector<FieldError> ValidateSyntheticSpec(const SyntheticSpec& spec);

// Pods "syn-000001", "syn-000002"… in arrival order, in namespace default,
// with one container "main". An invalid spec gives no pods and its errors in
// `rejected` (object "SyntheticWorkload").
Workload GenerateSyntheticWorkload(const SyntheticSpec& spec, uint64_t seed);

}  // namespace gpusched

#endif  // GPUSCHED_SIM_SYNTHETIC_H_

// BestFit, ported from the FGD simulator's pkg/simulator/plugin/
// best_fit_score.go (getBestFitScore, with NodeResource/PodResource
// ToResourceVec from pkg/type/resource.go) and its NormalizeScore
// (plugin_utils.go). gpusched's own "best-fit" (fit_policies.cc) is a
// different rule; this one is the paper's baseline.
#include <limits>

#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {
namespace {

int64_t BestFitScore(const NodeState& st, const PodShape& shape) {
  const double free[2] = {static_cast<double>(CpuLeftMilli(st)), static_cast<double>(st.GpuFreeMilli())};
  const double req[2] = {static_cast<double>(shape.milli_cpu),
                         static_cast<double>(static_cast<int64_t>(shape.milli_gpu) * shape.gpu_count)};
  const double max_spec[2] = {static_cast<double>(kMaxSpecCpu), static_cast<double>(kMaxSpecGpu)};
  const double weight[2] = {0.5, 0.5};
  double score = 0;
  for (int i = 0; i < 2; ++i) {
    // Upstream returns an error here, which fails the pod's scheduling
    // cycle; it needs a pod whose scoring CPU (100m default) exceeds what the
    // filter checked, so we score the node 0 instead.
    if (free[i] < req[i]) return 0;
    score += (free[i] - req[i]) / max_spec[i] * weight[i];  // [0, 1], lower is better
  }
  score = (1.0 - score) * 100.0;
  return static_cast<int64_t>(score);
}

}  // namespace

// What a score means, for explain's `why`.
constexpr const char* kPaperBestFitMeaning =
    "int(100*(1 - 0.5*(cpuLeft-cpu)/128000 - 0.5*(gpuLeft-gpu)/8000)), min-max normalised to 0..100 over the "
    "feasible nodes";

PaperBestFitPolicy::PaperBestFitPolicy()
    : PaperScorePolicy({"paper-best-fit", "BestFitScore", kPaperBestFitMeaning}) {}

void PaperBestFitPolicy::Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                               std::vector<int64_t>& scores, PolicyState&) const {
  const PodShape shape = ShapeOf(pod);
  for (size_t k = 0; k < feasible.size(); ++k) scores[k] = BestFitScore(cluster.state(feasible[k]), shape);
}

void PaperBestFitPolicy::Normalize(std::vector<int64_t>& scores) const {
  int64_t highest = std::numeric_limits<int64_t>::min() + 1;  // -math.MaxInt64
  int64_t lowest = std::numeric_limits<int64_t>::max();
  for (int64_t s : scores) {
    if (s > highest) highest = s;
    if (s < lowest) lowest = s;
  }
  const int64_t old_range = highest - lowest;
  for (int64_t& s : scores) s = old_range == 0 ? 0 : (s - lowest) * 100 / old_range;
}

}  // namespace gpusched

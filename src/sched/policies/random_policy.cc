// Random, ported from the FGD simulator's pkg/simulator/plugin/
// random_score.go (PreScore draws rand.Intn(len(nodes)); that node scores
// 100, every other 0, so no tie-break is ever needed) and open_gpu_share.go
// allocateGpuIdBasedOnRandomFit (gpusel random).
#include <string>

#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {

size_t RandomPolicy::Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng& rng,
                            PolicyState&, PodExplain* explain) const {
  const size_t pick = static_cast<size_t>(rng.Uniform(feasible.size()));
  if (explain) {
    for (size_t k = 0; k < feasible.size(); ++k) {
      NodeExplain& ne = explain->nodes[feasible[k]];
      ne.scored = true;
      const int64_t s = k == pick ? 100 : 0;
      ne.scores.push_back(PluginScore{"RandomScore", s, s, kPaperScoreWeight, s * kPaperScoreWeight});
      ne.total = s * kPaperScoreWeight;
    }
    explain->why = "random: drawn uniformly among the " + std::to_string(feasible.size()) +
                   " feasible nodes (seeded); it scores 100, the others 0";
  }
  return feasible[pick];
}

namespace {

// A run of Random: the exact ShapeNodeCache and SelectIndexed's scratch.
struct RandomState : PolicyState {
  ShapeNodeCache shape_cache{/*exact=*/true};
  std::vector<size_t> feasible;
};

}  // namespace

std::unique_ptr<PolicyState> RandomPolicy::NewState() const { return std::make_unique<RandomState>(); }

std::optional<size_t> RandomPolicy::SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                                  const std::function<bool(size_t)>& fits, Rng& rng,
                                                  PolicyState& policy_state) const {
  RandomState& state = StateAs<RandomState>(policy_state);
  const std::vector<size_t>* feasible = &state.feasible;
  if (ShapeNodeCache::Cacheable(pod)) {
    feasible = &state.shape_cache.Feasible(pod, cluster, fits, nullptr, nullptr);
  } else {
    ShapeNodeCache::Scan(cluster, NodeFitIndex::NeedOf(pod, true), fits, state.feasible);
  }
  // As the scheduler's Commit: no draw for a single feasible node.
  if (feasible->empty()) return std::nullopt;
  if (feasible->size() == 1) return feasible->front();
  return Select(pod, cluster, *feasible, rng, state, nullptr);
}

std::vector<int32_t> RandomPolicy::SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node, Rng& rng,
                                              PolicyState&) const {
  if (!pod.gpu.shared()) return cluster.DefaultGpuChoice(node, pod.gpu);
  // Reservoir sampling over the devices that fit, in index order: the k-th
  // fitting device replaces the choice with probability 1/k.
  const std::vector<int32_t>& free = cluster.state(node).gpu_free_milli;
  const int32_t milli = cluster.state(node).GpuMilliFor(pod.gpu);  // KAI gpu-memory: this node's share
  if (milli <= 0) return {};
  int32_t chosen = -1;
  uint64_t fitting = 0;
  for (size_t d = 0; d < free.size(); ++d) {
    if (free[d] < milli) continue;
    if (rng.Uniform(++fitting) == 0) chosen = static_cast<int32_t>(d);
  }
  if (chosen < 0) return {};
  return {chosen};
}

}  // namespace gpusched

#include "gpusched/sched/policies/scoring_policy.h"

namespace gpusched {

// pkg/scheduler/schedule_one.go
constexpr int64_t kMinFeasibleNodesToFind = 100;
constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;

int64_t NumFeasibleNodesToFind(std::optional<int32_t> percentage, int64_t num_nodes) {
  if (num_nodes < kMinFeasibleNodesToFind) return num_nodes;
  int64_t pct = percentage.value_or(0);
  if (pct == 0) {
    pct = 50 - num_nodes / 125;
    if (pct < kMinFeasibleNodesPercentageToFind) pct = kMinFeasibleNodesPercentageToFind;
  }
  int64_t n = num_nodes * pct / 100;
  return n < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : n;
}

ScoringPolicy::ScoringPolicy(std::string name, std::vector<WeightedScorePlugin> scorers,
                             std::optional<int32_t> percentage_of_nodes_to_score, std::optional<bool> has_scoring)
    : name_(std::move(name)),
      scorers_(std::move(scorers)),
      percentage_(percentage_of_nodes_to_score),
      has_scoring_(has_scoring.value_or(!scorers_.empty())) {}

int64_t ScoringPolicy::NumFeasibleNodesToFind(int64_t num_nodes) const {
  // Without score plugins (and extenders) any feasible node will do.
  if (!has_scoring_) return num_nodes > 0 ? 1 : 0;
  return gpusched::NumFeasibleNodesToFind(percentage_, num_nodes);
}

namespace {

// A run of a ScoringPolicy: Select's scratch, reused between calls.
struct ScoringState : PolicyState {
  std::vector<int64_t> totals, scores;
};

}  // namespace

std::unique_ptr<PolicyState> ScoringPolicy::NewState() const { return std::make_unique<ScoringState>(); }

size_t ScoringPolicy::Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                             Rng& rng, PolicyState& state, PodExplain* explain) const {
  const size_t n = feasible.size();
  std::vector<int64_t>& totals = StateAs<ScoringState>(state).totals;
  std::vector<int64_t>& scores = StateAs<ScoringState>(state).scores;
  totals.assign(n, 0);
  scores.resize(n);
  for (const auto& [plugin, weight] : scorers_) {
    if (!plugin->PreScore(pod, cluster)) continue;  // Skip: no score, no weight
    plugin->ScoreNodes(pod, cluster, feasible, scores);
    std::vector<int64_t> raw;
    if (explain) raw = scores;
    plugin->NormalizeScore(pod, scores);
    for (size_t k = 0; k < n; ++k) {
      totals[k] += scores[k] * weight;
      if (explain) {
        NodeExplain& ne = explain->nodes[feasible[k]];
        ne.scored = true;
        ne.scores.push_back(PluginScore{std::string(plugin->Name()), raw[k], scores[k], weight, scores[k] * weight});
      }
    }
  }
  // selectHost: the highest total; among ties each is chosen with equal
  // probability (reservoir sampling, as v1.27-v1.34 do it).
  size_t chosen = 0;
  int64_t count_max = 0;
  for (size_t k = 0; k < n; ++k) {
    if (count_max == 0 || totals[k] > totals[chosen]) {
      chosen = k;
      count_max = 1;
    } else if (totals[k] == totals[chosen]) {
      ++count_max;
      if (rng.Uniform(static_cast<uint64_t>(count_max)) == 0) chosen = k;
    }
  }
  if (explain) {
    for (size_t k = 0; k < n; ++k) explain->nodes[feasible[k]].total = totals[k];
    explain->why = count_max > 1 ? "highest total score " + std::to_string(totals[chosen]) + ", tied on " +
                                       std::to_string(count_max) + " nodes: chosen uniformly at random (seeded)"
                                 : "highest total score " + std::to_string(totals[chosen]);
  }
  return feasible[chosen];
}

}  // namespace gpusched

// The node choice shared by the FGD paper's score policies: one plugin, the
// highest (normalised) score, ties by the seeded node order (NodeRank).
// k8s 1.20's prioritizeNodes multiplies the one plugin's score by its weight
// (1000), which changes no ranking; explain shows it as kube-scheduler does.
#include <string>

#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {

size_t PaperScorePolicy::Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                                Rng& rng, PolicyState& policy_state, PodExplain* explain) const {
  State& state = StateAs<State>(policy_state);
  std::vector<int64_t>& scores = state.scores;
  const size_t n = feasible.size();
  scores.resize(n);
  Score(pod, cluster, feasible, scores, state);
  if (explain) state.raw = scores;
  Normalize(scores);
  const std::vector<uint32_t>& rank = state.rank.Ensure(cluster.size(), rng);
  const HighestPick pick = PickHighest(feasible, scores, rank);
  if (explain) {
    const std::string plugin(PluginName());
    for (size_t k = 0; k < n; ++k) {
      NodeExplain& ne = explain->nodes[feasible[k]];
      ne.scored = true;
      const int64_t weighted = scores[k] * kPaperScoreWeight;
      ne.scores.push_back(PluginScore{plugin, state.raw[k], scores[k], kPaperScoreWeight, weighted});
      ne.total = weighted;
    }
    std::string why = std::string(Name()) + ": highest " + plugin + " " + std::to_string(scores[pick.index]);
    if (pick.ties > 1) {
      why += ", tied on " + std::to_string(pick.ties) +
             " nodes: the first in the seeded random node order (the simulator's node-name prefix)";
    }
    why += "; score = ";
    why += names_.meaning;
    explain->why = std::move(why);
  }
  return feasible[pick.index];
}

namespace {

// The policy's Score for the ShapeNodeCache.
class PolicyScorer : public NodeScorer {
 public:
  PolicyScorer(const PaperScorePolicy& policy, const PodInfo& pod, const ClusterState& cluster, PolicyState& state)
      : policy_(policy), pod_(pod), cluster_(cluster), state_(state) {}
  void ScoreNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const override {
    policy_.Score(pod_, cluster_, nodes, scores, state_);
  }
  bool BoundNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& bounds) const override {
    return policy_.ScoreBound(pod_, cluster_, nodes, bounds, state_);
  }

 private:
  const PaperScorePolicy& policy_;
  const PodInfo& pod_;
  const ClusterState& cluster_;
  PolicyState& state_;
};

}  // namespace

std::optional<size_t> PaperScorePolicy::SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                                      const std::function<bool(size_t)>& fits, Rng& rng,
                                                      PolicyState& policy_state) const {
  State& state = StateAs<State>(policy_state);
  // Until the ranks are drawn the plain path decides when they are (at the
  // first choice among several nodes), so it runs as such.
  if (!state.rank.drawn() || !ShapeNodeCache::Cacheable(pod)) {
    ShapeNodeCache::Scan(cluster, NodeFitIndex::NeedOf(pod, true), fits, state.feasible);
    return Choose(pod, cluster, state.feasible, rng, state);
  }
  // Drawn already: this only ranks nodes added since, drawing nothing.
  const std::vector<uint32_t>& rank = state.rank.Ensure(cluster.size(), rng);
  const PolicyScorer scorer(*this, pod, cluster, state);
  bool packed = true;
  const std::optional<size_t> best = state.shape_cache.Best(pod, cluster, fits, scorer, rank, packed);
  if (packed) return best;
  // Scores beyond 32 bits: Select itself over the cached feasible set.
  return Choose(pod, cluster, state.shape_cache.Feasible(pod, cluster, fits, &scorer, &rank), rng, state);
}

std::optional<size_t> PaperScorePolicy::Choose(const PodInfo& pod, const ClusterState& cluster,
                                               const std::vector<size_t>& feasible, Rng& rng, State& state) const {
  if (feasible.empty()) return std::nullopt;
  if (feasible.size() == 1) return feasible.front();
  return Select(pod, cluster, feasible, rng, state, nullptr);
}

int64_t PaperScorePolicy::ScoreNode(const PodInfo& pod, const ClusterState& cluster, size_t node,
                                    PolicyState& state) const {
  std::vector<size_t> one{node};
  std::vector<int64_t> score(1);
  Score(pod, cluster, one, score, state);
  return score[0];
}

}  // namespace gpusched

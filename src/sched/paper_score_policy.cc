// The node choice shared by the FGD paper's score policies: one plugin, the
// highest (normalised) score, ties by the seeded node order (NodeRank).
// k8s 1.20's prioritizeNodes multiplies the one plugin's score by its weight
// (1000), which changes no ranking; explain shows it as kube-scheduler does.
#include <string>

#include "gpusched/sched/paper_policies.h"

namespace gpusched {

size_t PaperScorePolicy::Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                                Rng& rng, PodExplain* explain) const {
  const size_t n = feasible.size();
  scores_.resize(n);
  Score(pod, cluster, feasible, scores_);
  if (explain) raw_ = scores_;
  Normalize(scores_);
  const std::vector<uint32_t>& rank = rank_.Ensure(cluster.size(), rng);
  const HighestPick pick = PickHighest(feasible, scores_, rank);
  if (explain) {
    const std::string plugin(PluginName());
    for (size_t k = 0; k < n; ++k) {
      NodeExplain& ne = explain->nodes[feasible[k]];
      ne.scored = true;
      const int64_t weighted = scores_[k] * kPaperScoreWeight;
      ne.scores.push_back(PluginScore{plugin, raw_[k], scores_[k], kPaperScoreWeight, weighted});
      ne.total = weighted;
    }
    std::string why = std::string(Name()) + ": highest " + plugin + " " + std::to_string(scores_[pick.index]);
    if (pick.ties > 1) {
      why += ", tied on " + std::to_string(pick.ties) +
             " nodes: the first in the seeded random node order (the simulator's node-name prefix)";
    }
    why += "; score = ";
    why += ScoreMeaning();
    explain->why = std::move(why);
  }
  return feasible[pick.index];
}

int64_t PaperScorePolicy::ScoreNode(const PodInfo& pod, const ClusterState& cluster, size_t node) const {
  std::vector<size_t> one{node};
  std::vector<int64_t> score(1);
  Score(pod, cluster, one, score);
  return score[0];
}

}  // namespace gpusched

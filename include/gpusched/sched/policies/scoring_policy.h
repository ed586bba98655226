// ScoringPolicy: kube-scheduler's way of choosing a node — score every
// feasible node found (up to percentageOfNodesToScore), normalize each
// plugin's scores, weight and sum them, and pick the highest total, breaking
// ties uniformly at random through the seeded generator (selectHost,
// pkg/scheduler/schedule_one.go). "kube-default" is this policy with the
// default profile's score plugins.
#ifndef GPUSCHED_SCHED_POLICIES_SCORING_POLICY_H_
#define GPUSCHED_SCHED_POLICIES_SCORING_POLICY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

struct WeightedScorePlugin {
  std::unique_ptr<ScorePlugin> plugin;
  int64_t weight = 1;
};

class ScoringPolicy : public Policy {
 public:
  // `has_scoring`: the profile configures score plugins, even ones gpusched
  // does not implement; upstream's hasScoring then looks for the full
  // numFeasibleNodesToFind. Defaults to !scorers.empty().
  ScoringPolicy(std::string name, std::vector<WeightedScorePlugin> scorers,
                std::optional<int32_t> percentage_of_nodes_to_score, std::optional<bool> has_scoring = std::nullopt);

  std::string_view Name() const override { return name_; }
  int64_t NumFeasibleNodesToFind(int64_t num_nodes) const override;
  bool RotatesStartIndex() const override { return true; }
  // A run keeps Select's scratch.
  std::unique_ptr<PolicyState> NewState() const override;
  size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, Rng& rng,
                PolicyState& state, PodExplain* explain) const override;

  const std::vector<WeightedScorePlugin>& scorers() const { return scorers_; }
  void SetUseIndex(bool on) const override {
    for (const WeightedScorePlugin& s : scorers_) s.plugin->SetUseIndex(on);
  }

 private:
  std::string name_;
  std::vector<WeightedScorePlugin> scorers_;
  std::optional<int32_t> percentage_;
  bool has_scoring_;
};

// numFeasibleNodesToFind (schedule_one.go): all nodes below 100; otherwise
// percentage (0 = adaptive 50 - n/125, at least 5) of them, at least 100.
int64_t NumFeasibleNodesToFind(std::optional<int32_t> percentage, int64_t num_nodes);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POLICIES_SCORING_POLICY_H_

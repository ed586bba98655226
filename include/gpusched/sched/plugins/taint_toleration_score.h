// TaintToleration's Score (pkg/scheduler/framework/plugins/tainttoleration/
// taint_toleration.go): the number of PreferNoSchedule taints the pod's
// tolerations (those with effect PreferNoSchedule or empty) do not tolerate;
// NormalizeScore = DefaultNormalizeScore(MaxNodeScore, reverse = true). Its
// Filter half is taint_toleration.h.
#ifndef GPUSCHED_SCHED_PLUGINS_TAINT_TOLERATION_SCORE_H_
#define GPUSCHED_SCHED_PLUGINS_TAINT_TOLERATION_SCORE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

class TaintTolerationScorer : public ScorePlugin {
 public:
  std::string_view Name() const override { return "TaintToleration"; }
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_TAINT_TOLERATION_SCORE_H_

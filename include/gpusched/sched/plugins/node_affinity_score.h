// NodeAffinity's Score (pkg/scheduler/framework/plugins/nodeaffinity/
// node_affinity.go, the pod's preferred terms only): the sum of the weights
// of the pod's preferred terms that match the node; NormalizeScore =
// DefaultNormalizeScore(MaxNodeScore, reverse = false). PreScore skips a pod
// with no preferred terms. The plugin's addedAffinity arg is not supported.
// Its Filter half is node_affinity.h.
#ifndef GPUSCHED_SCHED_PLUGINS_NODE_AFFINITY_SCORE_H_
#define GPUSCHED_SCHED_PLUGINS_NODE_AFFINITY_SCORE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

class NodeAffinityScorer : public ScorePlugin {
 public:
  std::string_view Name() const override { return "NodeAffinity"; }
  bool PreScore(const PodInfo& pod) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODE_AFFINITY_SCORE_H_

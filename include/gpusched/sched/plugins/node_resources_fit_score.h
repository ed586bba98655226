// NodeResourcesFit's Score (pkg/scheduler/framework/plugins/noderesources/
// {fit,least_allocated,most_allocated,requested_to_capacity_ratio}.go and
// helper/shape_score.go) with the configured scoring strategy
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio), Kubernetes
// v1.35's arithmetic. Its Filter half is node_resources_fit.h.
#ifndef GPUSCHED_SCHED_PLUGINS_NODE_RESOURCES_FIT_SCORE_H_
#define GPUSCHED_SCHED_PLUGINS_NODE_RESOURCES_FIT_SCORE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/resource_allocation.h"

namespace gpusched {

// least_allocated.go leastRequestedScore: (capacity - requested) * 100 / capacity,
// 0 when requested > capacity or capacity == 0.
int64_t LeastRequestedScore(int64_t requested, int64_t capacity);
// most_allocated.go mostRequestedScore: min(requested, capacity) * 100 / capacity,
// 0 when capacity == 0.
int64_t MostRequestedScore(int64_t requested, int64_t capacity);

// helper.FunctionShapePoint (helper/shape_score.go).
struct FunctionShapePoint {
  int64_t utilization = 0;
  int64_t score = 0;
};
// helper.BuildBrokenLinearFunction evaluated at p: shape[0].score for
// p <= shape[0].utilization, the last score beyond the last point, linear in
// between with Go integer division (truncation toward zero). An empty shape
// (rejected by upstream validation) gives 0.
int64_t BrokenLinearFunction(const std::vector<FunctionShapePoint>& shape, int64_t p);

// The plugin. Args are used as given (no defaulting); NewScorePlugin
// (score_plugin.h) applies upstream's args defaulting first. No
// NormalizeScore. PreScore never skips.
class NodeResourcesFitScorer : public ScorePlugin {
 public:
  explicit NodeResourcesFitScorer(const NodeResourcesFitArgs& args);
  std::string_view Name() const override { return "NodeResourcesFit"; }
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;

 private:
  void Resolve(const PodInfo& pod, std::vector<ResolvedResource>& out) const;
  int64_t ScoreResolved(const std::vector<ResolvedResource>& rs, const NodeState& state) const;
  ScoringStrategyType type_;
  std::vector<ResourceSpec> resources_;
  std::vector<bool> scalar_name_;          // IsScalarResourceName per resource
  std::vector<FunctionShapePoint> shape_;  // RTC shape, scores scaled to 0..MaxNodeScore
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODE_RESOURCES_FIT_SCORE_H_

// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go).
//
// Filter (fit.cc): the pod's requests must fit in what the node has free,
// with "Too many pods" and "Insufficient <resource>" reasons;
// NodeResourcesFitArgs.ignoredResources / ignoredResourceGroups name extended
// resources it does not check (e.g. ones an extender manages).
//
// Score (fit_score.cc: least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go and helper/shape_score.go) with the
// configured scoring strategy (LeastAllocated, MostAllocated,
// RequestedToCapacityRatio), Kubernetes v1.35's arithmetic. No
// NormalizeScore; PreScore never skips.
//
// Args are used as given (no defaulting): the registry
// (sched/plugins/registry.h) applies upstream's args defaulting first. Its
// args are decoded by DecodeNodeResourcesFitArgs (args.cc). Reason text:
// Kubernetes v1.35 (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODERESOURCES_FIT_H_
#define GPUSCHED_SCHED_PLUGINS_NODERESOURCES_FIT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/noderesources/resource_allocation.h"

namespace gpusched {

inline constexpr const char* kReasonTooManyPods = "Too many pods";

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

class NodeResourcesFit : public FilterPlugin, public ScorePlugin {
 public:
  NodeResourcesFit() : NodeResourcesFit(NodeResourcesFitArgs{}) {}
  explicit NodeResourcesFit(const NodeResourcesFitArgs& args);
  // With the default args but for the extended resources it ignores.
  NodeResourcesFit(std::vector<std::string> ignored_resources, std::vector<std::string> ignored_groups)
      : NodeResourcesFit(IgnoringArgs(std::move(ignored_resources), std::move(ignored_groups))) {}
  std::string_view Name() const override { return names::kNodeResourcesFit; }

  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // False for resources the args tell it to ignore.
  bool Checks(std::string_view resource) const { return !Ignored(resource); }
  bool IgnoresResource(std::string_view resource) const override { return Ignored(resource); }
  FilterTraits Traits() const override {
    return {.in_tree = true, .checks_fit = true, .checks_gpu_count = Checks(kResourceGPU)};
  }
  // isSchedulableAfterNodeChange for an added node: isFit, the pod's
  // requests against the node alone (no pod on it, no resource ignored).
  // Deleting an assigned pod frees resources: Queue.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  bool QueueOnAssignedPodDeleted() const override { return true; }
  // Its verdict depends on what runs on the node: the diagnosis compares the
  // pod's requests with each node's allocatable itself.
  int NeverPasses(const PodInfo&, const Node&, const NodeState&) const override { return 0; }

  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;

 private:
  // The default args with these ignored (a designated initializer would
  // leave the other members without initializers: -Wmissing-field-initializers).
  static NodeResourcesFitArgs IgnoringArgs(std::vector<std::string> resources, std::vector<std::string> groups) {
    NodeResourcesFitArgs args;
    args.ignored_resources = std::move(resources);
    args.ignored_resource_groups = std::move(groups);
    return args;
  }

  bool Ignored(std::string_view resource) const;
  void Resolve(const PodInfo& pod, std::vector<ResolvedResource>& out) const;
  int64_t ScoreResolved(const std::vector<ResolvedResource>& rs, const NodeState& state) const;

  std::vector<std::string> ignored_resources_;
  std::vector<std::string> ignored_groups_;
  ScoringStrategyType type_;
  std::vector<ResourceSpec> resources_;
  std::vector<bool> scalar_name_;          // IsScalarResourceName per resource
  std::vector<FunctionShapePoint> shape_;  // RTC shape, scores scaled to 0..MaxNodeScore
};

// profiles[].pluginConfig[].args of NodeResourcesFit into profile.fit_args
// (the v1 NodeResourcesFitArgs: ignoredResources, ignoredResourceGroups,
// scoringStrategy). Defaulting and validation are the configuration's
// (config/scheduler_config.h), as upstream's are in apis/config.
void DecodeNodeResourcesFitArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                SchedulerProfile& profile);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODERESOURCES_FIT_H_

// The in-tree Score plugins gpusched implements, with kube-scheduler's names
// and arithmetic (Kubernetes v1.35):
//   NodeResourcesFit                 pkg/scheduler/framework/plugins/noderesources/{fit,resource_allocation,
//                                    least_allocated,most_allocated,requested_to_capacity_ratio}.go
//   NodeResourcesBalancedAllocation  noderesources/balanced_allocation.go (the v1.22-v1.35 formula)
//   TaintToleration                  plugins/tainttoleration/taint_toleration.go
//   NodeAffinity                     plugins/nodeaffinity/node_affinity.go (pod's preferred terms only)
// NewScorePlugin and DefaultNormalizeScore are declared in score_plugin.h.
#ifndef GPUSCHED_SCHED_PLUGINS_RESOURCE_ALLOCATION_H_
#define GPUSCHED_SCHED_PLUGINS_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

// ---------------------------------------------------------------------------
// Shared resource-allocation helpers (noderesources/resource_allocation.go).

// The request of `pod` for `resource` as resourceAllocationScorer.
// calculatePodResourceRequest sees it: with `use_requested` (BalancedAllocation)
// the plain requests, otherwise the requests with the 100m / 200Mi defaults
// for containers that have no cpu / memory key (Least/Most/RTC).
int64_t PodResourceRequest(const PodInfo& pod, std::string_view resource, bool use_requested);

struct AllocatableRequest {
  int64_t allocatable = 0;
  int64_t requested = 0;  // what the node has in use plus the pod's request
};

// resourceAllocationScorer.calculateResourceAllocatableRequest:
//  - a scalar resource (extended, hugepages, ...) the pod does not request: {0, 0};
//  - cpu / memory: node allocatable, and NonZeroRequested (or Requested when
//    `use_requested`) + pod_request;
//  - ephemeral-storage: allocatable, Requested + pod_request;
//  - a scalar the node advertises: allocatable, Requested + pod_request;
//  - anything else (not advertised, or not a scalar such as "pods"): {0, 0}.
// Callers skip entries whose allocatable is 0 (they get no score and no weight).
AllocatableRequest CalculateResourceAllocatableRequest(const NodeState& node, std::string_view resource,
                                                       int64_t pod_request, bool use_requested);

// One configured resource of a scorer, resolved for one pod: which branch of
// CalculateResourceAllocatableRequest applies, found once per pod instead of
// by name on every node.
struct ResolvedResource {
  enum Kind : uint8_t { kNone, kCpu, kMemory, kEphemeral, kScalar };
  Kind kind = kNone;
  int64_t pod_request = 0;
  int64_t weight = 0;
  std::string_view name;  // for kScalar
};
// The resolution, with `scalar_name` = IsScalarResourceName(name) (it never
// changes, so scorers compute it once).
ResolvedResource ResolveResource(std::string_view name, bool scalar_name, int64_t pod_request, int64_t weight);
// CalculateResourceAllocatableRequest for a resolved resource (inline: it
// runs per scored node and resource).
inline AllocatableRequest AllocatableRequestOf(const ResolvedResource& r, const NodeState& node, bool use_requested) {
  const Resources& requested = use_requested ? node.requested : node.non_zero_requested;
  switch (r.kind) {
    case ResolvedResource::kNone:
      return {};
    case ResolvedResource::kCpu:
      return {node.allocatable.milli_cpu, SatAdd(requested.milli_cpu, r.pod_request)};
    case ResolvedResource::kMemory:
      return {node.allocatable.memory, SatAdd(requested.memory, r.pod_request)};
    case ResolvedResource::kEphemeral:
      return {node.allocatable.ephemeral_storage, SatAdd(node.requested.ephemeral_storage, r.pod_request)};
    case ResolvedResource::kScalar:
      // Default branch: only resources in the node's ScalarResources map
      // count ("pods" and unknown names are not in it). The DRA-backed
      // extended resource path (DRAExtendedResource) is not modelled.
      if (node.allocatable.HasScalar(r.name))
        return {node.allocatable.Scalar(r.name), SatAdd(node.requested.Scalar(r.name), r.pod_request)};
      return {};
  }
  return {};
}

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

// ---------------------------------------------------------------------------
// Plugins. Args are used as given (no defaulting); NewScorePlugin applies
// upstream's args defaulting first.

// NodeResourcesFit's Score with the configured scoring strategy. No
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

// NodeResourcesBalancedAllocation (v1.22-v1.35): score =
// int64((1 - std(fractions)) * 100) over the configured resources the node
// advertises, fraction = min(requested / allocatable, 1) with plain requests.
// Weights are ignored. PreScore skips a pod whose requests for all configured
// resources are 0 (PR #130260).
class BalancedAllocationScorer : public ScorePlugin {
 public:
  explicit BalancedAllocationScorer(const NodeResourcesBalancedAllocationArgs& args);
  std::string_view Name() const override { return "NodeResourcesBalancedAllocation"; }
  bool PreScore(const PodInfo& pod) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;

 private:
  bool IsBestEffort(const PodInfo& pod) const;
  void Resolve(const PodInfo& pod, std::vector<ResolvedResource>& out) const;
  static int64_t ScoreResolved(const std::vector<ResolvedResource>& rs, const NodeState& state);
  std::vector<ResourceSpec> resources_;
  std::vector<bool> scalar_name_;  // IsScalarResourceName per resource
};

// TaintToleration's Score: the number of PreferNoSchedule taints the pod's
// tolerations (those with effect PreferNoSchedule or empty) do not tolerate;
// NormalizeScore = DefaultNormalizeScore(MaxNodeScore, reverse = true).
class TaintTolerationScorer : public ScorePlugin {
 public:
  std::string_view Name() const override { return "TaintToleration"; }
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;
};

// NodeAffinity's Score: the sum of the weights of the pod's preferred terms
// that match the node; NormalizeScore = DefaultNormalizeScore(MaxNodeScore,
// reverse = false). PreScore skips a pod with no preferred terms. The
// plugin's addedAffinity arg is not supported.
class NodeAffinityScorer : public ScorePlugin {
 public:
  std::string_view Name() const override { return "NodeAffinity"; }
  bool PreScore(const PodInfo& pod) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_RESOURCE_ALLOCATION_H_

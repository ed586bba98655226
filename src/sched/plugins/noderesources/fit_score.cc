// NodeResourcesFit scoring: pkg/scheduler/framework/plugins/noderesources/
// least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go and
// helper/shape_score.go (BuildBrokenLinearFunction); what it shares with
// BalancedAllocation (resource_allocation.go) is in resource_allocation.cc.
//
// Arithmetic is upstream's int64 with Go `/` (truncation toward zero). The
// products (x * MaxNodeScore, score * weight) are formed in 128 bits, so a
// value whose product would wrap around in Go's int64 (a resource amount above
// ~9.2e16) still scores in range here instead of wrapping.
#include <cmath>
#include <limits>

#include "gpusched/model/resources.h"
#include "gpusched/sched/plugins/noderesources/fit.h"

namespace gpusched {
namespace {

__extension__ typedef __int128 Int128;

int64_t ClampToInt64(Int128 v) {
  if (v > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

// a / b with Go's truncation; a 64-bit division when both fit, which is
// many times cheaper than the 128-bit one and gives the same quotient.
int64_t Div(Int128 a, Int128 b) {
  if (a >= INT64_MIN && a <= INT64_MAX && b >= INT64_MIN && b <= INT64_MAX && !(a == INT64_MIN && b == -1))
    return static_cast<int64_t>(a) / static_cast<int64_t>(b);
  return ClampToInt64(a / b);
}

// requested_to_capacity_ratio.go: maxUtilization.
constexpr int64_t kMaxUtilization = 100;

}  // namespace

// Below this magnitude, x * MaxNodeScore (and x * maxUtilization) cannot
// overflow int64: the common case takes plain 64-bit arithmetic.
constexpr int64_t kSmall = int64_t{1} << 55;

int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  if (requested > capacity) return 0;
  // capacity - requested is then in [0, 2^56).
  if (capacity < kSmall && requested > -kSmall) return (capacity - requested) * kMaxNodeScore / capacity;
  return Div((static_cast<Int128>(capacity) - requested) * kMaxNodeScore, capacity);
}

int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  // "`requested` might be greater than `capacity` because pods with no
  // requests get minimum values."
  if (requested > capacity) requested = capacity;
  if (requested > -kSmall && requested < kSmall) return requested * kMaxNodeScore / capacity;
  return Div(static_cast<Int128>(requested) * kMaxNodeScore, capacity);
}

int64_t BrokenLinearFunction(const std::vector<FunctionShapePoint>& shape, int64_t p) {
  if (shape.empty()) return 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (p <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      // Reached only when p > shape[i-1].utilization, so the divisor is > 0.
      const Int128 num = static_cast<Int128>(shape[i].score - shape[i - 1].score) * (p - shape[i - 1].utilization);
      return ClampToInt64(shape[i - 1].score + num / (shape[i].utilization - shape[i - 1].utilization));
    }
  }
  return shape.back().score;
}

NodeResourcesFit::NodeResourcesFit(const NodeResourcesFitArgs& args)
    : ignored_resources_(args.ignored_resources),
      ignored_groups_(args.ignored_resource_groups),
      type_(args.type),
      resources_(args.resources) {
  for (const auto& spec : resources_) scalar_name_.push_back(IsScalarResourceName(spec.name));
  // requestedToCapacityRatioScorer: shape scores 0..MaxCustomPriorityScore are
  // scaled to 0..MaxNodeScore.
  shape_.reserve(args.shape.size());
  for (const auto& point : args.shape) {
    shape_.push_back({point.utilization, static_cast<int64_t>(point.score) * (kMaxNodeScore / kMaxCustomPriorityScore)});
  }
}

void NodeResourcesFit::Resolve(const PodInfo& pod, std::vector<ResolvedResource>& out) const {
  out.clear();
  for (size_t k = 0; k < resources_.size(); ++k) {
    const ResourceSpec& spec = resources_[k];
    out.push_back(ResolveResource(spec.name, scalar_name_[k], PodResourceRequest(pod, spec.name, /*use_requested=*/false),
                                  spec.weight));
  }
}

int64_t NodeResourcesFit::Score(const PodInfo& pod, const Node&, const NodeState& state) const {
  std::vector<ResolvedResource> rs;
  Resolve(pod, rs);
  return ScoreResolved(rs, state);
}

void NodeResourcesFit::ScoreNodes(const PodInfo& pod, const ClusterState& cluster,
                                  const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const {
  std::vector<ResolvedResource> rs;
  Resolve(pod, rs);
  constexpr size_t kAhead = 8;  // PrefetchAllocatableRequest
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (k + kAhead < nodes.size()) PrefetchAllocatableRequest(cluster.state(nodes[k + kAhead]));
    scores[k] = ScoreResolved(rs, cluster.state(nodes[k]));
  }
}

int64_t NodeResourcesFit::ScoreResolved(const std::vector<ResolvedResource>& rs, const NodeState& state) const {
  // Upstream returns an Error status when no resources are configured
  // ("resources not found"); the framework then fails the cycle. Here the
  // score is 0 (defaulting never leaves the list empty).
  Int128 node_score = 0;
  Int128 weight_sum = 0;
  for (const ResolvedResource& r : rs) {
    const AllocatableRequest ar = AllocatableRequestOf(r, state, false);
    // "Only fill the extended resource entry when it's non-zero."
    if (ar.allocatable == 0) continue;
    int64_t resource_score = 0;
    switch (type_) {
      case ScoringStrategyType::kLeastAllocated:
        resource_score = LeastRequestedScore(ar.requested, ar.allocatable);
        break;
      case ScoringStrategyType::kMostAllocated:
        resource_score = MostRequestedScore(ar.requested, ar.allocatable);
        break;
      case ScoringStrategyType::kRequestedToCapacityRatio: {
        const int64_t utilization =
            ar.requested > ar.allocatable ? kMaxUtilization
                                          : Div(static_cast<Int128>(ar.requested) * kMaxUtilization, ar.allocatable);
        resource_score = BrokenLinearFunction(shape_, utilization);
        // A resource scoring 0 adds neither score nor weight.
        if (resource_score <= 0) continue;
        break;
      }
    }
    node_score += static_cast<Int128>(resource_score) * r.weight;
    weight_sum += r.weight;
  }
  if (weight_sum == 0) return 0;
  // The default profile's two resources of weight 1: a shift, not a division.
  if (weight_sum == 2 && node_score >= INT64_MIN && node_score <= INT64_MAX &&
      type_ != ScoringStrategyType::kRequestedToCapacityRatio)
    return static_cast<int64_t>(node_score) / 2;
  if (type_ == ScoringStrategyType::kRequestedToCapacityRatio) {
    // int64(math.Round(float64(nodeScore) / float64(weightSum))): half away from zero.
    return static_cast<int64_t>(std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  }
  return Div(node_score, weight_sum);
}

}  // namespace gpusched

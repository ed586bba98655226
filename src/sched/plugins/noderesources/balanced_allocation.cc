// NodeResourcesBalancedAllocation: pkg/scheduler/framework/plugins/noderesources/
// balanced_allocation.go as of Kubernetes v1.35 (balancedResourceScorer with
// the standard deviation of the requested/allocatable fractions).
//
// Kubernetes v1.36 (PR #135573) changed the score to compare the balance with
// and without the pod (MaxNodeScore/2 + (MaxNodeScore/2 + withPod -
// withoutPod)/2); that formula is NOT implemented here: gpusched targets v1.35.
#include <algorithm>
#include <cmath>

#include "gpusched/sched/plugins/noderesources/balanced_allocation.h"

namespace gpusched {

NodeResourcesBalancedAllocation::NodeResourcesBalancedAllocation(const NodeResourcesBalancedAllocationArgs& args)
    : resources_(args.resources) {
  for (const auto& spec : resources_) scalar_name_.push_back(IsScalarResourceName(spec.name));
}

// resourceAllocationScorer.isBestEffortPod over the pod's requests for the
// configured resources (plain requests: useRequested = true).
bool NodeResourcesBalancedAllocation::IsBestEffort(const PodInfo& pod) const {
  for (const auto& spec : resources_) {
    if (PodResourceRequest(pod, spec.name, /*use_requested=*/true) != 0) return false;
  }
  return true;
}

bool NodeResourcesBalancedAllocation::PreScore(const PodInfo& pod, const ClusterState&) const {
  // "Skip BalancedAllocation scoring for best-effort pods to prevent a large
  // number of pods from being scheduled to the same node." (issue #129138)
  return !IsBestEffort(pod);
}

void NodeResourcesBalancedAllocation::Resolve(const PodInfo& pod, std::vector<ResolvedResource>& out) const {
  out.clear();
  for (size_t k = 0; k < resources_.size(); ++k) {
    const std::string& name = resources_[k].name;
    out.push_back(ResolveResource(name, scalar_name_[k], PodResourceRequest(pod, name, /*use_requested=*/true), 1));
  }
}

int64_t NodeResourcesBalancedAllocation::Score(const PodInfo& pod, const Node&, const NodeState& state) const {
  // Score without PreScore state returns 0 for a best-effort pod, as upstream does.
  if (IsBestEffort(pod)) return 0;
  std::vector<ResolvedResource> rs;
  Resolve(pod, rs);
  return ScoreResolved(rs, state);
}

void NodeResourcesBalancedAllocation::ScoreNodes(const PodInfo& pod, const ClusterState& cluster,
                                          const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const {
  if (IsBestEffort(pod)) {
    std::fill(scores.begin(), scores.end(), 0);
    return;
  }
  std::vector<ResolvedResource> rs;
  Resolve(pod, rs);
  constexpr size_t kAhead = 8;
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (k + kAhead < nodes.size()) PrefetchAllocatableRequest(cluster.state(nodes[k + kAhead]));
    scores[k] = ScoreResolved(rs, cluster.state(nodes[k]));
  }
}

int64_t NodeResourcesBalancedAllocation::ScoreResolved(const std::vector<ResolvedResource>& rs, const NodeState& state) {
  // The fractions of the resources the node advertises; on the stack for
  // the usual few resources.
  constexpr size_t kInline = 8;
  double inline_fractions[kInline];
  std::vector<double> heap;
  double* fractions = inline_fractions;
  if (rs.size() > kInline) {
    heap.resize(rs.size());
    fractions = heap.data();
  }
  size_t count = 0;
  double total_fraction = 0;
  for (const ResolvedResource& r : rs) {
    const AllocatableRequest ar = AllocatableRequestOf(r, state, true);
    if (ar.allocatable == 0) continue;
    double fraction = static_cast<double>(ar.requested) / static_cast<double>(ar.allocatable);
    if (fraction > 1) fraction = 1;
    total_fraction += fraction;
    fractions[count++] = fraction;
  }

  // "For most cases, resources are limited to cpu and memory, the std could be
  // simplified to std := (fraction1-fraction2)/2. len(fractions) > 2: calculate
  // std based on the well-known formula - root square of
  // Σ((fraction(i)-mean)^2)/len(fractions). Otherwise, set the std to zero."
  double std_dev = 0;
  if (count == 2) {
    std_dev = std::abs((fractions[0] - fractions[1]) / 2);
  } else if (count > 2) {
    const double mean = total_fraction / static_cast<double>(count);
    double sum = 0;
    for (size_t k = 0; k < count; ++k) sum = sum + (fractions[k] - mean) * (fractions[k] - mean);
    std_dev = std::sqrt(sum / static_cast<double>(count));
  }
  // int64((1 - std) * MaxNodeScore): truncation toward zero (87.5 -> 87).
  return static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace gpusched

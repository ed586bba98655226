// NodeResourcesBalancedAllocation: pkg/scheduler/framework/plugins/noderesources/
// balanced_allocation.go as of Kubernetes v1.35 (balancedResourceScorer with
// the standard deviation of the requested/allocatable fractions).
//
// Kubernetes v1.36 (PR #135573) changed the score to compare the balance with
// and without the pod (MaxNodeScore/2 + (MaxNodeScore/2 + withPod -
// withoutPod)/2); that formula is NOT implemented here: gpusched targets v1.35.
#include <cmath>

#include "gpusched/sched/score_plugins.h"

namespace gpusched {

BalancedAllocationScorer::BalancedAllocationScorer(const NodeResourcesBalancedAllocationArgs& args)
    : resources_(args.resources) {}

// resourceAllocationScorer.isBestEffortPod over the pod's requests for the
// configured resources (plain requests: useRequested = true).
bool BalancedAllocationScorer::IsBestEffort(const PodInfo& pod) const {
  for (const auto& spec : resources_) {
    if (PodResourceRequest(pod, spec.name, /*use_requested=*/true) != 0) return false;
  }
  return true;
}

bool BalancedAllocationScorer::PreScore(const PodInfo& pod) const {
  // "Skip BalancedAllocation scoring for best-effort pods to prevent a large
  // number of pods from being scheduled to the same node." (issue #129138)
  return !IsBestEffort(pod);
}

int64_t BalancedAllocationScorer::Score(const PodInfo& pod, const Node&, const NodeState& state) const {
  // Score without PreScore state returns 0 for a best-effort pod, as upstream does.
  if (IsBestEffort(pod)) return 0;
  std::vector<double> fractions;
  fractions.reserve(resources_.size());
  double total_fraction = 0;
  for (const auto& spec : resources_) {
    const int64_t pod_request = PodResourceRequest(pod, spec.name, /*use_requested=*/true);
    const AllocatableRequest ar = CalculateResourceAllocatableRequest(state, spec.name, pod_request, true);
    if (ar.allocatable == 0) continue;
    double fraction = static_cast<double>(ar.requested) / static_cast<double>(ar.allocatable);
    if (fraction > 1) fraction = 1;
    total_fraction += fraction;
    fractions.push_back(fraction);
  }

  // "For most cases, resources are limited to cpu and memory, the std could be
  // simplified to std := (fraction1-fraction2)/2. len(fractions) > 2: calculate
  // std based on the well-known formula - root square of
  // Σ((fraction(i)-mean)^2)/len(fractions). Otherwise, set the std to zero."
  double std_dev = 0;
  if (fractions.size() == 2) {
    std_dev = std::abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.size() > 2) {
    const double mean = total_fraction / static_cast<double>(fractions.size());
    double sum = 0;
    for (double f : fractions) sum = sum + (f - mean) * (f - mean);
    std_dev = std::sqrt(sum / static_cast<double>(fractions.size()));
  }
  // int64((1 - std) * MaxNodeScore): truncation toward zero (87.5 -> 87).
  return static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

}  // namespace gpusched

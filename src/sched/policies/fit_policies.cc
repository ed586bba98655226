// first-fit, best-fit and worst-fit: gpusched's simple node-choice policies.
#include <iterator>
#include <limits>
#include <string>

#include "gpusched/sched/policies/policy.h"

namespace gpusched {
namespace {

int64_t FreeAfter(const NodeState& s, const PodInfo& pod, std::string_view resource) {
  return SatSub(SatSub(s.allocatable.Get(resource), s.requested.Get(resource)), pod.requests.Get(resource));
}

// Picks the node minimizing (free GPUs after, free cpu after), or maximizing
// it when `most` is set; the first in scan order wins ties.
size_t Extreme(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, bool most,
               PodExplain* explain, const char* what) {
  size_t best = feasible.front();
  auto key = [&](size_t i) {
    const NodeState& s = cluster.state(i);
    return std::pair<int64_t, int64_t>(FreeAfter(s, pod, kResourceGPU), FreeAfter(s, pod, kResourceCPU));
  };
  for (size_t i : feasible) {
    auto k = key(i), b = key(best);
    if (most ? k > b : k < b) best = i;
  }
  if (explain) {
    auto [g, c] = key(best);
    explain->why = std::string(what) + ": leaves " + std::to_string(g) + " GPUs and " + FormatAmount(kResourceCPU, c) +
                   " cpu free (first in node order on ties)";
  }
  return best;
}

}  // namespace

size_t FirstFitPolicy::Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng&,
                              PodExplain* explain) const {
  if (explain) explain->why = "first-fit: the first node in input order that fits";
  return feasible.front();
}

size_t FreeOrderFitPolicy::Select(const PodInfo& pod, const ClusterState& cluster,
                                  const std::vector<size_t>& feasible, Rng&, PodExplain* explain) const {
  return Extreme(pod, cluster, feasible, most_, explain, most_ ? "worst-fit" : "best-fit");
}

}  // namespace gpusched

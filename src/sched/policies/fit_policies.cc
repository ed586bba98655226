// first-fit, best-fit and worst-fit: gpusched's simple node-choice policies.
#include <algorithm>
#include <iterator>
#include <limits>
#include <string>

#include "gpusched/sched/index/free_order_index.h"
#include "gpusched/sched/policies/policy.h"

namespace gpusched {
namespace {

// Extreme's key of a node: (free GPUs after, free cpu after), each
// allocatable − requested − the pod's request, saturating. It reads the
// node's GPU totals from the fields ClusterState keeps beside `allocatable`
// and `requested` (NodeState::gpu_allocatable, gpu_requested), not by name:
// a policy that sorts thousands of nodes would spend its time on the search.
class ExtremeKey {
 public:
  explicit ExtremeKey(const PodInfo& pod)
      : gpu_(pod.requests.Get(kResourceGPU)), cpu_(pod.requests.Get(kResourceCPU)) {}
  std::pair<int64_t, int64_t> operator()(const NodeState& s) const {
    return {SatSub(SatSub(s.GpuAllocatable(), s.GpuRequested()), gpu_),
            SatSub(SatSub(s.allocatable.milli_cpu, s.requested.milli_cpu), cpu_)};
  }

 private:
  int64_t gpu_, cpu_;
};

// Extreme's picks in turn: Extreme keeps the first of equal keys in scan
// order, so its successive picks are the candidates sorted by key (reversed
// when `most`), then by position; each key is computed once.
void ExtremeInTurn(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& candidates,
                   size_t count, bool most, std::vector<size_t>& picks) {
  picks.clear();
  struct Entry {
    std::pair<int64_t, int64_t> key;
    size_t pos;
  };
  std::vector<Entry> e(candidates.size());
  const ExtremeKey key(pod);
  for (size_t k = 0; k < candidates.size(); ++k) e[k] = {key(cluster.state(candidates[k])), k};
  auto before = [most](const Entry& a, const Entry& b) {
    if (a.key != b.key) return most ? a.key > b.key : a.key < b.key;
    return a.pos < b.pos;
  };
  const size_t n = std::min(count, e.size());
  std::partial_sort(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(n), e.end(), before);
  for (size_t k = 0; k < n; ++k) picks.push_back(candidates[e[k].pos]);
}

// Picks the node minimizing (free GPUs after, free cpu after), or maximizing
// it when `most` is set; the first in scan order wins ties.
size_t Extreme(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, bool most,
               PodExplain* explain, const char* what) {
  const ExtremeKey extreme_key(pod);
  auto key = [&](size_t i) { return extreme_key(cluster.state(i)); };
  size_t best = feasible.front();
  std::pair<int64_t, int64_t> b = key(best);
  for (size_t i : feasible) {
    const auto k = key(i);
    if (most ? k > b : k < b) best = i, b = k;
  }
  if (explain) {
    auto [g, c] = key(best);
    explain->why = std::string(what) + ": leaves " + std::to_string(g) + " GPUs and " + FormatAmount(kResourceCPU, c) +
                   " cpu free (first in node order on ties)";
  }
  return best;
}

}  // namespace

std::vector<int32_t> Policy::SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node, Rng&,
                                        PolicyState&) const {
  return cluster.DefaultGpuChoice(node, pod.gpu);
}

std::optional<size_t> Policy::SelectIndexed(const PodInfo&, const ClusterState&, const std::function<bool(size_t)>&,
                                            Rng&, PolicyState&) const {
  return std::nullopt;
}

void Policy::SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                          size_t count, Rng& rng, PolicyState& state, std::vector<size_t>& picks) const {
  SelectInTurnPlain(pod, cluster, std::move(candidates), count, rng, state, picks);
}

void Policy::SelectInTurnPlain(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                               size_t count, Rng& rng, PolicyState& state, std::vector<size_t>& picks) const {
  picks.clear();
  while (picks.size() < count && !candidates.empty()) {
    const size_t pick =
        candidates.size() == 1 ? candidates.front() : Select(pod, cluster, candidates, rng, state, nullptr);
    picks.push_back(pick);
    candidates.erase(std::find(candidates.begin(), candidates.end(), pick));
  }
}

void FirstFitPolicy::SelectInTurn(const PodInfo&, const ClusterState&, std::vector<size_t> candidates, size_t count,
                                  Rng&, PolicyState&, std::vector<size_t>& picks) const {
  candidates.resize(std::min(count, candidates.size()));
  picks = std::move(candidates);
}

void FreeOrderFitPolicy::SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                                      size_t count, Rng&, PolicyState&, std::vector<size_t>& picks) const {
  ExtremeInTurn(pod, cluster, candidates, count, most_, picks);
}

size_t FirstFitPolicy::Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng&,
                              PolicyState&, PodExplain* explain) const {
  if (explain) explain->why = "first-fit: the first node in input order that fits";
  return feasible.front();
}

size_t FreeOrderFitPolicy::Select(const PodInfo& pod, const ClusterState& cluster,
                                  const std::vector<size_t>& feasible, Rng&, PolicyState&, PodExplain* explain) const {
  return Extreme(pod, cluster, feasible, most_, explain, most_ ? "worst-fit" : "best-fit");
}

namespace {

// A run's FreeOrderIndex, in the policy's order.
struct FreeOrderState : PolicyState {
  explicit FreeOrderState(bool most) : index(most) {}
  FreeOrderIndex index;
};

}  // namespace

std::unique_ptr<PolicyState> FreeOrderFitPolicy::NewState() const { return std::make_unique<FreeOrderState>(most_); }

std::optional<size_t> FreeOrderFitPolicy::SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                                        const std::function<bool(size_t)>& fits, Rng&,
                                                        PolicyState& state) const {
  return StateAs<FreeOrderState>(state).index.Find(cluster, NodeFitIndex::NeedOf(pod, true), fits);
}

}  // namespace gpusched

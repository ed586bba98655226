// Policy: how the scheduler picks one node among those that pass the filters,
// and how many feasible nodes it looks for before picking. Policies are
// registered by name in sched/policies/policy_registry.h and selected with --policy:
// gpusched's simple ones here, the FGD paper's in paper_policies.h, and
// kube-default (any --config profile), a ScoringPolicy running
// kube-scheduler's score plugins.
#ifndef GPUSCHED_SCHED_POLICIES_POLICY_H_
#define GPUSCHED_SCHED_POLICIES_POLICY_H_

#include <cassert>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/index/node_index.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/util/random.h"

namespace gpusched {

// What one run of a policy keeps between its decisions: the indexes and
// caches that speed it up, the tie-break order it draws once, scratch
// buffers. Made by Policy::NewState and owned by whoever runs the decisions
// (a Scheduler, for as long as it lives; the extender's decisions), which
// hands it to every call; the Policy itself stays an immutable description.
// A state follows one ClusterState at a time (its serial: another cluster
// makes it start over).
class PolicyState {
 public:
  virtual ~PolicyState() = default;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view Name() const = 0;
  // The state a run of this policy keeps; its calls take it back. The
  // default keeps nothing.
  virtual std::unique_ptr<PolicyState> NewState() const { return std::make_unique<PolicyState>(); }

  // What it decides. How many feasible nodes the filter scan looks for
  // before it stops (kube-scheduler's numFeasibleNodesToFind); 1 for first-fit.
  virtual int64_t NumFeasibleNodesToFind(int64_t num_nodes) const { return num_nodes; }
  // True when each scan starts where the previous one stopped
  // (kube-scheduler's nextStartNodeIndex); false starts at node 0 every time.
  virtual bool RotatesStartIndex() const { return false; }
  // Picks one of `feasible` (node indices, non-empty, in scan order). When
  // `explain` is set, records the scores and the reason for the choice.
  virtual size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                        Rng& rng, PolicyState& state, PodExplain* explain) const = 0;
  // Picks the GPU devices on the chosen node (the Reserve step). The default
  // is ClusterState::DefaultGpuChoice: whole devices lowest index first, a
  // share on the fullest device that still fits.
  virtual std::vector<int32_t> SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node, Rng& rng,
                                          PolicyState& state) const;
  // Select's picks in turn, into `picks`: the pick over `candidates` (in
  // scan order), then over the candidates left without it, and so on,
  // `count` picks at most; a lone candidate left is picked without asking
  // Select (as Commit takes a lone feasible node). `gpusched serve` ranks a
  // policy without scores by it. The default (SelectInTurnPlain) asks Select
  // each time; a policy whose Select is a fixed order of preference sorts
  // once instead, with the same answer (tests/sched/policies/fit_policies_test.cc).
  virtual void SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                            size_t count, Rng& rng, PolicyState& state, std::vector<size_t>& picks) const;
  void SelectInTurnPlain(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                         size_t count, Rng& rng, PolicyState& state, std::vector<size_t>& picks) const;
  // True when Select records no scores (PodExplain) and SelectInTurn's
  // first pick is Select's: a caller may then ask SelectInTurn alone.
  virtual bool RanksInOnePass() const { return false; }

  // How it may go faster, declared: with HasOwnIndex the scheduler asks
  // SelectIndexed (framework/policy_index_search.h) instead of collecting
  // every feasible node for Select. SelectIndexed must return exactly what
  // Select would over the full feasible set (drawing from `rng` exactly as
  // Select and the scheduler's Commit would), or nullopt when no node fits;
  // `fits(i)` runs the filter chain on node i. It may assume NodeResourcesFit
  // checks nvidia.com/gpu and GpuShare devices, so a node short of the pod's
  // NodeFitIndex::NeedOf(pod, true) fails and is settled without `fits`; it
  // must ask `fits` only of present nodes whose free amounts as of this call
  // meet that need.
  virtual bool HasOwnIndex() const { return false; }
  // Plugin::SetUseIndex for the policy's score plugins.
  virtual void SetUseIndex(bool on) const { (void)on; }
  virtual std::optional<size_t> SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                              const std::function<bool(size_t)>& fits, Rng& rng,
                                              PolicyState& state) const;
};

// `state` as the type of state its policy's NewState makes.
template <class State>
State& StateAs(PolicyState& state) {
  assert(dynamic_cast<State*>(&state) != nullptr);
  return static_cast<State&>(state);
}
template <class State>
const State& StateAs(const PolicyState& state) {
  assert(dynamic_cast<const State*>(&state) != nullptr);
  return static_cast<const State&>(state);
}

// first-fit, the seed's policy: the first node in input order that fits.
class FirstFitPolicy : public Policy {
 public:
  std::string_view Name() const override { return "first-fit"; }
  int64_t NumFeasibleNodesToFind(int64_t) const override { return 1; }
  size_t Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng&, PolicyState&,
                PodExplain* explain) const override;
  void SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates, size_t count,
                    Rng& rng, PolicyState& state, std::vector<size_t>& picks) const override;
  bool RanksInOnePass() const override { return true; }
};

// best-fit and worst-fit: the feasible node that leaves the fewest (best) or
// the most (worst, "spread") GPUs free, then the least (most) cpu free; ties
// go to the first in node order. Best-fit packs GPU jobs tightly. Both walk
// a FreeOrderIndex in that order for SelectIndexed: the first feasible node
// there is Select's choice.
class FreeOrderFitPolicy : public Policy {
 public:
  std::string_view Name() const override { return most_ ? "worst-fit" : "best-fit"; }
  // A run keeps the FreeOrderIndex.
  std::unique_ptr<PolicyState> NewState() const override;
  size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, Rng&,
                PolicyState&, PodExplain* explain) const override;
  bool HasOwnIndex() const override { return true; }
  std::optional<size_t> SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                      const std::function<bool(size_t)>& fits, Rng&,
                                      PolicyState& state) const override;
  void SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates, size_t count,
                    Rng& rng, PolicyState& state, std::vector<size_t>& picks) const override;
  bool RanksInOnePass() const override { return true; }

 protected:
  explicit FreeOrderFitPolicy(bool most) : most_(most) {}

 private:
  bool most_;
};

class BestFitPolicy : public FreeOrderFitPolicy {
 public:
  BestFitPolicy() : FreeOrderFitPolicy(/*most=*/false) {}
};

class WorstFitPolicy : public FreeOrderFitPolicy {
 public:
  WorstFitPolicy() : FreeOrderFitPolicy(/*most=*/true) {}
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POLICIES_POLICY_H_

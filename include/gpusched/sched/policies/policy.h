// Policy: how the scheduler picks one node among those that pass the filters,
// and how many feasible nodes it looks for before picking. Policies are
// registered by name in sched/policy_registry.h and selected with --policy:
// gpusched's simple ones here, the FGD paper's in paper_policies.h, and
// kube-default (any --config profile), a ScoringPolicy running
// kube-scheduler's score plugins.
#ifndef GPUSCHED_SCHED_POLICIES_POLICY_H_
#define GPUSCHED_SCHED_POLICIES_POLICY_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/index/free_order_index.h"
#include "gpusched/sched/index/node_index.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/util/random.h"

namespace gpusched {

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view Name() const = 0;
  // How many feasible nodes the filter scan looks for before it stops
  // (kube-scheduler's numFeasibleNodesToFind); 1 for first-fit.
  virtual int64_t NumFeasibleNodesToFind(int64_t num_nodes) const { return num_nodes; }
  // True when each scan starts where the previous one stopped
  // (kube-scheduler's nextStartNodeIndex); false starts at node 0 every time.
  virtual bool RotatesStartIndex() const { return false; }
  // Picks one of `feasible` (node indices, non-empty, in scan order). When
  // `explain` is set, records the scores and the reason for the choice.
  virtual size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                        Rng& rng, PodExplain* explain) const = 0;
  // Picks the GPU devices on the chosen node (the Reserve step). The default
  // is ClusterState::DefaultGpuChoice: whole devices lowest index first, a
  // share on the fullest device that still fits.
  virtual std::vector<int32_t> SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node,
                                          Rng& rng) const {
    (void)rng;
    return cluster.DefaultGpuChoice(node, pod.gpu);
  }

  // Speed, not decisions: a policy that keeps an index of its own declares
  // it here, and the scheduler then asks SelectIndexed instead of
  // collecting every feasible node for Select. A property of the policy,
  // the same on every call.
  virtual bool HasOwnIndex() const { return false; }
  // Only when HasOwnIndex(): the choice Select would make over the full
  // feasible set, found from the policy's index: `fits(i)` runs the filter
  // chain on node i. It must return exactly what Select would (drawing from
  // `rng` exactly as Select and the scheduler's Commit would), or nullopt
  // when no node fits (the scheduler then rescans plainly for the FitError).
  // Precondition: the filter chain has NodeResourcesFit checking
  // nvidia.com/gpu and GpuShare, so a node that falls short of the pod's
  // NodeFitIndex::NeedOf(pod, true) fails it and is settled without `fits`.
  // Postcondition the scheduler relies on: `fits` is asked only of present
  // nodes whose free amounts as of this call meet that need (on a plain node
  // that settles NodeResourcesFit and GpuShare, and `fits` skips them).
  virtual std::optional<size_t> SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                              const std::function<bool(size_t)>& fits, Rng& rng) const {
    (void)pod, (void)cluster, (void)fits, (void)rng;
    return std::nullopt;
  }
  // Select's picks in turn, into `picks`: the pick over `candidates` (in
  // scan order), then the pick over the candidates left without it, and so
  // on, `count` picks at most; a lone candidate left is picked without
  // asking Select (as Commit takes a lone feasible node). `gpusched serve`
  // ranks a policy without scores by it. The default asks Select each time,
  // drawing from `rng` as Select does; a policy whose Select is a fixed order
  // of preference (first-fit, best-fit, worst-fit) sorts once instead, with
  // the same answer (tests/sched/fit_policies_test.cc checks both).
  virtual void SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                            size_t count, Rng& rng, std::vector<size_t>& picks) const;
  // True when Select records no scores (PodExplain) and SelectInTurn's
  // first pick is Select's: a caller may then ask SelectInTurn alone.
  virtual bool RanksInOnePass() const { return false; }
  // The default SelectInTurn (the reference the overrides are tested against).
  void SelectInTurnPlain(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates,
                         size_t count, Rng& rng, std::vector<size_t>& picks) const;
};

// first-fit, the seed's policy: the first node in input order that fits.
class FirstFitPolicy : public Policy {
 public:
  std::string_view Name() const override { return "first-fit"; }
  int64_t NumFeasibleNodesToFind(int64_t) const override { return 1; }
  size_t Select(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible, Rng&,
                PodExplain* explain) const override;
  void SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates, size_t count,
                    Rng& rng, std::vector<size_t>& picks) const override;
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
  size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, Rng&,
                PodExplain* explain) const override;
  bool HasOwnIndex() const override { return true; }
  std::optional<size_t> SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                      const std::function<bool(size_t)>& fits, Rng&) const override {
    return index_.Find(cluster, NodeFitIndex::NeedOf(pod, true), fits);
  }
  void SelectInTurn(const PodInfo& pod, const ClusterState& cluster, std::vector<size_t> candidates, size_t count,
                    Rng& rng, std::vector<size_t>& picks) const override;
  bool RanksInOnePass() const override { return true; }

 protected:
  explicit FreeOrderFitPolicy(bool most) : most_(most), index_(most) {}

 private:
  bool most_;
  mutable FreeOrderIndex index_;
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

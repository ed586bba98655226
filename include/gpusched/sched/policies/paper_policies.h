// The six policies of the FGD paper's evaluation (Weng et al., "Beware of
// Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
// Gradient Descent", USENIX ATC 2023, §6), as its simulator runs them
// (hkust-adsl/kubernetes-scheduler-simulator, pkg/simulator/plugin/
// *_score.go and pkg/utils/frag.go): exactly one score plugin (weight
// 1000), every node scored (percentageOfNodesToScore 100, no rotation), the
// highest score wins and ties go to the node with the smallest rank in a
// seeded random node order (NodeRank). Whole GPUs are always the
// lowest-index fully free devices; a GPU share goes where the policy's
// gpusel puts it ("best" = ClusterState::DefaultGpuChoice unless noted).
//
// A run's PolicyState keeps the tie-break ranks, a ShapeNodeCache
// (shape_node_cache.h) through which SelectIndexed finds each choice
// without running the filters on every node, and per-node caches keyed by
// NodeState::version for the ClusterState it last saw (by
// ClusterState::serial; another cluster drops them).
#ifndef GPUSCHED_SCHED_POLICIES_PAPER_POLICIES_H_
#define GPUSCHED_SCHED_POLICIES_PAPER_POLICIES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/index/node_rank.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/index/shape_node_cache.h"

namespace gpusched {

// The weight of the one score plugin in the paper's scheduler config
// (scripts/generate_config_and_run.py, `-FGD 1000` etc.); shown by explain.
inline constexpr int64_t kPaperScoreWeight = 1000;
// MaxSpec constants (pkg/type/open-gpu-share/utils/const.go).
inline constexpr int64_t kMaxSpecCpu = 128000;
inline constexpr int64_t kMaxSpecGpu = 8000;

// Score every feasible node, normalise (if the plugin does), pick the
// highest; ties by NodeRank, drawn from the Rng on the first Select.
class PaperScorePolicy : public Policy {
 public:
  // What a subclass is called: the policy ("fgd"), the upstream score
  // plugin ("FGDScore", shown by explain) and what a score means, for
  // explain's `why` ("100·sigmoid(...)").
  struct Names {
    std::string_view policy;
    std::string_view plugin;
    std::string_view meaning;
  };
  explicit PaperScorePolicy(Names names) : names_(names) {}

  // A run's ranks, ShapeNodeCache and scratch; a subclass with caches of
  // its own derives its state from this one.
  struct State : PolicyState {
    NodeRank rank;
    ShapeNodeCache shape_cache{/*exact=*/false};
    std::vector<int64_t> scores, raw;  // Select's
    std::vector<size_t> feasible;      // SelectIndexed's
  };

  std::string_view Name() const final { return names_.policy; }
  std::string_view PluginName() const { return names_.plugin; }
  std::unique_ptr<PolicyState> NewState() const override { return std::make_unique<State>(); }
  int64_t NumFeasibleNodesToFind(int64_t num_nodes) const override { return num_nodes; }
  size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, Rng& rng,
                PolicyState& state, PodExplain* explain) const override;
  // Select's choice from the ShapeNodeCache (the highest raw score, then
  // NodeRank) for a cacheable pod once the ranks are drawn; otherwise (and
  // for the first choice among several nodes, which draws them) Select over
  // every node that `fits`.
  bool HasOwnIndex() const override { return true; }
  std::optional<size_t> SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                      const std::function<bool(size_t)>& fits, Rng& rng,
                                      PolicyState& state) const override;

  // The plugin's raw score of each `feasible` node into `scores` (same size).
  // A node's score may depend only on the node, its state and the pod's
  // shape (the ShapeNodeCache key). `state` is NewState's.
  virtual void Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                     std::vector<int64_t>& scores, PolicyState& state) const = 0;
  // An upper bound of Score for each of `nodes`, much cheaper than Score, so
  // that SelectIndexed scores only the nodes that could still win; false
  // (the default) when the policy has none.
  virtual bool ScoreBound(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                          std::vector<int64_t>& bounds, PolicyState& state) const {
    (void)pod, (void)cluster, (void)nodes, (void)bounds, (void)state;
    return false;
  }
  // ScoreExtensions.NormalizeScore over the feasible nodes; none by default.
  // It must leave on top exactly the nodes with the highest raw score (as
  // min-max does), since SelectIndexed picks by raw score.
  virtual void Normalize(std::vector<int64_t>& scores) const { (void)scores; }
  // Raw score of one node (tests, diagnostics).
  int64_t ScoreNode(const PodInfo& pod, const ClusterState& cluster, size_t node, PolicyState& state) const;
  // The tie-break ranks a run drew so far (empty before its first Select).
  static const std::vector<uint32_t>& Ranks(const PolicyState& state) { return StateAs<State>(state).rank.ranks(); }

 private:
  // Select over `feasible` as the scheduler's Commit would call it: none
  // fits → nullopt, one → it without Select.
  std::optional<size_t> Choose(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                               Rng& rng, State& state) const;

  Names names_;
};

// FGD (fgd_score.go): score = int(100·sigmoid((F_n − F_n')/1000)), where F_n
// is the node's fragmentation (frag.h) and n' the node after placing the
// pod; a share is tried on every device that fits and goes to the argmax
// (first index on ties), which is also its device choice (gpusel FGD). A pod
// without any requests scores 100 everywhere.
class FgdPolicy : public PaperScorePolicy {
 public:
  explicit FgdPolicy(TypicalPods typical);
  // A run also keeps the fragmentation table and per-node profiles.
  std::unique_ptr<PolicyState> NewState() const override;
  void Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores, PolicyState& state) const override;
  // Placing g milli lowers F_n by at most g times the frequency of the
  // typical pods the node does not satisfy now (plus, for a share, those it
  // does whose milli is above the device's free milli): the others keep
  // their fragment or gain some. Exact scores need O(#typical) per device.
  bool ScoreBound(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& bounds, PolicyState& state) const override;
  std::vector<int32_t> SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node, Rng& rng,
                                  PolicyState& state) const override;
  const TypicalPods& typical() const { return typical_; }

 private:
  struct State;  // fgd_policy.cc
  TypicalPods typical_;
};

// Random (random_score.go, gpusel random): one feasible node drawn uniformly
// (it scores 100, the rest 0); a share goes to a uniformly drawn device that
// fits (reservoir sampling, one draw per fitting device, as upstream).
class RandomPolicy : public Policy {
 public:
  std::string_view Name() const override { return "random"; }
  int64_t NumFeasibleNodesToFind(int64_t num_nodes) const override { return num_nodes; }
  size_t Select(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible, Rng& rng,
                PolicyState& state, PodExplain* explain) const override;
  // The same draw over every node that fits, kept in a run's exact
  // ShapeNodeCache for cacheable pods.
  std::unique_ptr<PolicyState> NewState() const override;
  bool HasOwnIndex() const override { return true; }
  std::optional<size_t> SelectIndexed(const PodInfo& pod, const ClusterState& cluster,
                                      const std::function<bool(size_t)>& fits, Rng& rng,
                                      PolicyState& state) const override;
  std::vector<int32_t> SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node, Rng& rng,
                                  PolicyState& state) const override;
};

// DotProd (dot_product_score.go, "Tetris", dimext merge, norm max):
// int(100·(1 − (cpuLeft/128000·cpu/128000 + gpuLeft/8000·gpu/8000)/2)),
// with gpuLeft the node's free milli and gpu = count·milli; 0 when the CPU
// left is below the pod's.
class DotProductPolicy : public PaperScorePolicy {
 public:
  DotProductPolicy();
  void Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores, PolicyState& state) const override;
};

// GpuClustering (gpu_clustering_score.go): pods are tagged share-gpu,
// <k>-gpu or no-gpu; base = 25·(8000 − gpuLeft)/8000 (integers), plus 75
// when the node holds only pods of the pod's tag, 50 when it holds that tag
// among others, 25 when it holds no GPU pods, 0 when only other tags.
// CPU-only pods score 0. A node's tags are cached per NodeState::version.
class GpuClusteringPolicy : public PaperScorePolicy {
 public:
  GpuClusteringPolicy();
  // A run also keeps each node's pod tags.
  std::unique_ptr<PolicyState> NewState() const override;
  void Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores, PolicyState& state) const override;

 private:
  struct State;  // gpu_clustering_policy.cc
};

// GpuPacking (gpu_packing_score.go), CPU ignored, CPU-only pods 0:
// all devices fully free → max(33 − n, n); else the pod's devices (scanned
// least free first) include fully free ones → max(50 − #fully free used,
// 33); else max(100 − Σ(free_i·100/1000)/10, 50) over the devices used.
class GpuPackingPolicy : public PaperScorePolicy {
 public:
  GpuPackingPolicy();
  void Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores, PolicyState& state) const override;
};

// BestFit (best_fit_score.go): int(100·(1 − [0.5·(cpuLeft − cpu)/128000 +
// 0.5·(gpuLeft − count·milli)/8000])), then min-max normalised to 0..100
// over the feasible nodes with integer division (all 0 when equal), which can
// merge close scores into ties.
class PaperBestFitPolicy : public PaperScorePolicy {
 public:
  PaperBestFitPolicy();
  void Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores, PolicyState& state) const override;
  void Normalize(std::vector<int64_t>& scores) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_POLICIES_PAPER_POLICIES_H_

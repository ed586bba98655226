#include "gpusched/sched/index/shape_node_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "../paper_place_util.h"
#include "../paper_test_util.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::Place;
using testing::TraceNode;
using testing::TracePod;

// Scores node i by table[i] and counts the nodes it was asked about.
class TableScorer : public NodeScorer {
 public:
  explicit TableScorer(std::vector<int64_t> table) : table_(std::move(table)) {}
  void ScoreNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const override {
    for (size_t k = 0; k < nodes.size(); ++k) scores[k] = table_[nodes[k]];
    scored_ += static_cast<int64_t>(nodes.size());
  }
  std::vector<int64_t> table_;
  mutable int64_t scored_ = 0;
};

// A TableScorer that also bounds node i by bounds[i] and counts those.
class BoundedScorer : public TableScorer {
 public:
  BoundedScorer(std::vector<int64_t> table, std::vector<int64_t> bounds)
      : TableScorer(std::move(table)), bounds_(std::move(bounds)) {}
  bool BoundNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& bounds) const override {
    for (size_t k = 0; k < nodes.size(); ++k) bounds[k] = bounds_[nodes[k]];
    bounded_ += static_cast<int64_t>(nodes.size());
    return true;
  }
  std::vector<int64_t> bounds_;
  mutable int64_t bounded_ = 0;
};

// `fits` that refuses the nodes in `refused` and counts its calls.
struct CountingFits {
  std::vector<size_t> refused;
  int64_t calls = 0;
  ShapeNodeCache::Fits Fn() {
    return [this](size_t i) {
      ++calls;
      return std::find(refused.begin(), refused.end(), i) == refused.end();
    };
  }
};

std::vector<Node> FourNodes() {
  return {TraceNode("a", 8000, 2, "T4"), TraceNode("b", 8000, 2, "T4"), TraceNode("c", 8000, 2, "T4"),
          TraceNode("d", 2000, 2, "T4")};
}

TEST(ShapeNodeCacheTest, Cacheable) {
  struct Case {
    const char* name;
    void (*edit)(Pod&);
    bool want;
  };
  const Case cases[] = {
      {"plain", [](Pod&) {}, true},
      {"nodeSelector", [](Pod& p) { p.node_selector["zone"] = "a"; }, false},
      {"node affinity", [](Pod& p) { p.node_affinity = NodeAffinity{}; }, false},
      {"toleration", [](Pod& p) { p.tolerations.push_back(Toleration{"k", "Exists", "", ""}); }, false},
      {"nodeName", [](Pod& p) { p.node_name = "a"; }, false},
  };
  for (const Case& c : cases) {
    Pod p = TracePod("p", 1000);
    c.edit(p);
    EXPECT_EQ(ShapeNodeCache::Cacheable(PodInfo::Make(p, 0)), c.want) << c.name;
  }
  EXPECT_TRUE(ShapeNodeCache::Cacheable(PodInfo{}));  // no Pod: nothing but requests
}

TEST(ShapeNodeCacheTest, BestIsHighestScoreThenRankAndRunsFiltersLazily) {
  ClusterState cl(FourNodes());
  const std::vector<uint32_t> rank = {3, 1, 0, 2};
  // d (2 cpus) is short of the pod's 4 cpus: settled without fits or score.
  const Pod pod = TracePod("p", 4000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  struct Step {
    const char* what;
    std::vector<int64_t> scores;  // the table from this step on
    std::vector<size_t> refused;
    size_t bind_on;               // a pod lands here before the step (4: none)
    std::optional<size_t> want;
    int64_t want_fits_calls, want_scored;
  };
  const Step steps[] = {
      // b and c tie at 7: c has the smaller rank. Only c runs the filters.
      {"first", {5, 7, 7, 9}, {}, 4, 2, 1, 3},
      // Unchanged cluster: nothing re-scored, c is known to fit.
      {"again", {5, 7, 7, 9}, {}, 4, 2, 0, 0},
      // c changed and now scores 1: only c is re-scored; b is next and
      // runs the filters.
      {"c changed", {5, 7, 1, 9}, {}, 2, 1, 1, 1},
      // b changed and now fails the filters: a is next.
      {"b refused", {5, 7, 1, 9}, {1}, 1, 0, 2, 1},
  };
  ShapeNodeCache cache(/*exact=*/false);
  TableScorer scorer({});
  CountingFits fits;
  for (const Step& s : steps) {
    scorer.table_ = s.scores;
    scorer.scored_ = 0;
    fits.refused = s.refused;
    fits.calls = 0;
    if (s.bind_on < 4) Place(cl, s.bind_on, TracePod("x", 100), {});
    bool packed = false;
    EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), s.want) << s.what;
    EXPECT_TRUE(packed) << s.what;
    EXPECT_EQ(fits.calls, s.want_fits_calls) << s.what;
    EXPECT_EQ(scorer.scored_, s.want_scored) << s.what;
  }
  EXPECT_EQ(cache.num_shapes(), 1u);
}

TEST(ShapeNodeCacheTest, BoundedScoresAreComputedAtTheHeadOnly) {
  ClusterState cl(FourNodes());
  const std::vector<uint32_t> rank = {3, 1, 0, 2};
  const Pod pod = TracePod("p", 4000);  // d (2 cpus) is short: neither bounded nor scored
  const PodInfo pi = PodInfo::Make(pod, 0);
  struct Step {
    const char* what;
    std::vector<int64_t> scores, bounds;
    size_t bind_on;  // a pod lands here before the step (4: none)
    size_t want;
    int64_t want_bounded, want_scored;
  };
  const Step steps[] = {
      // Bounds a 6, b 9, c 8: b heads and scores 7, then c heads and scores
      // 7 too, with the smaller rank; a (6) is never scored.
      {"first", {5, 7, 7, 9}, {6, 9, 8, 9}, 4, 2, 3, 2},
      {"again", {5, 7, 7, 9}, {6, 9, 8, 9}, 4, 2, 0, 0},
      // a changes: bound 20, score 1: scored at the head, falls behind c.
      {"a changed", {1, 7, 7, 9}, {20, 9, 8, 9}, 0, 2, 1, 1},
      // c changes: bound 7 ties b's exact 7 and c's rank is smaller, so c
      // heads on its bound, scores 3, and b wins.
      {"c changed", {1, 7, 3, 9}, {20, 9, 7, 9}, 2, 1, 1, 1},
  };
  ShapeNodeCache cache(/*exact=*/false);
  BoundedScorer scorer({}, {});
  CountingFits fits;
  for (const Step& s : steps) {
    scorer.table_ = s.scores;
    scorer.bounds_ = s.bounds;
    scorer.scored_ = scorer.bounded_ = 0;
    if (s.bind_on < 4) Place(cl, s.bind_on, TracePod("x", 100), {});
    bool packed = false;
    EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), s.want) << s.what;
    EXPECT_EQ(scorer.bounded_, s.want_bounded) << s.what;
    EXPECT_EQ(scorer.scored_, s.want_scored) << s.what;
  }
}

TEST(ShapeNodeCacheTest, BestPassesOverRemovedAndAddedNodesAndMoreThanItsTopList) {
  // 20 nodes scoring 0..19 (rank = index): the top list holds 8, so once the
  // 9 best are refused a pass over the row is needed.
  std::vector<Node> nodes;
  std::vector<int64_t> scores;
  std::vector<uint32_t> rank;
  for (int i = 0; i < 20; ++i) {
    nodes.push_back(TraceNode("n" + std::to_string(i), 8000, 0, ""));
    scores.push_back(i);
    rank.push_back(static_cast<uint32_t>(i));
  }
  ClusterState cl(nodes);
  const Pod pod = TracePod("p", 1000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  ShapeNodeCache cache(/*exact=*/false);
  TableScorer scorer(scores);
  CountingFits fits;
  bool packed = false;
  fits.refused = {19, 18, 17, 16, 15, 14, 13, 12, 11};
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), 10u);
  EXPECT_EQ(fits.calls, 10);
  // 10 removed: 9 is the best left; refused ones stay refused unchanged.
  cl.RemoveNode(10);
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), 9u);
  // A new node scoring 30 wins (once it is ranked).
  cl.AddNode(TraceNode("new", 8000, 0, ""));
  scorer.table_.push_back(30);
  rank.push_back(20);
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), 20u);
  // Every node changes and now refuses: nullopt after one filter run each,
  // and no more runs while nothing changes.
  fits.refused.clear();
  for (size_t i = 0; i <= 20; ++i) {
    fits.refused.push_back(i);
    if (i != 10) Place(cl, i, TracePod("y", 100), {});
  }
  fits.calls = 0;
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), std::nullopt);
  EXPECT_EQ(fits.calls, 20);
  fits.calls = 0;
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), std::nullopt);
  EXPECT_EQ(fits.calls, 0);
}

TEST(ShapeNodeCacheTest, WideScoresAreLeftToTheCaller) {
  ClusterState cl(FourNodes());
  const Pod pod = TracePod("p", 1000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  ShapeNodeCache cache(/*exact=*/false);
  TableScorer scorer({1, std::numeric_limits<int64_t>::max(), 3, 4});
  CountingFits fits;
  const std::vector<uint32_t> rank = {0, 1, 2, 3};
  bool packed = true;
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), std::nullopt);
  EXPECT_FALSE(packed);
  EXPECT_EQ(cache.Feasible(pi, cl, fits.Fn(), &scorer, &rank), (std::vector<size_t>{0, 1, 2, 3}));
  // Once the wide score is gone, the packed choice is back.
  scorer.table_[1] = 2;
  Place(cl, 1, TracePod("x", 100), {});
  EXPECT_EQ(cache.Best(pi, cl, fits.Fn(), scorer, rank, packed), 3u);
  EXPECT_TRUE(packed);
}

TEST(ShapeNodeCacheTest, ExactFeasibleSetAndShapes) {
  ClusterState cl(FourNodes());
  ShapeNodeCache cache(/*exact=*/true);
  CountingFits fits;
  fits.refused = {1};
  struct Case {
    const char* what;
    Pod pod;
    std::vector<size_t> want;
    int64_t want_fits_calls;
    size_t want_shapes;
  };
  const Case cases[] = {
      // d is short of cpu (no filter run), b refused.
      {"4 cpus", TracePod("p", 4000), {0, 2}, 3, 1},
      {"same shape", TracePod("q", 4000), {0, 2}, 0, 1},
      // Another memory request is another shape.
      {"more memory", TracePod("r", 4000, 0, 0, "", 2048), {0, 2}, 3, 2},
      {"1 cpu", TracePod("s", 1000), {0, 2, 3}, 4, 3},
      // A share with a model list: its own shape.
      {"share", TracePod("t", 1000, 1, 500, "T4"), {0, 2, 3}, 4, 4},
  };
  for (const Case& c : cases) {
    fits.calls = 0;
    EXPECT_EQ(cache.Feasible(PodInfo::Make(c.pod, 0), cl, fits.Fn(), nullptr, nullptr), c.want) << c.what;
    EXPECT_EQ(fits.calls, c.want_fits_calls) << c.what;
    EXPECT_EQ(cache.num_shapes(), c.want_shapes) << c.what;
  }
  // A bind re-runs the filters on that node only; a removal on none.
  const Pod pod = TracePod("p", 4000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  Place(cl, 0, TracePod("x", 5000), {});
  fits.calls = 0;
  EXPECT_EQ(cache.Feasible(pi, cl, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{2}));
  EXPECT_EQ(fits.calls, 0);  // a has 3 cpus left: short, no filter run
  cl.RemoveNode(2);
  EXPECT_EQ(cache.Feasible(pi, cl, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{}));
  EXPECT_EQ(fits.calls, 0);
  // Another cluster starts over.
  ClusterState other(FourNodes());
  EXPECT_EQ(cache.Feasible(pi, other, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(cache.num_shapes(), 1u);
}

// A cache so far behind that the change log no longer holds the changes
// since its last use starts over (one shape left, the one asked about) and
// answers as a fresh cache does, both its exact and its lazy rows.
TEST(ShapeNodeCacheTest, StartsOverWhenTheLogNoLongerHoldsItsChanges) {
  ClusterState cl({TraceNode("a", 8000, 2, "T4"), TraceNode("b", 8000, 1, "T4"), TraceNode("c", 4000, 2, "T4"),
                   TraceNode("d", 2000, 2, "T4"), TraceNode("e", 8000, 0, "")});
  const std::vector<uint32_t> rank = {4, 1, 0, 2, 3};
  const Pod gpu_pod = TracePod("g", 1000, 1, 1000), cpu_pod = TracePod("c", 3000);
  const PodInfo gpu = PodInfo::Make(gpu_pod, 0), cpu = PodInfo::Make(cpu_pod, 1);
  // Scores by free GPUs: the node with the most wins (rank on ties).
  class FreeGpus : public NodeScorer {
   public:
    explicit FreeGpus(const ClusterState& c) : c_(c) {}
    void ScoreNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const override {
      for (size_t k = 0; k < nodes.size(); ++k) scores[k] = c_.state(nodes[k]).GpuFree();
    }

   private:
    const ClusterState& c_;
  } scorer(cl);
  CountingFits fits;
  fits.refused = {0};
  ShapeNodeCache lazy(/*exact=*/false), exact(/*exact=*/true);
  bool packed = false;
  EXPECT_EQ(lazy.Best(gpu, cl, fits.Fn(), scorer, rank, packed), 2u);  // c and d tie at 2: c ranks first
  EXPECT_EQ(lazy.Best(cpu, cl, fits.Fn(), scorer, rank, packed), 2u);   // a refused, d short of cpu: c has most GPUs
  EXPECT_EQ(exact.Feasible(gpu, cl, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(exact.Feasible(cpu, cl, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{1, 2, 4}));
  ASSERT_EQ(lazy.num_shapes(), 2u);
  ASSERT_EQ(exact.num_shapes(), 2u);
  const uint64_t pos = cl.version();
  // One more pod (a GPU, 100m) on a, c and e: c has one GPU left, d two.
  testing::ChurnPastTheLog(cl, pos);
  ASSERT_FALSE(cl.change_log().Holds(pos));
  EXPECT_EQ(lazy.Best(gpu, cl, fits.Fn(), scorer, rank, packed), 3u);
  EXPECT_TRUE(packed);
  EXPECT_EQ(lazy.num_shapes(), 1u);
  EXPECT_EQ(exact.Feasible(gpu, cl, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(exact.num_shapes(), 1u);
  ShapeNodeCache fresh(/*exact=*/true);
  EXPECT_EQ(exact.Feasible(cpu, cl, fits.Fn(), nullptr, nullptr),
            fresh.Feasible(cpu, cl, fits.Fn(), nullptr, nullptr));
  EXPECT_EQ(exact.Feasible(cpu, cl, fits.Fn(), nullptr, nullptr), (std::vector<size_t>{1, 2, 4}));
}

TEST(ShapeNodeCacheTest, ScanAsksEveryPresentNodeThatMeetsTheNeed) {
  // c removed; d (2 cpus) short of the pod's 4 cpus; a refused by `fits`.
  ClusterState cl(FourNodes());
  cl.RemoveNode(2);
  const Pod pod = TracePod("p", 4000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  CountingFits fits;
  fits.refused = {0};
  std::vector<size_t> out = {7};
  ShapeNodeCache::Scan(cl, NodeFitIndex::NeedOf(pi, true), fits.Fn(), out);
  EXPECT_EQ(out, (std::vector<size_t>{1}));
  EXPECT_EQ(fits.calls, 2);  // a and b
}

}  // namespace
}  // namespace gpusched

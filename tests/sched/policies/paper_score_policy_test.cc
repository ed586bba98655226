#include <gtest/gtest.h>

#include <string>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/paper_policies.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::TraceNode;
using testing::TracePod;

// Scores each node by a fixed table; normalises by doubling (to tell raw
// from normalised in explain).
class FixedScorePolicy : public PaperScorePolicy {
 public:
  explicit FixedScorePolicy(std::vector<int64_t> by_node)
      : PaperScorePolicy({"fixed", "FixedScore", "a table"}), by_node_(std::move(by_node)) {}
  void Score(const PodInfo&, const ClusterState&, const std::vector<size_t>& feasible,
             std::vector<int64_t>& scores, PolicyState&) const override {
    for (size_t k = 0; k < feasible.size(); ++k) scores[k] = by_node_[feasible[k]];
  }
  void Normalize(std::vector<int64_t>& scores) const override {
    for (auto& s : scores) s *= 2;
  }

 private:
  std::vector<int64_t> by_node_;
};

TEST(PaperScorePolicyTest, HighestThenRankAndExplain) {
  ClusterState cl({TraceNode("a", 8000, 1, "T4"), TraceNode("b", 8000, 1, "T4"), TraceNode("c", 8000, 1, "T4"),
                   TraceNode("d", 8000, 1, "T4")});
  const Pod pod = TracePod("p", 1000);
  const PodInfo pi = PodInfo::Make(pod, 0);
  FixedScorePolicy p({7, 9, 3, 9});
  const std::unique_ptr<PolicyState> st = p.NewState();
  EXPECT_EQ(p.NumFeasibleNodesToFind(4), 4);
  EXPECT_FALSE(p.RotatesStartIndex());
  EXPECT_TRUE(PaperScorePolicy::Ranks(*st).empty());
  Rng rng(3);
  PodExplain e;
  e.nodes.resize(4);
  const size_t chosen = p.Select(pi, cl, {0, 1, 2, 3}, rng, *st, &e);
  // b and d tie at 9 (normalised 18): the one with the smaller rank wins.
  const auto& r = PaperScorePolicy::Ranks(*st);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(chosen, r[1] < r[3] ? 1u : 3u);
  EXPECT_EQ(p.ScoreNode(pi, cl, 2, *st), 3);
  const PluginScore& s = e.nodes[1].scores.at(0);
  EXPECT_EQ(s.plugin, "FixedScore");
  EXPECT_EQ(s.raw, 9);
  EXPECT_EQ(s.normalized, 18);
  EXPECT_EQ(s.weight, kPaperScoreWeight);
  EXPECT_EQ(s.weighted, 18000);
  EXPECT_EQ(e.nodes[1].total, 18000);
  EXPECT_TRUE(e.nodes[2].scored);
  EXPECT_EQ(e.why,
            "fixed: highest FixedScore 18, tied on 2 nodes: the first in the seeded random node order (the "
            "simulator's node-name prefix); score = a table");
  // A unique highest needs no tie-break; only feasible nodes are scored.
  PodExplain e2;
  e2.nodes.resize(4);
  EXPECT_EQ(p.Select(pi, cl, {0, 2}, rng, *st, &e2), 0u);
  EXPECT_EQ(e2.why, "fixed: highest FixedScore 14; score = a table");
  EXPECT_FALSE(e2.nodes[1].scored);
}

// A random trace-like node: 0-8 GPUs of one of three models, some cordoned or
// tainted, some without a model label.
Node RandomNode(const std::string& name, Rng& rng) {
  static const char* const kModels[] = {"T4", "V100M32", "A100", ""};
  const int64_t gpus = static_cast<int64_t>(rng.Uniform(5)) * 2;
  Node n = TraceNode(name, 8000 * static_cast<int64_t>(1 + rng.Uniform(8)), gpus, gpus ? kModels[rng.Uniform(4)] : "",
                     16384 * static_cast<int64_t>(1 + rng.Uniform(16)));
  const uint64_t r = rng.Uniform(20);
  if (r == 0) n.unschedulable = true;
  if (r == 1) n.taints.push_back(Taint{"dedicated", "infer", "NoSchedule"});
  if (r == 2) n.meta.labels["zone"] = "b";
  return n;
}

// A random trace-like pod: shares, whole GPUs (nvidia.com/gpu), multi-GPU
// shares, CPU-only; some with a model list, a nodeSelector, a toleration, or
// no requests at all. Shapes repeat, so the cache is hit.
Pod RandomPod(const std::string& name, Rng& rng) {
  static const int64_t kMilli[] = {0, 100, 250, 500, 810, 1000, 1000, 1000};
  const int64_t milli = kMilli[rng.Uniform(8)];
  const int64_t count = milli == 0 ? 0 : milli == 1000 ? 1 + static_cast<int64_t>(rng.Uniform(4)) : 1 + (rng.Uniform(6) == 0);
  const std::string spec = rng.Uniform(6) == 0 ? (rng.Uniform(2) ? "T4" : "A100|V100M32") : "";
  Pod p = TracePod(name, 1000 * static_cast<int64_t>(1 + rng.Uniform(6)), count, milli, spec,
                   1024 * static_cast<int64_t>(1 + rng.Uniform(4)));
  const uint64_t r = rng.Uniform(30);
  if (r == 0) p.node_selector["zone"] = "b";
  if (r == 1) p.tolerations.push_back(Toleration{"dedicated", "Equal", "infer", "NoSchedule"});
  if (r == 2) p.containers[0].requests.clear();
  return p;
}

struct Tally {
  int64_t placed = 0, failed = 0;
};

// Schedules a random pod stream on two copies of a random cluster, one
// scheduler through SelectIndexed and one scanning plainly (every 9th pod
// with explain on both), with departures, node removals and additions
// between decisions; the decisions must be identical.
Tally CompareIndexedWithPlain(const std::string& policy, uint64_t seed) {
  Rng rng(seed);
  std::vector<Node> nodes;
  for (int i = 0; i < 40; ++i) nodes.push_back(RandomNode("n" + std::to_string(i), rng));
  std::vector<Pod> pool;
  std::vector<PodShape> shapes;
  for (int i = 0; i < 60; ++i) {
    pool.push_back(RandomPod("p" + std::to_string(i), rng));
    shapes.push_back(ShapeOf(PodInfo::Make(pool.back(), 0)));
  }
  const TypicalPods typical = ComputeTypicalPods(shapes);
  PolicyOptions po;
  po.typical = &typical;
  Scheduler indexed(DefaultFilters(), NewSimplePolicy(policy, po), seed);
  Scheduler plain(DefaultFilters(), NewSimplePolicy(policy, po), seed);
  plain.set_use_index(false);
  ClusterState a(nodes), b(nodes);
  struct Running {
    size_t node;
    uint64_t id;
  };
  std::vector<Running> running;
  Tally t;
  for (uint64_t k = 0; k < 600; ++k) {
    const PodInfo pod = PodInfo::Make(pool[rng.Uniform(pool.size())], k);
    PodExplain ea, eb;
    const bool explain = k % 9 == 0;
    const Decision da = indexed.ScheduleOne(pod, a, explain ? &ea : nullptr);
    const Decision db = plain.ScheduleOne(pod, b, explain ? &eb : nullptr);
    EXPECT_EQ(da.scheduled, db.scheduled) << policy << " pod " << k;
    if (da.scheduled != db.scheduled) break;
    if (!da.scheduled) {
      ++t.failed;
      EXPECT_EQ(da.fit_error.Error(), db.fit_error.Error()) << policy << " pod " << k;
      continue;
    }
    ++t.placed;
    EXPECT_EQ(da.node, db.node) << policy << " pod " << k;
    EXPECT_EQ(da.gpus, db.gpus) << policy << " pod " << k;
    if (da.node != db.node || da.gpus != db.gpus) break;
    running.push_back({da.node, k});
    // Departures keep the cluster busy but not full; now and then a node
    // goes away (its pods with it) or a new one joins.
    while (running.size() > 110 || (!running.empty() && rng.Uniform(4) == 0)) {
      const size_t r = static_cast<size_t>(rng.Uniform(running.size()));
      EXPECT_TRUE(a.Unbind(running[r].node, running[r].id));
      EXPECT_TRUE(b.Unbind(running[r].node, running[r].id));
      running[r] = running.back();
      running.pop_back();
    }
    if (rng.Uniform(40) == 0) {
      const size_t gone = static_cast<size_t>(rng.Uniform(a.size()));
      a.RemoveNode(gone);
      b.RemoveNode(gone);
      std::erase_if(running, [&](const Running& r) { return r.node == gone; });
    }
    if (rng.Uniform(40) == 0) {
      const Node n = RandomNode("m" + std::to_string(k), rng);
      a.AddNode(n);
      b.AddNode(n);
    }
  }
  return t;
}

TEST(PaperScorePolicyTest, IndexedDecisionsMatchThePlainScan) {
  struct Case {
    std::string policy;
    uint64_t seed;
    Tally want;
  };
  const Case cases[] = {
      {"fgd", 1, {560, 40}},            {"fgd", 2, {575, 25}},
      {"random", 1, {536, 64}},         {"random", 2, {565, 35}},
      {"dot-product", 1, {555, 45}},    {"dot-product", 2, {556, 44}},
      {"gpu-clustering", 1, {493, 107}}, {"gpu-clustering", 2, {559, 41}},
      {"gpu-packing", 1, {509, 91}},    {"gpu-packing", 2, {572, 28}},
      {"paper-best-fit", 1, {523, 77}}, {"paper-best-fit", 2, {569, 31}},
  };
  for (const Case& c : cases) {
    const Tally got = CompareIndexedWithPlain(c.policy, c.seed);
    EXPECT_EQ(got.placed, c.want.placed) << c.policy << " seed " << c.seed;
    EXPECT_EQ(got.failed, c.want.failed) << c.policy << " seed " << c.seed;
  }
}

}  // namespace
}  // namespace gpusched

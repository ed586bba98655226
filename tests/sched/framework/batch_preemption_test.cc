// DefaultPreemption inside ScheduleBatch: victims evicted, the preemptor
// placed, every pod in exactly one outcome.
#include "gpusched/sched/framework/batch_preemption.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

Pod P(const std::string& name, int64_t gpus, int32_t priority, std::map<std::string, std::string> labels = {}) {
  Pod p = GpuPod(name, gpus);
  p.priority = priority;
  for (const auto& [k, v] : labels) p.meta.labels[k] = v;
  return p;
}

PodDisruptionBudget Pdb(const std::string& app, int32_t allowed) {
  PodDisruptionBudget pdb;
  pdb.meta.name = app;
  pdb.meta.namespace_ = "default";
  LabelSelector sel;
  sel.match_labels["app"] = app;
  pdb.selector = sel;
  pdb.status_disruptions_allowed = allowed;
  return pdb;
}

struct Outcome {
  BatchResult r;
  std::vector<std::string> names;
  std::string Victims() const {
    std::string s;
    for (const auto& p : r.preempted) s += names[p.pod] + "@" + std::to_string(p.node) + " by " + names[p.by] + ";";
    return s;
  }
  std::string Placements() const {
    std::string s;
    for (const auto& p : r.placements) {
      s += names[p.pod] + "->" + std::to_string(p.node);
      if (!p.preempted.empty()) {
        s += "[";
        for (size_t v : p.preempted) s += names[v] + ",";
        s += "]";
      }
      s += ";";
    }
    return s;
  }
};

Outcome Schedule(const std::vector<Node>& nodes, const std::vector<Pod>& pods, const std::vector<PodDisruptionBudget>& pdbs = {},
             QueueOrder order = QueueOrder::kFifo) {
  ClusterState c(nodes);
  std::vector<const Pod*> ptrs;
  Outcome run;
  for (const Pod& p : pods) {
    ptrs.push_back(&p);
    run.names.push_back(p.name());
  }
  std::vector<const PodDisruptionBudget*> pdb_ptrs;
  for (const auto& p : pdbs) pdb_ptrs.push_back(&p);
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
  BatchOptions o;
  o.order = order;
  o.pdbs = &pdb_ptrs;
  run.r = ScheduleBatch(ptrs, c, ProfileSchedulers{{kDefaultSchedulerName, &s}}, o);
  return run;
}

TEST(BatchPreemptionTest, LaterStartedVictimGoesPreemptorPlaced) {
  Outcome run = Schedule({GpuNode("n", 4)}, {P("a", 2, 0), P("b", 2, 0), P("h", 2, 100)});
  EXPECT_EQ(run.Victims(), "b@0 by h;");
  EXPECT_EQ(run.Placements(), "a->0;h->0[b,];");
  EXPECT_TRUE(run.r.pending.empty());
  // The first attempt's FitError is kept.
  EXPECT_EQ(run.r.placements.back().first_attempt, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
}

TEST(BatchPreemptionTest, PdbViolatingVictimReprievedFirst) {
  // b's PDB allows no disruption: b is reprieved first, so a goes.
  Outcome run = Schedule({GpuNode("n", 4)}, {P("a", 2, 0, {{"app", "a"}}), P("b", 2, 0, {{"app", "b"}}), P("h", 2, 100)},
                     {Pdb("b", 0)});
  EXPECT_EQ(run.Victims(), "a@0 by h;");
  EXPECT_EQ(run.Placements(), "b->0;h->0[a,];");
}

TEST(BatchPreemptionTest, NodeWithoutPdbViolationChosen) {
  // Without the PDB node 1 wins (its victim started later); y's PDB makes
  // node 0 the one with no violation.
  const std::vector<Node> nodes = {GpuNode("n0", 2), GpuNode("n1", 2)};
  Outcome plain = Schedule(nodes, {P("x", 2, 0, {{"app", "x"}}), P("y", 2, 0, {{"app", "y"}}), P("h", 2, 100)});
  EXPECT_EQ(plain.Victims(), "y@1 by h;");
  Outcome pdb = Schedule(nodes, {P("x", 2, 0, {{"app", "x"}}), P("y", 2, 0, {{"app", "y"}}), P("h", 2, 100)}, {Pdb("y", 0)});
  EXPECT_EQ(pdb.Victims(), "x@0 by h;");
  // A budget that is used up everywhere does not stop preemption.
  Outcome both = Schedule(nodes, {P("x", 2, 0, {{"app", "z"}}), P("y", 2, 0, {{"app", "z"}}), P("h", 2, 100)},
                      {Pdb("z", 0)});
  EXPECT_EQ(both.Victims(), "y@1 by h;");
}

TEST(BatchPreemptionTest, MinimalVictimSetAcrossPriorities) {
  // Lowest priority goes first; the mid one is reprieved when it fits.
  Outcome run = Schedule({GpuNode("n", 8)}, {P("mid", 4, 50), P("low", 2, 10), P("low2", 2, 10), P("h", 4, 100)});
  EXPECT_EQ(run.Victims(), "low@0 by h;low2@0 by h;");
  EXPECT_EQ(run.Placements(), "mid->0;h->0[low,low2,];");
}

TEST(BatchPreemptionTest, NeverAndEqualPriorityStayPending) {
  Pod never = P("never", 2, 100);
  never.preemption_policy = "Never";
  Outcome run = Schedule({GpuNode("n", 2)}, {P("a", 2, 0), never, P("same", 2, 0)});
  EXPECT_TRUE(run.r.preempted.empty());
  ASSERT_EQ(run.r.pending.size(), 2u);
  EXPECT_EQ(run.r.pending[0].message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not eligible due to "
            "preemptionPolicy=Never.");
  EXPECT_EQ(run.r.pending[1].message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No "
            "preemption victims found for incoming pod.");
}

TEST(BatchPreemptionTest, PreboundPodsCanBeVictims) {
  Pod running = P("running", 4, 0);
  running.node_name = "n";
  Outcome run = Schedule({GpuNode("n", 4)}, {running, P("h", 1, 100)});
  EXPECT_EQ(run.Victims(), "running@0 by h;");
  EXPECT_EQ(run.Placements(), "h->0[running,];");
}

// Random workloads: every pod ends in exactly one outcome, no pod is
// preempted by one of equal or lower priority, a victim was running, and
// the result is the same when run again.
TEST(BatchPreemptionTest, PropertyOutcomesAndPriorities) {
  Rng rng(7);
  for (int iter = 0; iter < 200; ++iter) {
    SCOPED_TRACE(iter);
    std::vector<Node> nodes;
    const int n_nodes = 1 + static_cast<int>(rng.Uniform(4));
    for (int i = 0; i < n_nodes; ++i) nodes.push_back(GpuNode("n" + std::to_string(i), 1 + static_cast<int64_t>(rng.Uniform(8))));
    std::vector<Pod> pods;
    const int n_pods = 1 + static_cast<int>(rng.Uniform(16));
    std::vector<PodDisruptionBudget> pdbs = {Pdb("a", static_cast<int32_t>(rng.Uniform(2)))};
    for (int i = 0; i < n_pods; ++i) {
      Pod p = P("p" + std::to_string(i), 1 + static_cast<int64_t>(rng.Uniform(4)),
                static_cast<int32_t>(rng.Uniform(4)) * 10, {{"app", rng.Uniform(2) ? "a" : "b"}});
      if (rng.Uniform(5) == 0) p.preemption_policy = "Never";
      pods.push_back(std::move(p));
    }
    const QueueOrder order = rng.Uniform(2) ? QueueOrder::kFifo : QueueOrder::kPriority;
    Outcome run = Schedule(nodes, pods, pdbs, order);
    std::vector<int> seen(pods.size(), 0);
    for (const auto& p : run.r.placements) seen[p.pod]++;
    for (const auto& p : run.r.pending) seen[p.pod]++;
    for (const auto& p : run.r.refused) seen[p.pod]++;
    for (const auto& p : run.r.preempted) {
      seen[p.pod]++;
      EXPECT_LT(pods[p.pod].Priority(), pods[p.by].Priority());
      EXPECT_NE(pods[p.by].preemption_policy, "Never");
    }
    for (size_t i = 0; i < pods.size(); ++i) EXPECT_EQ(seen[i], 1) << pods[i].name();
    Outcome again = Schedule(nodes, pods, pdbs, order);
    EXPECT_EQ(again.Victims(), run.Victims());
    EXPECT_EQ(again.Placements(), run.Placements());
  }
}

}  // namespace
}  // namespace gpusched

#include "gpusched/sched/policies/policy_registry.h"

#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/paper_policies.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "../paper_test_util.h"

namespace gpusched {
namespace {

using testing::TraceNode;
using testing::TracePod;

TEST(PolicyRegistryTest, NamesAndDisplayNames) {
  EXPECT_EQ(PolicyNames(), (std::vector<std::string>{"first-fit", "best-fit", "worst-fit", "kube-default", "fgd",
                                                     "random", "dot-product", "gpu-clustering", "gpu-packing",
                                                     "paper-best-fit"}));
  struct Case {
    const char* name;
    const char* display;
    bool paper;
  } cases[] = {
      {"fgd", "FGD", true},
      {"random", "Random", true},
      {"dot-product", "DotProd", true},
      {"gpu-clustering", "GpuClustering", true},
      {"gpu-packing", "GpuPacking", true},
      {"paper-best-fit", "BestFit", true},
      {"best-fit", "best-fit", false},
      {"kube-default", "kube-default", false},
      {"magic", "", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(PolicyDisplayName(c.name), c.display) << c.name;
    EXPECT_EQ(IsPaperPolicy(c.name), c.paper) << c.name;
  }
}

// The table itself: each row's flags, and which policies declare an index of
// their own (Policy::HasOwnIndex, the scheduler's SelectIndexed path).
TEST(PolicyRegistryTest, TableRowsAndOwnIndex) {
  TypicalPods typical{{{PodShape{1000, 500, 1, ""}, 1.0}}};
  struct Case {
    const char* name;
    bool needs_workload;
    bool from_profile;
    bool own_index;
  } cases[] = {
      {"first-fit", false, false, false},   {"best-fit", false, false, true},
      {"worst-fit", false, false, true},    {"kube-default", false, true, false},
      {"fgd", true, false, true},           {"random", false, false, true},
      {"dot-product", false, false, true},  {"gpu-clustering", false, false, true},
      {"gpu-packing", false, false, true},  {"paper-best-fit", false, false, true},
  };
  ASSERT_EQ(PolicyTable().size(), std::size(cases));
  for (size_t k = 0; k < std::size(cases); ++k) {
    const Case& c = cases[k];
    SCOPED_TRACE(c.name);
    const PolicyEntry& row = PolicyTable()[k];
    EXPECT_EQ(row.name, c.name);
    EXPECT_EQ(FindPolicy(c.name), &row);
    EXPECT_EQ(row.needs_workload, c.needs_workload);
    EXPECT_EQ(row.from_profile, c.from_profile);
    EXPECT_EQ(row.make == nullptr, c.from_profile);
    if (row.make == nullptr) continue;
    std::unique_ptr<Policy> p = row.make(PolicyOptions{&typical});
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->Name(), c.name);
    EXPECT_EQ(p->HasOwnIndex(), c.own_index);
  }
  EXPECT_EQ(FindPolicy("magic"), nullptr);
}

TEST(PolicyRegistryTest, NewSimplePolicy) {
  TypicalPods typical{{{PodShape{1000, 500, 1, ""}, 1.0}}};
  for (const auto& name : PolicyNames()) {
    SCOPED_TRACE(name);
    std::unique_ptr<Policy> p = NewSimplePolicy(name, PolicyOptions{&typical});
    if (name == "kube-default") {
      EXPECT_EQ(p, nullptr);  // a profile, built by BuildSchedulers
      continue;
    }
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->Name(), name);
    if (IsPaperPolicy(name)) {
      // percentageOfNodesToScore 100, no start-index rotation.
      EXPECT_EQ(p->NumFeasibleNodesToFind(1213), 1213);
      EXPECT_FALSE(p->RotatesStartIndex());
    }
  }
  EXPECT_EQ(NewSimplePolicy("fgd"), nullptr);  // no target workload
  EXPECT_EQ(NewSimplePolicy("magic"), nullptr);
}

TEST(PolicyRegistryTest, BuildSchedulersUsesTheRegistry) {
  KubeSchedulerConfiguration config = DefaultSchedulerConfiguration();
  auto fgd = BuildSchedulers(config, "fgd", 1);
  ASSERT_FALSE(fgd.ok());
  EXPECT_EQ(fgd.status().message(), "error: fgd needs a workload to derive its target pods");
  TypicalPods typical{{{PodShape{1000, 500, 1, ""}, 1.0}}};
  for (const char* name : {"fgd", "gpu-packing", "worst-fit"}) {
    auto set = BuildSchedulers(config, name, 1, PolicyOptions{&typical});
    ASSERT_TRUE(set.ok()) << name;
    EXPECT_EQ(set->owned.front()->policy().Name(), name);
  }
}

// Ten trace-like pods on four nodes, through Scheduler::ScheduleOne with the
// default filters and seed 42, for each paper policy. FGD's target workload
// is derived from the ten pods (ComputeTypicalPods: all 9 shapes, p = count/10).
// Expected placements follow fgd.md §3-§5, worked out with an independent
// transcription of those formulas (including std::mt19937_64 for the seeded
// draws); the ranks it draws, {1, 0, 3, 2}, are asserted below, so ties go to
// n1, then n0, n3, n2. Some steps by hand:
//  - DotProd p0 (4000m, 500m × 1 → [.03125, .0625]): n0 [.25, .5] → 98,
//    n1 [.125, .25] → int(100·(1 − .01953125/2)) = 99, n2 [.5, 1] → 96,
//    n3 [.0625, .125] → 99; n1 and n3 tie, rank 0 < 2 → n1.
//  - GpuPacking p0: all four nodes wholly free → max(33 − n, n): n0 29, n1 31,
//    n2 25, n3 32 → n3.
//  - GpuClustering p0: no node holds GPU pods → 25 + 25·(8000 − gpuLeft)/8000:
//    n0 37, n1 43, n2 25, n3 46 → n3.
//  - BestFit p0: raw n0 67, n1 85, n2 29, n3 95 → normalised n3 100 → n3.
TEST(PolicyRegistryTest, TenPodsPerPolicy) {
  const std::vector<Node> nodes = {TraceNode("n0", 32000, 4, "T4"), TraceNode("n1", 16000, 2, "T4"),
                                   TraceNode("n2", 64000, 8, "G2"), TraceNode("n3", 8000, 1, "P100")};
  const std::vector<Pod> pods = {
      TracePod("p0", 4000, 1, 500),  TracePod("p1", 8000, 1, 1000),           TracePod("p2", 12000),
      TracePod("p3", 2000, 1, 250, "T4"), TracePod("p4", 16000, 2, 1000),    TracePod("p5", 3152, 1, 810),
      TracePod("p6", 8000, 4, 1000), TracePod("p7", 4000, 1, 500),           TracePod("p8", 4000, 1, 1000, "P100|G2"),
      TracePod("p9", 4000),
  };
  std::vector<PodShape> shapes;
  for (const Pod& p : pods) shapes.push_back(ShapeOf(PodInfo::Make(p, 0)));
  const TypicalPods typical = ComputeTypicalPods(shapes);
  ASSERT_EQ(typical.pods.size(), 9u);

  struct Want {
    size_t node;
    std::vector<int32_t> gpus;
  };
  struct Case {
    const char* policy;
    std::vector<Want> want;
  } cases[] = {
      {"fgd", {{3, {0}}, {1, {0}}, {0, {}}, {1, {1}}, {2, {0, 1}}, {2, {2}}, {0, {0, 1, 2, 3}}, {3, {0}}, {2, {3}}, {0, {}}}},
      {"random", {{2, {6}}, {1, {0}}, {2, {}}, {0, {3}}, {0, {0, 1}}, {2, {7}}, {2, {0, 1, 2, 3}}, {0, {3}}, {2, {4}}, {0, {}}}},
      {"dot-product", {{1, {0}}, {3, {0}}, {1, {}}, {0, {0}}, {0, {1, 2}}, {0, {3}}, {2, {0, 1, 2, 3}}, {0, {0}}, {2, {4}}, {0, {}}}},
      {"gpu-clustering", {{3, {0}}, {1, {0}}, {0, {}}, {0, {0}}, {2, {0, 1}}, {0, {1}}, {2, {2, 3, 4, 5}}, {3, {0}}, {2, {6}}, {1, {}}}},
      {"gpu-packing", {{3, {0}}, {1, {0}}, {0, {}}, {1, {1}}, {0, {0, 1}}, {0, {2}}, {2, {0, 1, 2, 3}}, {3, {0}}, {2, {4}}, {1, {}}}},
      {"paper-best-fit", {{3, {0}}, {1, {0}}, {0, {}}, {1, {1}}, {0, {0, 1}}, {0, {2}}, {2, {0, 1, 2, 3}}, {3, {0}}, {2, {4}}, {1, {}}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.policy);
    ClusterState cl(nodes);
    Scheduler s(DefaultFilters(), NewSimplePolicy(c.policy, PolicyOptions{&typical}), 42);
    for (size_t i = 0; i < pods.size(); ++i) {
      Decision d = s.ScheduleOne(PodInfo::Make(pods[i], i), cl);
      ASSERT_TRUE(d.scheduled) << pods[i].meta.name;
      EXPECT_EQ(d.node, c.want[i].node) << pods[i].meta.name;
      EXPECT_EQ(d.gpus, c.want[i].gpus) << pods[i].meta.name;
    }
    if (dynamic_cast<const PaperScorePolicy*>(&s.policy())) {
      EXPECT_EQ(PaperScorePolicy::Ranks(s.policy_state()), (std::vector<uint32_t>{1, 0, 3, 2}));
    }
  }
}

}  // namespace
}  // namespace gpusched

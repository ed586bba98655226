#include "gpusched/sim/invariants.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;

TEST(InvariantsTest, CheckNodeInvariants) {
  ClusterState c({GpuNode("n", 2, 1000, 1LL << 30, 1)});
  EXPECT_EQ(CheckNodeInvariants(c, 0), "");
  Resources two_cpu;
  two_cpu.milli_cpu = 2000;
  c.Bind(0, two_cpu);
  EXPECT_EQ(CheckNodeInvariants(c, 0), "node n has cpu requested 2000 > allocatable 1000");
  ClusterState d({GpuNode("m", 1, 1000, 1LL << 30, 1)});
  Resources none;
  d.Bind(0, none);
  d.Bind(0, none);
  EXPECT_EQ(CheckNodeInvariants(d, 0), "node m has pods requested 2 > allocatable 1");
  // The cached GPU counts must follow the resources (only ClusterState
  // changes them; a cast stands in for a bug here).
  ClusterState g({GpuNode("g", 8)});
  g.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 3}}}));
  EXPECT_EQ(CheckNodeInvariants(g, 0), "");
  const_cast<NodeState&>(g.state(0)).gpu_requested = 2;
  EXPECT_EQ(CheckNodeInvariants(g, 0), "node g has cached nvidia.com/gpu 2/8 but 3/8 in its resources");
}

TEST(InvariantsTest, CheckNodeUsage) {
  // A node with a 2-GPU pod (cpu, memory, an extended resource) and a
  // 300-milli share; the usage is summed from the pods as the simulator does.
  ClusterState c({GpuNode("n", 4, 8000, 1LL << 34, 10)});
  const Resources whole = testing::ToResources({1500, 1LL << 30, 0, {{"nvidia.com/gpu", 2}, {"example.com/foo", 1}}});
  GpuRequest two{kGpuMilli, 2};
  c.Bind(0, whole, whole, 1, 0, two, c.DefaultGpuChoice(0, two));
  const Resources small = testing::ToResources({500, 0, 0, {}});
  GpuRequest share{300, 1, true};
  c.Bind(0, small, small, 2, 0, share, c.DefaultGpuChoice(0, share));
  NodeUsage u;
  u.Add(whole, two);
  u.Add(small, share);
  EXPECT_EQ(CheckNodeUsage(c, 0, u), "");

  struct Case {
    const char* name;
    void (*spoil)(NodeUsage&);
    std::string want;
  };
  const Case cases[] = {
      {"a pod missing", [](NodeUsage& x) { x.pods--; }, "node n books pods 2 but its running pods add up to 1"},
      {"cpu", [](NodeUsage& x) { x.milli_cpu += 1; }, "node n books cpu 2000 but its running pods add up to 2001"},
      {"memory", [](NodeUsage& x) { x.memory = 0; }, "node n books memory 1073741824 but its running pods add up to 0"},
      {"extended", [](NodeUsage& x) { x.scalars.clear(); },
       "node n books example.com/foo 1 but its running pods add up to 0"},
      {"extended the books lack", [](NodeUsage& x) { x.scalars["example.com/bar"] = 3; },
       "node n books example.com/bar 0 but its running pods add up to 3"},
      {"devices", [](NodeUsage& x) { x.gpu_milli = 2000; },
       "node n books milli-GPU taken on devices 2300 but its running pods add up to 2000"},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.name);
    NodeUsage spoiled = u;
    k.spoil(spoiled);
    EXPECT_EQ(CheckNodeUsage(c, 0, spoiled), k.want);
  }
  // A removed node holds nothing.
  c.RemoveNode(0);
  EXPECT_EQ(CheckNodeUsage(c, 0, NodeUsage{}), "");
}

TEST(InvariantsTest, CheckPodConservation) {
  struct Case {
    const char* name;
    int64_t finished, running, waiting, rejected, arrived;
    std::string want;
  };
  const Case cases[] = {
      {"nothing arrived", 0, 0, 0, 0, 0, ""},
      {"each pod in one place", 1, 2, 3, 4, 10, ""},
      {"one lost", 1, 2, 3, 4, 11, "pods not conserved: finished 1 + running 2 + waiting 3 + rejected 4 != arrived 11"},
      {"one counted twice", 0, 1, 1, 0, 1,
       "pods not conserved: finished 0 + running 1 + waiting 1 + rejected 0 != arrived 1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(CheckPodConservation(c.finished, c.running, c.waiting, c.rejected, c.arrived), c.want);
  }
}

TEST(InvariantsTest, ReportInvariantViolationCallsTheCallback) {
  std::vector<std::string> seen;
  ReportInvariantViolation([&seen](const std::string& what) { seen.push_back(what); }, "at t=1: broken");
  EXPECT_EQ(seen, (std::vector<std::string>{"at t=1: broken"}));
}

TEST(InvariantsTest, ReportInvariantViolationAbortsWithoutACallback) {
  EXPECT_DEATH(ReportInvariantViolation({}, "at t=2: broken"), "gpusched: simulator invariant violated at t=2: broken");
}

}  // namespace
}  // namespace gpusched

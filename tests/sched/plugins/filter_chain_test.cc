// The filter chain (filter_chain.h): what each in-tree filter declares
// (FilterTraits), the default chain's order and RunFilters stopping at the
// first failure, and the verdict-less fast path (Check, PassesFilters,
// CheckFilters) agreeing with Filter / RunFilters. The plugins' own tables
// are in <plugin>_test.cc.
#include "gpusched/sched/plugins/filter_chain.h"

#include <gtest/gtest.h>

#include "gpusched/sched/plugins/gpushare/gpu_share.h"
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"
#include "gpusched/sched/plugins/nodename/node_name.h"
#include "gpusched/sched/plugins/noderesources/fit.h"
#include "gpusched/sched/plugins/nodeunschedulable/node_unschedulable.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/plugins/tainttoleration/taint_toleration.h"
#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

// What each filter declares to the scheduler's fast paths (FilterTraits),
// and that a filter declaring nothing takes its chain off them.
TEST(FilterTraitsTest, DeclaredByEachFilter) {
  struct Case {
    std::unique_ptr<FilterPlugin> filter;
    bool in_tree, checks_fit, checks_gpu_count, checks_devices;
  };
  Case cases[] = {
      {std::make_unique<NodeUnschedulable>(), true, false, false, false},
      {std::make_unique<NodeName>(), true, false, false, false},
      {std::make_unique<TaintToleration>(), true, false, false, false},
      {std::make_unique<NodeAffinityPlugin>(), true, false, false, false},
      {std::make_unique<NodeResourcesFit>(), true, true, true, false},
      {std::make_unique<NodeResourcesFit>(std::vector<std::string>{"nvidia.com/gpu"},
                                                std::vector<std::string>{}),
       true, true, false, false},
      {std::make_unique<GpuShare>(), true, false, false, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.filter->Name());
    const FilterTraits t = c.filter->Traits();
    EXPECT_EQ(t.in_tree, c.in_tree);
    EXPECT_EQ(t.checks_fit, c.checks_fit);
    EXPECT_EQ(t.checks_gpu_count, c.checks_gpu_count);
    EXPECT_EQ(t.checks_devices, c.checks_devices);
  }

  struct Undeclared : FilterPlugin {
    std::string_view Name() const override { return "Undeclared"; }
    bool Check(const PodInfo&, const Node&, const NodeState&, FilterVerdict*) const override { return true; }
  };
  std::vector<std::unique_ptr<FilterPlugin>> chain = DefaultFilters();
  EXPECT_TRUE(AllInTreeFilters(chain));
  chain.push_back(std::make_unique<Undeclared>());
  EXPECT_FALSE(AllInTreeFilters(chain));
}

TEST(RunFiltersTest, StopsAtFirstFailingPluginInDefaultOrder) {
  // A tainted node without GPUs reports the taint, not the missing GPU.
  auto filters = DefaultFilters();
  ASSERT_EQ(filters.size(), 5u);
  EXPECT_EQ(filters[0]->Name(), "NodeUnschedulable");
  EXPECT_EQ(filters[1]->Name(), "TaintToleration");
  EXPECT_EQ(filters[2]->Name(), "NodeAffinity");
  EXPECT_EQ(filters[3]->Name(), "NodeResourcesFit");
  EXPECT_EQ(filters[4]->Name(), "GpuShare");
  Node n = testing::GpuNode("cpu-only", -1);
  n.taints.push_back({"dedicated", "infra", "NoSchedule"});
  ClusterState c({n});
  Pod p = testing::GpuPod("p", 1);
  SchedStatus s = RunFilters(filters, PodInfo::Make(p, 0), c.node(0), c.state(0));
  EXPECT_EQ(s.plugin(), "TaintToleration");
  EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) had untolerated taint(s)"});
  EXPECT_EQ(NewFilterPlugin("NoSuchPlugin"), nullptr);
}

// Ours: Check without a verdict (the scan's fast path) agrees with Filter on
// every in-tree plugin, and PassesFilters / CheckFilters with RunFilters.
TEST(FilterCheckTest, FastPathAgreesWithFilter) {
  Rng rng(3);
  std::vector<std::unique_ptr<FilterPlugin>> all;
  for (const char* n : {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodeResourcesFit", "GpuShare"})
    all.push_back(NewFilterPlugin(n));
  all.push_back(std::make_unique<NodeResourcesFit>(std::vector<std::string>{"example.com/foo"},
                                                         std::vector<std::string>{"nvidia.com"}));
  int failures = 0;
  for (int k = 0; k < 400; ++k) {
    Node node = testing::GpuNode("n", static_cast<int64_t>(rng.Uniform(5)) - 1, 1000 * static_cast<int64_t>(rng.Uniform(4)),
                                 1LL << 30, static_cast<int64_t>(rng.Uniform(3)));
    node.unschedulable = rng.Uniform(4) == 0;
    if (rng.Uniform(4) == 0) node.taints.push_back({"k", "", "NoSchedule"});
    node.meta.labels["zone"] = rng.Uniform(2) ? "a" : "b";
    if (rng.Uniform(3) == 0) node.allocatable["example.com/foo"] = Quantity::FromInt(1);
    ClusterState c({node});
    if (rng.Uniform(2)) c.Bind(0, testing::ToResources({500, 0, 0, {{"nvidia.com/gpu", 1}}}));
    testing::Res r;
    r.milli_cpu = 500 * static_cast<int64_t>(rng.Uniform(5));
    r.memory = (1LL << 29) * static_cast<int64_t>(rng.Uniform(4));
    if (rng.Uniform(2)) r.scalars["nvidia.com/gpu"] = static_cast<int64_t>(rng.Uniform(4));
    if (rng.Uniform(4) == 0) r.scalars["example.com/foo"] = 1;
    Pod pod = testing::ResourcePod({r});
    if (rng.Uniform(4) == 0) pod.node_selector["zone"] = "a";
    if (rng.Uniform(4) == 0) pod.tolerations.push_back({"k", "Exists", "", ""});
    if (rng.Uniform(6) == 0) pod.node_name = rng.Uniform(2) ? "n" : "other";
    if (rng.Uniform(4) == 0) pod.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
    const PodInfo info = PodInfo::Make(pod, 0);
    for (const auto& f : all) {
      const SchedStatus s = f->Filter(info, c.node(0), c.state(0));
      EXPECT_EQ(f->Check(info, c.node(0), c.state(0), nullptr), s.IsSuccess()) << f->Name() << " case " << k;
      failures += !s.IsSuccess();
    }
    std::vector<std::unique_ptr<FilterPlugin>> chain = DefaultFilters();
    const SchedStatus s = RunFilters(chain, info, c.node(0), c.state(0));
    EXPECT_EQ(PassesFilters(chain, info, c.node(0), c.state(0)), s.IsSuccess()) << k;
    FilterVerdict why;
    const FilterPlugin* failed = CheckFilters(chain, info, c.node(0), c.state(0), why);
    EXPECT_EQ(failed ? std::string(failed->Name()) : "", s.plugin()) << k;
    EXPECT_EQ(why.ToStatus().reasons(), s.reasons()) << k;
  }
  EXPECT_GT(failures, 200);  // both verdicts well exercised
}

}  // namespace
}  // namespace gpusched

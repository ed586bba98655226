// NodeUnschedulable, TaintToleration and NodeAffinity (nodeSelector) filters.
// Cases follow upstream's tables in pkg/scheduler/framework/plugins/
// nodeunschedulable/node_unschedulable_test.go, tainttoleration/
// taint_toleration_test.go (TestTaintTolerationFilter) and nodeaffinity/
// node_affinity_test.go (nodeSelector cases); reasons are v1.35's.
#include "gpusched/sched/plugins/filter_chain.h"

#include <gtest/gtest.h>

#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using Code = SchedStatus::Code;

SchedStatus RunOne(const FilterPlugin& f, const Pod& pod, const Node& node) {
  return f.Filter(PodInfo::Make(pod, 0), node, NodeState{});
}

TEST(NodeUnschedulableFilterTest, Table) {
  NodeUnschedulableFilter f;
  Pod plain = testing::ResourcePod({});
  Pod tolerant = plain;
  tolerant.tolerations.push_back({"node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"});
  Node cordoned;
  cordoned.unschedulable = true;
  Node open;
  struct Case {
    const char* name;
    const Pod& pod;
    const Node& node;
    Code code;
  } cases[] = {
      {"Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)", plain, cordoned,
       Code::kUnschedulableAndUnresolvable},
      {"Schedule pod to normal node", plain, open, Code::kSuccess},
      {"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)", tolerant, cordoned,
       Code::kSuccess},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, c.node);
    EXPECT_EQ(s.code(), c.code);
    if (!s.IsSuccess()) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) were unschedulable"});
    }
  }
}

Node Tainted(std::vector<Taint> taints) {
  Node n;
  n.meta.name = "n";
  n.taints = std::move(taints);
  return n;
}

Pod Tolerating(std::vector<Toleration> ts) {
  Pod p = testing::ResourcePod({});
  p.tolerations = std::move(ts);
  return p;
}

TEST(TaintTolerationFilterTest, Table) {
  TaintTolerationFilter f;
  struct Case {
    const char* name;
    Pod pod;
    Node node;
    bool fits;
  } cases[] = {
      {"A pod having no tolerations can't be scheduled onto a node with nonempty taints", Tolerating({}),
       Tainted({{"dedicated", "user1", "NoSchedule"}}), false},
      {"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
       Tolerating({{"dedicated", "Equal", "user1", "NoSchedule"}}), Tainted({{"dedicated", "user1", "NoSchedule"}}),
       true},
      {"A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
       Tolerating({{"dedicated", "Equal", "user2", "NoSchedule"}}), Tainted({{"dedicated", "user1", "NoSchedule"}}),
       false},
      {"A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the "
       "node",
       Tolerating({{"foo", "Exists", "", "NoSchedule"}}), Tainted({{"foo", "bar", "NoSchedule"}}), true},
      {"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled "
       "onto the node",
       Tolerating({{"dedicated", "Equal", "user2", "NoSchedule"}, {"foo", "Exists", "", "NoSchedule"}}),
       Tainted({{"dedicated", "user2", "NoSchedule"}, {"foo", "bar", "NoSchedule"}}), true},
      {"A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't "
       "match, can't be scheduled onto the node",
       Tolerating({{"foo", "Equal", "bar", "PreferNoSchedule"}}), Tainted({{"foo", "bar", "NoSchedule"}}), false},
      {"The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, "
       "and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
       Tolerating({{"foo", "Equal", "bar", ""}}), Tainted({{"foo", "bar", "NoSchedule"}}), true},
      {"The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node "
       "is PreferNoSchedule. Pod can be scheduled onto the node",
       Tolerating({{"dedicated", "Equal", "user2", "NoSchedule"}}), Tainted({{"dedicated", "user1", "PreferNoSchedule"}}),
       true},
      {"The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the "
       "node",
       Tolerating({}), Tainted({{"dedicated", "user1", "PreferNoSchedule"}}), true},
      {"NoExecute taints block too", Tolerating({}), Tainted({{"nvidia.com/gpu", "present", "NoExecute"}}), false},
      {"An empty key with Exists tolerates everything", Tolerating({{"", "Exists", "", ""}}),
       Tainted({{"a", "b", "NoSchedule"}, {"c", "", "NoExecute"}}), true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, c.node);
    EXPECT_EQ(s.IsSuccess(), c.fits);
    if (!c.fits) {
      EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) had untolerated taint(s)"});
    }
  }
}

TEST(NodeAffinityFilterTest, NodeSelector) {
  NodeAffinityFilter f;
  auto pod_sel = [](std::map<std::string, std::string, std::less<>> sel) {
    Pod p = testing::ResourcePod({});
    p.node_selector = std::move(sel);
    return p;
  };
  auto node_lbl = [](std::map<std::string, std::string, std::less<>> l) {
    Node n;
    n.meta.labels = std::move(l);
    return n;
  };
  struct Case {
    const char* name;
    Pod pod;
    Node node;
    bool fits;
  } cases[] = {
      {"no selector", pod_sel({}), node_lbl({}), true},
      {"missing labels", pod_sel({{"foo", "bar"}}), node_lbl({}), false},
      {"same labels", pod_sel({{"foo", "bar"}}), node_lbl({{"foo", "bar"}}), true},
      {"node labels are superset", pod_sel({{"foo", "bar"}}), node_lbl({{"foo", "bar"}, {"baz", "blah"}}), true},
      {"node labels are subset", pod_sel({{"foo", "bar"}, {"baz", "blah"}}), node_lbl({{"foo", "bar"}}), false},
      {"GPU product label", pod_sel({{"nvidia.com/gpu.product", "A100"}}),
       node_lbl({{"nvidia.com/gpu.product", "T4"}}), false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, c.node);
    EXPECT_EQ(s.IsSuccess(), c.fits);
    if (!c.fits) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
    }
  }
}

// What each filter declares to the scheduler's fast paths (FilterTraits),
// and that a filter declaring nothing takes its chain off them.
TEST(FilterTraitsTest, DeclaredByEachFilter) {
  struct Case {
    std::unique_ptr<FilterPlugin> filter;
    bool in_tree, checks_fit, checks_gpu_count, checks_devices;
  };
  Case cases[] = {
      {std::make_unique<NodeUnschedulableFilter>(), true, false, false, false},
      {std::make_unique<NodeNameFilter>(), true, false, false, false},
      {std::make_unique<TaintTolerationFilter>(), true, false, false, false},
      {std::make_unique<NodeAffinityFilter>(), true, false, false, false},
      {std::make_unique<NodeResourcesFitFilter>(), true, true, true, false},
      {std::make_unique<NodeResourcesFitFilter>(std::vector<std::string>{"nvidia.com/gpu"},
                                                std::vector<std::string>{}),
       true, true, false, false},
      {std::make_unique<GpuShareFilter>(), true, false, false, true},
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
  all.push_back(std::make_unique<NodeResourcesFitFilter>(std::vector<std::string>{"example.com/foo"},
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

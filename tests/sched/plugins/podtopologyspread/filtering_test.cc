// Ported from k8s.io/kubernetes pkg/scheduler/framework/plugins/
// podtopologyspread/filtering_test.go (v1.35 feature gates: minDomains,
// NodeInclusionPolicy and matchLabelKeys on): TestSingleConstraint and
// TestMultipleConstraints run PreFilter then Filter on every node and
// compare the status codes with upstream's wantStatusCode;
// TestMultipleConstraints is ported whole (13 cases, read in 01c2588);
// TestPreFilterStateAddPod/RemovePod are checked through Check on a node
// whose pods changed after PreFilter (the dry-run contract). The cases are
// those of upstream's tables named below, with their expected values.
#include <gtest/gtest.h>

#include "spread_test_util.h"

namespace gpusched {
namespace {

using spreadtest::Exists;
using spreadtest::Fixture;
using spreadtest::MakeNode;
using spreadtest::PodB;
using spreadtest::RunPreFilter;
using Code = SchedStatus::Code;

constexpr auto kS = Code::kSuccess;
constexpr auto kU = Code::kUnschedulable;
constexpr auto kUU = Code::kUnschedulableAndUnresolvable;

struct FilterCase {
  std::string name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<Pod> existing;
  std::map<std::string, Code> want;
};

std::map<std::string, std::string> ZN(const std::string& zone, const std::string& node) {
  return {{"zone", zone}, {"node", node}};
}

void RunFilterCases(const std::vector<FilterCase>& cases) {
  PodTopologySpread pl;
  for (const FilterCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    Fixture f(tc.nodes, tc.existing);
    PodInfo info = PodInfo::Make(tc.pod, 1000);
    CycleState cycle;
    const PreFilterData* data = RunPreFilter(pl, info, *f.cluster, cycle);
    info.cycle = &cycle;
    for (size_t i = 0; i < f.cluster->size(); ++i) {
      const Node& node = f.cluster->node(i);
      SchedStatus st = pl.Filter(info, node, f.cluster->state(i));
      EXPECT_EQ(st.code(), tc.want.at(node.name())) << node.name();
      // The indexed scan's DomainTests decide each node as Filter does.
      if (data != nullptr && data->by_domain) {
        bool passes = true;
        for (const DomainTest& t : data->domain_tests) passes &= t.Passes(i);
        EXPECT_EQ(passes, st.IsSuccess()) << node.name() << ": DomainTests";
      }
      if (st.code() == kU) {
        EXPECT_EQ(st.reasons().at(0), kReasonSpreadConstraintsNotMatch);
      }
      if (st.code() == kUU) {
        EXPECT_EQ(st.reasons().at(0), kReasonSpreadNodeLabelNotMatch);
      }
    }
  }
}

std::vector<Node> FourNodes() {
  return {MakeNode("node-a", ZN("zone1", "node-a")), MakeNode("node-b", ZN("zone1", "node-b")),
          MakeNode("node-x", ZN("zone2", "node-x")), MakeNode("node-y", ZN("zone2", "node-y"))};
}

Pod Foo(const std::string& name, const std::string& node) { return PodB(name).Node(node).Label("foo", "").Obj(); }
Pod FooBar(const std::string& name, const std::string& node) {
  return PodB(name).Node(node).Label("foo", "").Label("bar", "").Obj();
}

// Zone and node labels, and foo="" (the nodes a nodeSelector foo="" takes).
std::map<std::string, std::string> ZNF(const std::string& zone, const std::string& node) {
  return {{"zone", zone}, {"node", node}, {"foo", ""}};
}

// upstream's `taints`: node.kubernetes.io/unschedulable:NoSchedule.
std::vector<Taint> Unschedulable() { return {{"node.kubernetes.io/unschedulable", "", "NoSchedule"}}; }

TEST(PodTopologySpreadFilterTest, SingleConstraint) {
  const LabelSelector foo = Exists("foo");
  const std::vector<Pod> spread2103 = {Foo("p-a1", "node-a"), Foo("p-a2", "node-a"), Foo("p-b1", "node-b"),
                                       Foo("p-y1", "node-y"), Foo("p-y2", "node-y"), Foo("p-y3", "node-y")};
  const std::vector<FilterCase> cases = {
      {"no existing pods",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kS}, {"node-y", kS}}},
      {"no existing pods, incoming pod doesn't match itself",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, Exists("bar")).Obj(),
       FourNodes(),
       {},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kS}, {"node-y", kS}}},
      {"existing pods in a different namespace do not count",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {PodB("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
        PodB("p-b1").Namespace("ns2").Node("node-a").Label("foo", "").Obj(), Foo("p-x1", "node-x"),
        Foo("p-y1", "node-y")},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kU}, {"node-y", kU}}},
      {"existing pods do not match null selector",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, std::nullopt).Obj(),
       FourNodes(),
       {Foo("p-x1", "node-x"), Foo("p-y1", "node-y")},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kS}, {"node-y", kS}}},
      {"pods spread across zones as 3/3, all nodes fit",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       spread2103,
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kS}, {"node-y", kS}}},
      {"pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", ZN("zone1", "node-a")), MakeNode("node-b", {{"zon", "zone1"}, {"node", "node-b"}}),
        MakeNode("node-x", ZN("zone2", "node-x")), MakeNode("node-y", ZN("zone2", "node-y"))},
       {Foo("p-a1", "node-a"), Foo("p-b1", "node-b"), Foo("p-x1", "node-x"), Foo("p-y1", "node-y")},
       {{"node-a", kS}, {"node-b", kUU}, {"node-x", kU}, {"node-y", kU}}},
      {"pod cannot be scheduled as all nodes don't have label 'rack'",
       PodB("p").Label("foo", "").Spread(1, "rack", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", ZN("zone1", "node-a")), MakeNode("node-x", ZN("zone2", "node-x"))},
       {},
       {{"node-a", kUU}, {"node-x", kUU}}},
      {"pods spread across nodes as 2/1/0/3, only node-x fits",
       PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       spread2103,
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
       PodB("p").Label("foo", "").Spread(2, "node", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       spread2103,
       {{"node-a", kU}, {"node-b", kS}, {"node-x", kS}, {"node-y", kU}}},
      {"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
       PodB("p").Label("bar", "").Spread(1, "node", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       spread2103,
       {{"node-a", kU}, {"node-b", kS}, {"node-x", kS}, {"node-y", kU}}},
      {"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
       PodB("p").Label("foo", "").NodeAffinity("node", "In", {"node-a", "node-y"}).Spread(1, "node", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       spread2103,
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kS}, {"node-y", kU}}},
      {"terminating Pods should be excluded",
       PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}}), MakeNode("node-b", {{"node", "node-b"}})},
       {PodB("p-a").Node("node-a").Label("foo", "").Terminating().Obj(), Foo("p-b", "node-b")},
       {{"node-a", kS}, {"node-b", kU}}},
      {"incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
       PodB("p").Label("foo", "").NodeAffinity("node", "NotIn", {"node-b"}).Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {Foo("p-b1", "node-b"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kU}, {"node-y", kU}}},
      {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third "
       "node fits",
       PodB("p").Label("foo", "").Spread(2, "node", kDoNotSchedule, foo, 4).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}}), MakeNode("node-b", {{"node", "node-b"}}),
        MakeNode("node-c", {{"node", "node-c"}})},
       {Foo("p-a1", "node-a"), Foo("p-a2", "node-a"), Foo("p-b1", "node-b"), Foo("p-b2", "node-b"),
        Foo("p-c1", "node-c")},
       {{"node-a", kU}, {"node-b", kU}, {"node-c", kS}}},
      {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes "
       "fit",
       PodB("p").Label("foo", "").Spread(2, "node", kDoNotSchedule, foo, 2).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}}), MakeNode("node-b", {{"node", "node-b"}}),
        MakeNode("node-c", {{"node", "node-c"}})},
       {Foo("p-a1", "node-a"), Foo("p-a2", "node-a"), Foo("p-b1", "node-b"), Foo("p-b2", "node-b"),
        Foo("p-c1", "node-c")},
       {{"node-a", kS}, {"node-b", kS}, {"node-c", kS}}},
      {"pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and "
       "fourth nodes fit",
       PodB("p").Label("foo", "").Spread(2, "zone", kDoNotSchedule, foo, 3).Obj(),
       FourNodes(),
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kS}}},
      {"pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
       PodB("p").Label("foo", "").Spread(2, "zone", kDoNotSchedule, foo, 1).Obj(),
       FourNodes(),
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kS}, {"node-y", kS}}},
      {"NodeAffinityPolicy honored with labelSelectors",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}, {"foo", ""}}), MakeNode("node-b", {{"node", "node-b"}, {"foo", ""}}),
        MakeNode("node-x", {{"node", "node-x"}, {"foo", ""}}), MakeNode("node-y", {{"node", "node-y"}})},
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kS}}},
      {"NodeAffinityPolicy ignored with labelSelectors",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "node", kDoNotSchedule, foo, std::nullopt, "Ignore").Obj(),
       {MakeNode("node-a", {{"node", "node-a"}, {"foo", ""}}), MakeNode("node-b", {{"node", "node-b"}, {"foo", ""}}),
        MakeNode("node-x", {{"node", "node-x"}, {"foo", ""}}), MakeNode("node-y", {{"node", "node-y"}})},
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"NodeAffinityPolicy honored with nodeAffinity",
       PodB("p").Label("foo", "").NodeAffinity("foo", "In", {""}).Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}, {"foo", ""}}), MakeNode("node-b", {{"node", "node-b"}, {"foo", ""}}),
        MakeNode("node-x", {{"node", "node-x"}, {"foo", ""}}), MakeNode("node-y", {{"node", "node-y"}}, {})},
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kS}}},
      {"NodeAffinityPolicy ignored with labelSelectors (nodeAffinity)",
       PodB("p").Label("foo", "").NodeAffinity("foo", "In", {""}).Spread(1, "node", kDoNotSchedule, foo, std::nullopt, "Ignore").Obj(),
       {MakeNode("node-a", {{"node", "node-a"}, {"foo", ""}}), MakeNode("node-b", {{"node", "node-b"}, {"foo", ""}}),
        MakeNode("node-x", {{"node", "node-x"}, {"foo", ""}}), MakeNode("node-y", {{"node", "node-y"}}, {})},
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"NodeTaintsPolicy honored",
       PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, foo, std::nullopt, "", "Honor").Obj(),
       {MakeNode("node-a", {{"node", "node-a"}, {"foo", ""}}), MakeNode("node-b", {{"node", "node-b"}, {"foo", ""}}),
        MakeNode("node-x", {{"node", "node-x"}, {"foo", ""}}), MakeNode("node-y", {{"node", "node-y"}}, {{"foo", "", "NoSchedule"}})},
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kS}}},
      {"NodeTaintsPolicy ignored",
       PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}, {"foo", ""}}), MakeNode("node-b", {{"node", "node-b"}, {"foo", ""}}),
        MakeNode("node-x", {{"node", "node-x"}, {"foo", ""}}), MakeNode("node-y", {{"node", "node-y"}}, {{"foo", "", "NoSchedule"}})},
       {Foo("p-b1", "node-a"), Foo("p-b2", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
  };
  RunFilterCases(cases);
}

// gpusched's own cases (not in upstream's tables): v1.35's handling of an
// empty selector, a null one, and matchLabelKeys.
TEST(PodTopologySpreadFilterTest, SelectorsNamespacesAndMatchLabelKeys) {
  const LabelSelector foo = Exists("foo");
  const std::vector<FilterCase> cases = {
      {"empty labelSelector ({}) counts no pod in v1.35 (countPodsMatchSelector's Empty check)",
       PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, LabelSelector{}).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}}), MakeNode("node-b", {{"node", "node-b"}})},
       {Foo("p-a1", "node-a"), Foo("p-a2", "node-a")},
       {{"node-a", kS}, {"node-b", kS}}},
      {"null labelSelector matches no pod, not even the incoming one",
       PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, std::nullopt).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}}), MakeNode("node-b", {{"node", "node-b"}})},
       {Foo("p-a1", "node-a"), Foo("p-a2", "node-a")},
       {{"node-a", kS}, {"node-b", kS}}},
      {"matchLabelKeys: the pod's value is ANDed with the selector",
       PodB("p").Label("foo", "").Label("hash", "v2").Spread(1, "node", kDoNotSchedule, foo, std::nullopt, "", "",
                                                              {"hash"}).Obj(),
       {MakeNode("node-a", {{"node", "node-a"}}), MakeNode("node-b", {{"node", "node-b"}})},
       {PodB("p-a1").Node("node-a").Label("foo", "").Label("hash", "v1").Obj(),
        PodB("p-a2").Node("node-a").Label("foo", "").Label("hash", "v1").Obj(),
        PodB("p-b1").Node("node-b").Label("foo", "").Label("hash", "v2").Obj()},
       {{"node-a", kS}, {"node-b", kU}}},
  };
  RunFilterCases(cases);
}

TEST(PodTopologySpreadFilterTest, MultipleConstraints) {
  const LabelSelector foo = Exists("foo");
  const LabelSelector bar = Exists("bar");
  const std::vector<FilterCase> cases = {
      {"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Spread(1, "node", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {Foo("p-a1", "node-a"), Foo("p-a2", "node-a"), Foo("p-b1", "node-b"), Foo("p-y1", "node-y"),
        Foo("p-y2", "node-y"), Foo("p-y3", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Spread(1, "node", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {Foo("p-a1", "node-a"), Foo("p-a2", "node-a"), Foo("p-b1", "node-b"), Foo("p-y1", "node-y"),
        Foo("p-y2", "node-y"), Foo("p-y3", "node-y"), Foo("p-y4", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kU}, {"node-y", kU}}},
      {"Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kDoNotSchedule, foo)
           .Spread(1, "node", kDoNotSchedule, bar).Obj(),
       FourNodes(),
       {Foo("p-a1", "node-a"), PodB("p-y1").Node("node-y").Label("bar", "").Obj()},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kDoNotSchedule, foo)
           .Spread(1, "node", kDoNotSchedule, bar).Obj(),
       FourNodes(),
       {PodB("p-a1").Node("node-a").Label("foo", "").Obj(), PodB("p-x1").Node("node-x").Label("bar", "").Obj(),
        PodB("p-y1").Node("node-y").Label("bar", "").Obj()},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kU}, {"node-y", kU}}},
      {"Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kDoNotSchedule, foo)
           .Spread(1, "node", kDoNotSchedule, bar).Obj(),
       FourNodes(),
       {Foo("p-a1", "node-a"), PodB("p-a2").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
        Foo("p-y1", "node-y"), PodB("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
        Foo("p-y3", "node-y")},
       {{"node-a", kU}, {"node-b", kS}, {"node-x", kU}, {"node-y", kU}}},
      {"Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
       PodB("p").Label("bar", "").Spread(1, "zone", kDoNotSchedule, foo).Spread(1, "node", kDoNotSchedule, bar).Obj(),
       FourNodes(),
       {Foo("p-a1", "node-a"), PodB("p-x1").Node("node-x").Label("bar", "").Obj(),
        PodB("p-y1").Node("node-y").Label("bar", "").Obj()},
       {{"node-a", kS}, {"node-b", kS}, {"node-x", kU}, {"node-y", kU}}},
      {"two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo).Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", ZN("zone1", "node-a")), MakeNode("node-b", ZN("zone1", "node-b")),
        MakeNode("node-x", {{"zone", "zone2"}}), MakeNode("node-y", ZN("zone2", "node-y"))},
       {Foo("p-a1", "node-a"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kS}, {"node-x", kUU}, {"node-y", kU}}},
      // The node inclusion policies (enableNodeInclusionPolicy: true, as
      // v1.35 locks it); node-y's taint is upstream's `taints`.
      {"two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "zone", kDoNotSchedule, foo)
           .Spread(1, "node", kDoNotSchedule, foo, std::nullopt, "Ignore").Obj(),
       {MakeNode("node-a", ZNF("zone1", "node-a")), MakeNode("node-b", ZNF("zone1", "node-b")),
        MakeNode("node-x", ZNF("zone2", "node-x")), MakeNode("node-y", ZN("zone2", "node-y"))},
       {Foo("p-a1", "node-a"), Foo("p-b1", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
       PodB("p").Label("foo", "").Spread(1, "zone", kDoNotSchedule, foo, std::nullopt, "", "Honor")
           .Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", ZNF("zone1", "node-a")), MakeNode("node-b", ZNF("zone1", "node-b")),
        MakeNode("node-x", ZNF("zone2", "node-x")), MakeNode("node-y", ZN("zone2", "node-y"), Unschedulable())},
       {Foo("p-a1", "node-a"), Foo("p-b1", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "zone", kDoNotSchedule, foo)
           .Spread(1, "node", kDoNotSchedule, foo).Obj(),
       {MakeNode("node-a", ZNF("zone1", "node-a")), MakeNode("node-b", ZN("zone1", "node-b")),
        MakeNode("node-x", ZNF("zone2", "node-x")), MakeNode("node-y", ZNF("zone2", "node-y"), Unschedulable())},
       {Foo("p-a1", "node-a"), Foo("p-b1", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kS}, {"node-x", kS}, {"node-y", kU}}},
      {"two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "zone", kDoNotSchedule, foo, std::nullopt, "",
                                                                  "Honor")
           .Spread(1, "node", kDoNotSchedule, foo, std::nullopt, "Ignore").Obj(),
       {MakeNode("node-a", ZNF("zone1", "node-a")), MakeNode("node-b", ZN("zone1", "node-b")),
        MakeNode("node-x", ZNF("zone2", "node-x")), MakeNode("node-y", ZNF("zone2", "node-y"), Unschedulable())},
       {Foo("p-a1", "node-a"), Foo("p-b1", "node-b"), Foo("p-y1", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kU}}},
      {"two Constraints on zone, spreads = [3/3, 2/1]",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kDoNotSchedule, bar)
           .Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {FooBar("p-a1", "node-a"), Foo("p-a2", "node-a"), FooBar("p-b1", "node-b"), Foo("p-y1", "node-y"),
        FooBar("p-y2", "node-y"), Foo("p-y3", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kS}, {"node-y", kS}}},
      {"two Constraints on zone, spreads = [3/4, 2/1]",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kDoNotSchedule, bar)
           .Spread(1, "zone", kDoNotSchedule, foo).Obj(),
       FourNodes(),
       {FooBar("p-a1", "node-a"), Foo("p-a2", "node-a"), FooBar("p-b1", "node-b"), Foo("p-y1", "node-y"),
        FooBar("p-y2", "node-y"), Foo("p-y3", "node-y"), Foo("p-y4", "node-y")},
       {{"node-a", kU}, {"node-b", kU}, {"node-x", kU}, {"node-y", kU}}},
  };
  ASSERT_EQ(cases.size(), 13u);
  RunFilterCases(cases);
}

TEST(PodTopologySpreadFilterTest, SkipsPodsWithoutHardConstraints) {
  PodTopologySpread pl;
  Fixture f({MakeNode("node-a", {{"node", "node-a"}})}, {});
  SchedStatus reject = SchedStatus::Success();
  EXPECT_EQ(pl.PreFilter(PodInfo::Make(PodB("p").Obj(), 0), *f.cluster, reject), nullptr);
  EXPECT_EQ(pl.PreFilter(PodInfo::Make(PodB("p").Spread(1, "node", kScheduleAnyway, Exists("foo")).Obj(), 0),
                         *f.cluster, reject),
            nullptr);
  EXPECT_TRUE(reject.IsSuccess());
}

// TestPreFilterStateAddPod / RemovePod, through the dry-run contract: the
// state PreFilter computed, and Check handed a node whose pods changed.
TEST(PodTopologySpreadFilterTest, CheckReadsTheNodesOwnPodsFromTheStateHandedToIt) {
  PodTopologySpread pl;
  const LabelSelector foo = Exists("foo");
  // "node a and b both impact current min match": empty cluster, a pod
  // added on node-a; node-a then holds 1, node-b 0: node-a fails, node-b fits.
  Fixture f({MakeNode("node-a", ZN("zone1", "node-a")), MakeNode("node-b", ZN("zone1", "node-b"))}, {});
  const Pod preemptor = PodB("p").Label("foo", "").Spread(1, "node", kDoNotSchedule, foo).Obj();
  PodInfo info = PodInfo::Make(preemptor, 1000);
  CycleState cycle;
  ASSERT_NE(RunPreFilter(pl, info, *f.cluster, cycle), nullptr);
  info.cycle = &cycle;
  const Pod added = Foo("p-a1", "node-a");
  NodeState with_added = f.cluster->state(0);
  with_added.pods.push_back(BoundPod{});
  with_added.pods.back().pod = &added;
  EXPECT_EQ(pl.Filter(info, f.cluster->node(0), with_added).code(), kU);
  EXPECT_EQ(pl.Filter(info, f.cluster->node(1), f.cluster->state(1)).code(), kS);
  // "add a pod in a different namespace doesn't change" anything.
  const Pod other_ns = PodB("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj();
  NodeState with_other = f.cluster->state(0);
  with_other.pods.push_back(BoundPod{});
  with_other.pods.back().pod = &other_ns;
  EXPECT_EQ(pl.Filter(info, f.cluster->node(0), with_other).code(), kS);

  // RemovePod: node-a holds 2, node-b 1 (2/1, maxSkew 1): node-a fails
  // until one of its pods is taken off (the victim of a dry run).
  Fixture g({MakeNode("node-a", ZN("zone1", "node-a")), MakeNode("node-b", ZN("zone1", "node-b"))},
            {Foo("p-a1", "node-a"), Foo("p-a2", "node-a"), Foo("p-b1", "node-b")});
  PodInfo info2 = PodInfo::Make(preemptor, 1000);
  CycleState cycle2;
  ASSERT_NE(RunPreFilter(pl, info2, *g.cluster, cycle2), nullptr);
  info2.cycle = &cycle2;
  EXPECT_EQ(pl.Filter(info2, g.cluster->node(0), g.cluster->state(0)).code(), kU);
  NodeState without_one = g.cluster->state(0);
  without_one.pods.pop_back();
  EXPECT_EQ(pl.Filter(info2, g.cluster->node(0), without_one).code(), kS);
}

}  // namespace
}  // namespace gpusched

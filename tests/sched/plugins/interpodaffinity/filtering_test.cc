// InterPodAffinity's PreFilter and Filter: upstream's
// pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go
// (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes) with
// their expected statuses, and the dry-run contract (a copy of a node with
// pods removed or added, as preemption hands it: upstream's AddPod/RemovePod).
#include <gtest/gtest.h>

#include "affinity_test_util.h"
#include "gpusched/sched/plugins/nominated_pods.h"

namespace gpusched {
namespace {

using testing::kAff;
using testing::kAnti;
using testing::kExisting;
using testing::LabeledNode;
using testing::MakePod;
using testing::Snapshot;
using testing::Term;

struct Case {
  const char* name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<Node> nodes;
  std::vector<std::string> want;  // per node; {"skip"}: PreFilter skips
};

void RunCases(const std::vector<Case>& cases) {
  InterPodAffinity pl;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Snapshot s(c.nodes, c.pods);
    EXPECT_EQ(testing::FilterAll(pl, c.pod, s), c.want);
  }
}

PodAffinityTerm WithNamespaces(PodAffinityTerm t, std::vector<std::string> ns) {
  t.namespaces = std::move(ns);
  return t;
}

PodAffinityTerm WithNamespaceSelector(PodAffinityTerm t, std::optional<LabelSelector> sel) {
  t.namespace_selector = std::move(sel);
  return t;
}

LabelSelector TeamIn(const std::string& team) {
  LabelSelector s;
  s.match_expressions.push_back({"team", "In", {team}});
  return s;
}

TEST(InterPodAffinityFilterTest, RequiredAffinitySingleNode) {
  const LabelMap pod_label = {{"service", "securityscan"}};
  const LabelMap pod_label2 = {{"security", "S1"}};
  const Pod pod = MakePod().Labels(pod_label).Node("node1");
  const std::vector<Node> node1 = {LabeledNode("node1", {{"region", "r1"}, {"zone", "z11"}})};
  // A pod with several expressions in one term.
  auto multi = [](std::vector<LabelSelectorRequirement> reqs, const std::string& topo) {
    PodAffinityTerm t;
    t.label_selector = LabelSelector{};
    t.label_selector->match_expressions = std::move(reqs);
    t.topology_key = topo;
    return t;
  };
  std::vector<Case> cases = {
      {"A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
       MakePod(), {}, node1, {"skip"}},
      {"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches "
       "the existing pod",
       MakePod().Labels(pod_label2).AffinityIn("service", "region", {"securityscan", "value2"}), {pod}, node1, {""}},
      {"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in "
       "labelSelector that matches the existing pod",
       MakePod().Labels(pod_label2).AffinityNotIn("service", "region", {"securityscan3", "value3"}), {pod}, node1,
       {""}},
      {"Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
       MakePod().Labels(pod_label2).Terms(
           {WithNamespaces(Term("service", "In", {"securityscan", "value2"}, ""), {"DiffNameSpace"})}, {}),
       {MakePod().Namespace("ns").Label("service", "securityscan").Node("node1")}, node1, {kAff}},
      {"Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
       MakePod().Labels(pod_label).AffinityIn("service", "", {"antivirusscan", "value2"}), {pod}, node1, {kAff}},
      {"satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
       MakePod().Labels(pod_label2).Terms(
           {multi({{"service", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}, "region"),
            multi({{"service", "In", {"securityscan"}}, {"service", "NotIn", {"WrongValue"}}}, "region")},
           {}),
       {pod}, node1, {""}},
      {"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node "
       "because one of the matchExpression item don't match.",
       MakePod().Labels(pod_label2).Terms(
           {multi({{"service", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}, "region"),
            multi({{"service", "In", {"securityscan2"}}, {"service", "NotIn", {"WrongValue"}}}, "region")},
           {}),
       {pod}, node1, {kAff}},
      {"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
       MakePod()
           .Labels(pod_label2)
           .AffinityIn("service", "region", {"securityscan", "value2"})
           .AntiIn("service", "node", {"antivirusscan", "value2"}),
       {pod}, node1, {""}},
      {"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
       MakePod()
           .Labels(pod_label2)
           .AffinityIn("service", "region", {"securityscan", "value2"})
           .AntiIn("service", "node", {"antivirusscan", "value2"}),
       {MakePod().Node("node1").Labels(pod_label).AntiIn("service", "node", {"antivirusscan", "value2"})}, node1,
       {""}},
      {"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
       MakePod()
           .Labels(pod_label2)
           .AffinityIn("service", "region", {"securityscan", "value2"})
           .AntiIn("service", "zone", {"securityscan", "value2"}),
       {pod}, node1, {kAnti}},
      {"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing "
       "pod",
       MakePod()
           .Labels(pod_label)
           .AffinityIn("service", "region", {"securityscan", "value2"})
           .AntiIn("service", "node", {"antivirusscan", "value2"}),
       {MakePod().Labels(pod_label).Node("node1").AntiIn("service", "zone", {"securityscan", "value2"})}, node1,
       {kExisting}},
      {"pod matches its own Label in PodAffinity and that matches the existing pod Labels",
       MakePod().Labels(pod_label).AffinityNotIn("service", "region", {"securityscan", "value2"}),
       {MakePod().Label("service", "securityscan").Node("node2")}, node1, {kAff}},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't "
       "satisfy PodAntiAffinity symmetry with the existing pod",
       MakePod().Labels(pod_label),
       {MakePod().Node("node1").Labels(pod_label).AntiIn("service", "zone", {"securityscan", "value2"})}, node1,
       {kExisting}},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy "
       "PodAntiAffinity symmetry with the existing pod",
       MakePod().Labels(pod_label),
       {MakePod().Node("node1").Labels(pod_label).AntiNotIn("service", "zone", {"securityscan", "value2"})}, node1,
       {"skip"}},
      {"satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
       MakePod().Labels(pod_label).AntiExists("service", "region").AntiExists("security", "region"),
       {MakePod().Node("node1").Labels(pod_label2).AntiExists("security", "zone")}, node1, {kAnti}},
      {"PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
       MakePod().Labels(pod_label).AntiExists("service", "zone").AntiExists("security", "zone"),
       {MakePod().Node("node1").Labels(pod_label2).AntiExists("security", "zone")}, node1, {kAnti}},
      {"PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
       MakePod().Labels(pod_label2).AntiExists("security", "zone"),
       {MakePod().Node("node1").Labels(pod_label).AntiExists("service", "zone").AntiExists("security", "zone")},
       node1, {kExisting}},
      {"PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
       MakePod().Labels({{"abc", ""}, {"xyz", ""}}).AntiExists("abc", "zone").AntiExists("def", "zone"),
       {MakePod().Node("node1").Labels({{"def", ""}, {"xyz", ""}}).AntiExists("abc", "zone").AntiExists("def", "zone")},
       node1, {kAnti}},
      {"PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
       MakePod().Labels({{"def", ""}, {"xyz", ""}}).AntiExists("abc", "zone").AntiExists("def", "zone"),
       {MakePod().Node("node1").Labels({{"abc", ""}, {"xyz", ""}}).AntiExists("abc", "zone").AntiExists("def", "zone")},
       node1, {kAnti}},
      // "PodAffinity fails PreFilter with an invalid affinity label syntax" and
      // its anti-affinity twin: such a pod is refused when it is read, as the
      // API server refuses it (pod_affinity_test.cc), so PreFilter never sees it.
      {"affinity with NamespaceSelector",
       MakePod().Labels(pod_label2).Terms(
           {WithNamespaceSelector(Term("service", "In", {"securityscan", "value2"}, "region"), TeamIn("team1"))}, {}),
       {MakePod().Node("node1").Namespace("subteam1.team1").Labels(pod_label)}, node1, {""}},
      {"affinity with non-matching NamespaceSelector",
       MakePod().Labels(pod_label2).Terms(
           {WithNamespaceSelector(Term("service", "In", {"securityscan", "value2"}, "region"), TeamIn("team1"))}, {}),
       {MakePod().Node("node1").Namespace("subteam1.team2").Labels(pod_label)}, node1, {kAff}},
      {"anti-affinity with matching NamespaceSelector",
       MakePod().Namespace("subteam1.team1").Labels(pod_label2).Terms(
           {}, {WithNamespaceSelector(Term("service", "In", {"securityscan", "value2"}, "zone"), TeamIn("team1"))}),
       {MakePod().Node("node1").Namespace("subteam2.team1").Labels(pod_label)}, node1, {kAnti}},
      {"anti-affinity with matching all NamespaceSelector",
       MakePod().Namespace("subteam1.team1").Labels(pod_label2).Terms(
           {}, {WithNamespaceSelector(Term("service", "In", {"securityscan", "value2"}, "zone"), LabelSelector{})}),
       {MakePod().Node("node1").Namespace("subteam2.team1").Labels(pod_label)}, node1, {kAnti}},
      {"anti-affinity with non-matching NamespaceSelector",
       MakePod().Namespace("subteam1.team1").Labels(pod_label2).Terms(
           {}, {WithNamespaceSelector(Term("service", "In", {"securityscan", "value2"}, "zone"), TeamIn("team1"))}),
       {MakePod().Node("node1").Namespace("subteam1.team2").Labels(pod_label)}, node1, {""}},
  };
  RunCases(cases);
}

TEST(InterPodAffinityFilterTest, RequiredAffinityMultipleNodes) {
  const LabelMap china = {{"region", "China"}};
  const LabelMap china_az1 = {{"region", "China"}, {"az", "az1"}};
  const LabelMap india = {{"region", "India"}};
  auto abc = [](const std::string& region, const std::string& zone) {
    return std::vector<Node>{LabeledNode("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
                             LabeledNode("nodeB", {{"region", region}, {"zone", zone}, {"hostname", "nodeB"}})};
  };
  std::vector<Case> cases = {
      {"A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has "
       "an existing pod that matches the affinity rules",
       MakePod().AffinityIn("foo", "region", {"bar"}), {MakePod().Name("p1").Node("node1").Labels({{"foo", "bar"}})},
       {LabeledNode("node1", china), LabeledNode("node2", china_az1), LabeledNode("node3", india)}, {"", "", kAff}},
      {"The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the "
       "collection should not be blocked from being scheduled onto any node, even there's no existing pod that "
       "matches the rule anywhere.",
       MakePod()
           .Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .AffinityIn("foo", "zone", {"bar"})
           .AffinityIn("service", "zone", {"securityscan"}),
       {MakePod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}})},
       {LabeledNode("nodeA", {{"zone", "az1"}, {"hostname", "h1"}}),
        LabeledNode("nodeB", {{"zone", "az2"}, {"hostname", "h2"}})},
       {"", ""}},
      {"The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
       MakePod()
           .Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .AffinityIn("foo", "zone", {"bar"})
           .AffinityIn("service", "zone", {"securityscan"}),
       {MakePod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}})},
       {LabeledNode("nodeA", {{"zoneLabel", "az1"}, {"hostname", "h1"}}),
        LabeledNode("nodeB", {{"zoneLabel", "az2"}, {"hostname", "h2"}})},
       {kAff, kAff}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
       "affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
       MakePod().AntiIn("foo", "region", {"abc"}), {MakePod().Node("nodeA").Labels({{"foo", "abc"}})},
       {LabeledNode("nodeA", {{"region", "r1"}, {"hostname", "nodeA"}}),
        LabeledNode("nodeB", {{"region", "r1"}, {"hostname", "nodeB"}})},
       {kAnti, kAnti}},
      {"This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
       MakePod().AntiIn("foo", "region", {"abc"}).AntiIn("service", "zone", {"securityscan"}),
       {MakePod().Node("nodeA").Labels({{"foo", "abc"}, {"service", "securityscan"}})}, abc("r1", "z2"),
       {kAnti, kAnti}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
       "affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
       MakePod().AntiIn("foo", "region", {"abc"}), {MakePod().Node("nodeA").Labels({{"foo", "abc"}})},
       {LabeledNode("nodeA", china), LabeledNode("nodeB", china_az1), LabeledNode("nodeC", india)},
       {kAnti, kAnti, ""}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
       "affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an "
       "existing pod that match the inter pod affinity rule but in different namespace)",
       MakePod().Namespace("NS1").Labels({{"foo", "123"}}).AntiIn("foo", "region", {"bar"}),
       {MakePod().Node("nodeA").Namespace("NS1").Labels({{"foo", "bar"}}),
        MakePod().Node("nodeC").Namespace("NS2").AntiIn("foo", "region", {"123"})},
       {LabeledNode("nodeA", china), LabeledNode("nodeB", china_az1), LabeledNode("nodeC", india)},
       {kAnti, kAnti, ""}},
      {"Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of "
       "the term is firstly checked, and then topologyKey of the term is also checked",
       MakePod().Label("foo", ""), {MakePod().Node("nodeA").AntiExists("foo", "invalid-node-label")}, abc("r1", "z1"),
       {"skip"}},
      {"Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
       MakePod().Node("nodeA").AntiExists("foo", "invalid-node-label"), {MakePod().Node("nodeA").Labels({{"foo", ""}})},
       abc("r1", "z1"), {"", ""}},
      {"Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's "
       "terms on all nodes",
       MakePod().Label("foo", "").Label("bar", ""),
       {MakePod().Node("nodeA").AntiExists("foo", "zone"), MakePod().Node("nodeA").AntiExists("bar", "region")},
       abc("r1", "z2"), {kExisting, kExisting}},
      {"Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one "
       "anti-affinity rule of existingPod",
       MakePod().AntiExists("foo", "zone").AntiExists("bar", "region"),
       {MakePod().Node("nodeA").Labels({{"foo", ""}}), MakePod().Node("nodeB").Labels({{"bar", ""}})},
       abc("r1", "z2"), {kAnti, kAnti}},
      {"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
       "single term match - case when one term has invalid topologyKey",
       MakePod().Label("foo", "").Label("bar", ""),
       {MakePod().Node("nodeA").AntiExists("foo", "invalid-node-label").AntiExists("bar", "zone")}, abc("r1", "z2"),
       {kExisting, ""}},
      {"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
       "single term match - case when one term has invalid topologyKey",
       MakePod().AntiExists("foo", "invalid-node-label").AntiExists("bar", "zone"),
       {MakePod().Name("podA").Node("nodeA").Labels({{"foo", ""}, {"bar", ""}})}, abc("r1", "z2"), {kAnti, ""}},
      {"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
       "single term match - case when all terms have valid topologyKey",
       MakePod().Label("foo", "").Label("bar", ""),
       {MakePod().Node("nodeA").AntiExists("foo", "region").AntiExists("bar", "zone")}, abc("r1", "z2"),
       {kExisting, kExisting}},
      {"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
       "single term match - case when all terms have valid topologyKey",
       MakePod().AntiExists("foo", "region").AntiExists("bar", "zone"),
       {MakePod().Node("nodeA").Labels({{"foo", ""}, {"bar", ""}})}, abc("r1", "z2"), {kAnti, kAnti}},
      {"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches "
       "incoming pod, so incoming pod can only be scheduled to nodeC",
       MakePod().Label("foo", "").Label("bar", ""),
       {MakePod().Node("nodeA").AntiExists("foo", "zone").AntiExists("labelA", "zone"),
        MakePod().Node("nodeB").AntiExists("bar", "zone").AntiExists("labelB", "zone")},
       {LabeledNode("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
        LabeledNode("nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}),
        LabeledNode("nodeC", {{"region", "r1"}, {"zone", "z3"}, {"hostname", "nodeC"}})},
       {kExisting, kExisting, ""}},
      {"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
       "match",
       MakePod().AffinityExists("foo", "region").AffinityExists("bar", "zone"),
       {MakePod().Name("pod1").Labels({{"foo", ""}, {"bar", ""}}).Node("nodeA")}, abc("r1", "z1"), {"", ""}},
      {"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
       "match, and the match logic should be satisfied on the same pod",
       MakePod().AffinityExists("foo", "region").AffinityExists("bar", "zone"),
       {MakePod().Node("nodeA").Name("pod1").Labels({{"foo", ""}}),
        MakePod().Node("nodeB").Name("pod2").Labels({{"bar", ""}})},
       abc("r1", "z2"), {kAff, kAff}},
  };
  RunCases(cases);
}

// The dry-run contract: Check reads the node's own pods from the NodeState
// it is handed. Preemption's copy without the blocking pod passes; the
// nominator's copy with a matching pod added fails (upstream's
// RemovePod/AddPod on the cycle state).
TEST(InterPodAffinityFilterTest, DryRunCopiesReplaceTheNodesPods) {
  InterPodAffinity pl;
  Snapshot s({LabeledNode("a", {{"kubernetes.io/hostname", "a"}}), LabeledNode("b", {{"kubernetes.io/hostname", "b"}})},
             {MakePod().Name("infer-0").Label("app", "infer").Node("a")});
  const Pod incoming = MakePod().Name("infer-1").Label("app", "infer").AntiIn("app", "kubernetes.io/hostname", {"infer"});
  PodInfo info = PodInfo::Make(incoming, 1000);
  SchedStatus reject = SchedStatus::Success();
  CycleState cycle;
  cycle.Put(&pl, pl.PreFilter(info, s.cluster, reject));
  info.cycle = &cycle;
  EXPECT_FALSE(pl.Filter(info, s.cluster.node(0), s.cluster.state(0)).IsSuccess());
  EXPECT_TRUE(pl.Filter(info, s.cluster.node(1), s.cluster.state(1)).IsSuccess());
  // Node a without infer-0 (a preemption victim).
  NodeState without = AccountingCopy(s.cluster.state(0));
  RemovePod(without, s.cluster.state(0).pods[0]);
  EXPECT_TRUE(pl.Filter(info, s.cluster.node(0), without).IsSuccess());
  // Node b with a nominated infer-2.
  const Pod nominated = MakePod().Name("infer-2").Label("app", "infer");
  NodeState with = AccountingCopy(s.cluster.state(1));
  AddNominatedPod(with, PodInfo::Make(nominated, 2000));
  EXPECT_EQ(pl.Filter(info, s.cluster.node(1), with).reasons(),
            std::vector<std::string>{kReasonAntiAffinityRulesNotMatch});
  // What explain says of node a.
  EXPECT_EQ(pl.ExplainRejection(info, s.cluster.node(0), s.cluster.state(0)),
            "node a runs /infer-0, which this pod's anti-affinity forbids on the same kubernetes.io/hostname");
}

// The skip is decided from the cluster's count of pods with required
// anti-affinity, kept at bind and unbind.
TEST(InterPodAffinityFilterTest, ClusterCountsPodsWithAffinity) {
  Snapshot s({LabeledNode("a", {})}, {MakePod().Node("a").AntiExists("x", "zone"),
                                      MakePod().Node("a").PrefAffinity(5, Term("x", "Exists", {}, "zone")),
                                      MakePod().Node("a")});
  EXPECT_EQ(s.cluster.pods_with_affinity(), 2);
  EXPECT_EQ(s.cluster.pods_with_required_anti_affinity(), 1);
  s.cluster.Unbind(0, 0);
  EXPECT_EQ(s.cluster.pods_with_affinity(), 1);
  EXPECT_EQ(s.cluster.pods_with_required_anti_affinity(), 0);
  s.cluster.RemoveNode(0);
  EXPECT_EQ(s.cluster.pods_with_affinity(), 0);
}

}  // namespace
}  // namespace gpusched

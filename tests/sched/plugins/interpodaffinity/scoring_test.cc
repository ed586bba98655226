// InterPodAffinity's PreScore, Score and NormalizeScore: upstream's
// pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go
// (TestPreferredAffinity, TestPreferredAffinityWithHardPodAffinitySymmetricWeight)
// with their expected scores.
#include <gtest/gtest.h>

#include "affinity_test_util.h"

namespace gpusched {
namespace {

using testing::LabeledNode;
using testing::MakePod;
using testing::Snapshot;
using testing::Term;

// PreScore, ScoreNodes over every node, NormalizeScore; {-1}: Skip.
std::vector<int64_t> ScoreAll(const InterPodAffinity& pl, const Pod& pod, const Snapshot& s) {
  const PodInfo info = PodInfo::Make(pod, 1000);
  if (!pl.PreScore(info, s.cluster)) return {-1};
  std::vector<size_t> nodes;
  for (size_t i = 0; i < s.cluster.size(); ++i) nodes.push_back(i);
  std::vector<int64_t> scores(nodes.size());
  pl.ScoreNodes(info, s.cluster, nodes, scores);
  pl.NormalizeScore(info, scores);
  return scores;
}

struct Case {
  const char* name;
  Pod pod;
  std::vector<Pod> pods;
  std::vector<Node> nodes;
  std::vector<int64_t> want;
};

PodAffinityTerm Multi(std::vector<LabelSelectorRequirement> reqs, const std::string& topo) {
  PodAffinityTerm t;
  t.label_selector = LabelSelector{};
  t.label_selector->match_expressions = std::move(reqs);
  t.topology_key = topo;
  return t;
}

TEST(InterPodAffinityScoreTest, PreferredAffinity) {
  const LabelMap china = {{"region", "China"}}, india = {{"region", "India"}}, az1 = {{"az", "az1"}},
                 az2 = {{"az", "az2"}}, china_az1 = {{"region", "China"}, {"az", "az1"}};
  const LabelMap s1 = {{"security", "S1"}}, s2 = {{"security", "S2"}};
  const PodAffinityTerm s1_region = Term("security", "In", {"S1"}, "region");
  const PodAffinityTerm s2_region = Term("security", "In", {"S2"}, "region");
  const PodAffinityTerm s1_az = Term("security", "In", {"S1"}, "az");
  const PodAffinityTerm s2_az = Term("security", "In", {"S2"}, "az");
  auto stay_s1 = [&](MakePod p) { return p.PrefAffinity(5, s1_region); };
  auto stay_s2 = [&](MakePod p) { return p.PrefAffinity(6, s2_region); };
  auto affinity3 = [&](MakePod p) {
    return p.PrefAffinity(8, Multi({{"security", "NotIn", {"S1"}}, {"security", "In", {"S2"}}}, "region"))
        .PrefAffinity(2, Multi({{"security", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}, "region"));
  };
  auto hard = [&](MakePod p) {
    return p.AffinityIn("security", "region", {"S1", "value2"})
        .Affinity(Multi({{"security", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}, "region"));
  };
  auto away_s1 = [&](MakePod p) { return p.PrefAnti(5, s1_az); };
  auto away_s2 = [&](MakePod p) { return p.PrefAnti(5, s2_az); };
  auto stay_s1_away_s2 = [&](MakePod p) { return p.PrefAffinity(8, s1_region).PrefAnti(5, s2_az); };
  PodAffinityTerm ns_sel = s1_region;
  ns_sel.namespaces = {"subteam2.team2"};
  ns_sel.namespace_selector = LabelSelector{};
  ns_sel.namespace_selector->match_expressions.push_back({"team", "In", {"team1"}});
  auto n = [](const std::string& node, const LabelMap& l) { return MakePod().Node(node).Labels(l); };
  const std::vector<Node> three = {LabeledNode("node1", china), LabeledNode("node2", india),
                                   LabeledNode("node3", az1)};
  std::vector<Case> cases = {
      {"all nodes are same priority as Affinity is nil", MakePod().Labels(s1), {}, three, {-1}},
      {"Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't "
       "match either pods in nodes or in topology key",
       stay_s1(MakePod().Labels(s1)), {n("node1", s1), n("node2", s2), n("node3", s1)}, three, {100, 0, 0}},
      {"All the nodes that have the same topology key & label value with one of them has an existing pod that match "
       "the affinity rules, have the same score",
       stay_s1(MakePod()), {n("node1", s1)},
       {LabeledNode("node1", china), LabeledNode("node2", china_az1), LabeledNode("node3", india)}, {100, 100, 0}},
      {"Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more "
       "matches will get high score",
       stay_s2(MakePod().Labels(s1)),
       {n("node1", s2), n("node1", s2), n("node2", s2), n("node3", s2), n("node4", s2), n("node5", s2)},
       {LabeledNode("node1", china), LabeledNode("node2", india), LabeledNode("node3", china),
        LabeledNode("node4", china), LabeledNode("node5", india)},
       {100, 0, 100, 100, 0}},
      {"Affinity: different Label operators and values for pod affinity scheduling preference, including some match "
       "failures ",
       affinity3(MakePod().Labels(s1)), {n("node1", s1), n("node2", s2), n("node3", s1)}, three, {20, 100, 0}},
      {"Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity "
       "symmetry",
       MakePod().Labels(s2), {stay_s1(n("node1", s1)), stay_s2(n("node2", s2))}, three, {0, 100, 0}},
      {"Affinity symmetry with namespace selector", MakePod().Namespace("subteam1.team1").Labels(s1),
       {n("node1", s1).PrefAffinity(5, ns_sel), stay_s2(n("node2", s2))}, three, {100, 0, 0}},
      {"AntiAffinity symmetry with namespace selector", MakePod().Namespace("subteam1.team1").Labels(s1),
       {n("node1", s1).PrefAnti(5, ns_sel), stay_s2(n("node2", s2))}, three, {0, 100, 100}},
      {"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
       MakePod().Labels(s1), {hard(n("node1", s1)), hard(n("node2", s2))}, three, {100, 100, 0}},
      {"Anti Affinity: pod that does not match existing pods in node will get high score ",
       away_s1(MakePod().Labels(s1)), {n("node1", s1), n("node2", s2)},
       {LabeledNode("node1", az1), LabeledNode("node2", china)}, {0, 100}},
      {"Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score "
       "comparing to others ",
       away_s1(MakePod().Labels(s1)), {n("node1", s1), n("node2", s1)},
       {LabeledNode("node1", az1), LabeledNode("node2", china)}, {0, 100}},
      {"Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches "
       "will get high score",
       away_s1(MakePod().Labels(s1)), {n("node1", s1), n("node1", s1), n("node2", s2)},
       {LabeledNode("node1", az1), LabeledNode("node2", india)}, {0, 100}},
      {"Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
       MakePod().Labels(s2), {away_s2(n("node1", s1)), away_s1(n("node2", s2))},
       {LabeledNode("node1", az1), LabeledNode("node2", az2)}, {0, 100}},
      {"Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod "
       "affinity & anti affinity",
       stay_s1_away_s2(MakePod().Labels(s1)), {n("node1", s1), n("node2", s1)},
       {LabeledNode("node1", china), LabeledNode("node2", az1)}, {100, 0}},
      {"Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing "
       "pods have the same labels",
       stay_s1_away_s2(MakePod().Labels(s1)),
       {n("node1", s1), n("node1", s1), n("node2", s1), n("node3", s1), n("node3", s1), n("node4", s1),
        n("node5", s1)},
       {LabeledNode("node1", china_az1), LabeledNode("node2", india), LabeledNode("node3", china),
        LabeledNode("node4", china), LabeledNode("node5", india)},
       {100, 0, 100, 100, 0}},
      {"Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in "
       "both pod affinity & anti affinity & symmetry",
       stay_s1_away_s2(MakePod().Labels(s1)),
       {n("node1", s1), n("node2", s2), stay_s1_away_s2(MakePod().Node("node3")), away_s1(MakePod().Node("node4"))},
       {LabeledNode("node1", china), LabeledNode("node2", az1), LabeledNode("node3", india),
        LabeledNode("node4", az2)},
       {100, 0, 100, 0}},
      {"Avoid panic when partial nodes in a topology don't have pods with affinity", MakePod().Labels(s1),
       {n("node1", s1), stay_s1_away_s2(MakePod().Node("node2"))},
       {LabeledNode("node1", china), LabeledNode("node2", china)}, {0, 0}},
      // "invalid Affinity fails PreScore" and "invalid AntiAffinity fails
      // PreScore": such pods are refused when read (API validation).
      {"Affinity with pods matching NamespaceSelector",
       MakePod().Namespace("subteam1.team1").Labels(s1).PrefAffinity(5, ns_sel),
       {n("node1", s1).Namespace("subteam1.team1"), n("node1", s1).Namespace("subteam1.team1"),
        n("node1", s1).Namespace("subteam1.team2"), n("node2", s1).Namespace("subteam2.team1")},
       {LabeledNode("node1", china), LabeledNode("node2", india)}, {100, 0}},
      {"Affinity with pods matching both NamespaceSelector and Namespaces fields",
       MakePod().Namespace("subteam1.team1").Labels(s1).PrefAffinity(5, ns_sel),
       {n("node1", s1).Namespace("subteam1.team1"), n("node1", s1).Namespace("subteam1.team1"),
        n("node1", s1).Namespace("subteam2.team2"), n("node2", s1).Namespace("subteam2.team1")},
       {LabeledNode("node1", china), LabeledNode("node2", india)}, {100, 0}},
      {"Affinity with pods matching NamespaceSelector (anti-affinity)",
       MakePod().Namespace("subteam1.team1").Labels(s1).PrefAnti(5, ns_sel),
       {n("node1", s1).Namespace("subteam1.team1"), n("node1", s1).Namespace("subteam1.team1"),
        n("node1", s1).Namespace("subteam1.team2"), n("node2", s1).Namespace("subteam2.team1")},
       {LabeledNode("node1", china), LabeledNode("node2", india)}, {0, 100}},
      {"Affinity with pods matching both NamespaceSelector and Namespaces fields (anti-affinity)",
       MakePod().Namespace("subteam1.team1").Labels(s1).PrefAnti(5, ns_sel),
       {n("node1", s1).Namespace("subteam1.team1"), n("node1", s1).Namespace("subteam1.team1"),
        n("node1", s1).Namespace("subteam2.team2"), n("node2", s1).Namespace("subteam2.team1")},
       {LabeledNode("node1", china), LabeledNode("node2", india)}, {0, 100}},
      {"Do not ignore preferred terms of existing pods", MakePod().Labels(s2),
       {stay_s1_away_s2(n("node1", s1)), stay_s2(n("node2", s2))},
       {LabeledNode("node1", china), LabeledNode("node2", india)}, {0, 100}},
      {"No nodes to score", MakePod().Labels(s2), {}, {}, {-1}},
  };
  InterPodAffinity pl;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Snapshot s(c.nodes, c.pods);
    EXPECT_EQ(ScoreAll(pl, c.pod, s), c.want);
  }
  // "Ignore preferred terms of existing pods": Skip.
  InterPodAffinityArgs ignore;
  ignore.ignore_preferred_terms_of_existing_pods = true;
  Snapshot s({LabeledNode("node1", china), LabeledNode("node2", india)},
             {stay_s1_away_s2(n("node1", s1)), stay_s2(n("node2", s2))});
  EXPECT_EQ(ScoreAll(InterPodAffinity(ignore), MakePod().Labels(s2), s), std::vector<int64_t>{-1});
}

TEST(InterPodAffinityScoreTest, PreferredAffinityWithHardPodAffinitySymmetricWeight) {
  PodAffinityTerm hard = Term("service", "In", {"S1"}, "region");
  hard.namespaces = {"", "subteam2.team2"};
  hard.namespace_selector = LabelSelector{{}, {{"team", "In", {"team1"}}}};
  const std::vector<Node> nodes = {LabeledNode("node1", {{"region", "China"}}),
                                   LabeledNode("node2", {{"region", "India"}}), LabeledNode("node3", {{"az", "az1"}})};
  const std::vector<Pod> pods = {MakePod().Node("node1").Affinity(hard), MakePod().Node("node2").Affinity(hard)};
  struct HardCase {
    const char* name;
    std::string ns;
    int32_t weight;
    std::vector<int64_t> want;
  } cases[] = {
      {"with default weight", "", 1, {100, 100, 0}},
      {"with zero weight", "", 0, {-1}},
      {"with no matching namespace", "subteam1.team2", 1, {-1}},
      {"with matching NamespaceSelector", "subteam1.team1", 1, {100, 100, 0}},
      {"with matching Namespaces", "subteam2.team2", 1, {100, 100, 0}},
  };
  for (const HardCase& c : cases) {
    SCOPED_TRACE(c.name);
    InterPodAffinityArgs args;
    args.hard_pod_affinity_weight = c.weight;
    Snapshot s(nodes, pods);
    EXPECT_EQ(ScoreAll(InterPodAffinity(args), MakePod().Namespace(c.ns).Label("service", "S1"), s), c.want);
  }
}

TEST(InterPodAffinityScoreTest, IgnorePreferredTermsOfExistingPods) {
  // A pod without preferred terms skips when the args say so, whatever the
  // existing pods prefer.
  InterPodAffinityArgs args;
  args.ignore_preferred_terms_of_existing_pods = true;
  InterPodAffinity pl(args);
  Snapshot s({LabeledNode("node1", {{"region", "China"}})},
             {MakePod().Node("node1").PrefAffinity(5, Term("security", "In", {"S1"}, "region"))});
  EXPECT_EQ(ScoreAll(pl, MakePod().Label("security", "S1"), s), std::vector<int64_t>{-1});
  EXPECT_EQ(ScoreAll(InterPodAffinity(), MakePod().Label("security", "S1"), s), std::vector<int64_t>{0});
}

}  // namespace
}  // namespace gpusched

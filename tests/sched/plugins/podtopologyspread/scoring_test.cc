// Ported from TestPodTopologySpreadScore in k8s.io/kubernetes
// pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go (008b365,
// 28 cases: all but the one testing MatchLabelKeysInPodTopologySpread off,
// which v1.35 turns on): PreScore
// over the candidate nodes (`nodes`; `failed` are the other nodes of the
// snapshot, whose pods still count), Score on each candidate, NormalizeScore,
// the whole normalized list asserted with upstream's values. Plus the
// system default constraints (hostname maxSkew 3, zone maxSkew 5) with the
// pod selected by a Service or owned by a ReplicaSet, and PreScore's Skip.
#include <gtest/gtest.h>

#include "spread_test_util.h"

namespace gpusched {
namespace {

using spreadtest::Exists;
using spreadtest::Fixture;
using spreadtest::MakeNode;
using spreadtest::PodB;

struct ScoreCase {
  std::string name;
  Pod pod;
  std::vector<Pod> existing;
  std::vector<Node> nodes;   // candidates
  std::vector<Node> failed;  // in the snapshot, not candidates
  std::vector<int64_t> want;
  ApiObjects objects;
};

void RunScoreCases(const std::vector<ScoreCase>& cases, const PodTopologySpreadArgs& args = {}) {
  PodTopologySpread pl(args);
  for (const ScoreCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<Node> all = tc.nodes;
    all.insert(all.end(), tc.failed.begin(), tc.failed.end());
    Fixture f(all, tc.existing);
    f.objects = tc.objects;
    f.SetObjects();
    PodInfo info = PodInfo::Make(tc.pod, 1000);
    ASSERT_TRUE(pl.PreScore(info, *f.cluster));
    std::vector<size_t> candidates;
    for (size_t i = 0; i < tc.nodes.size(); ++i) candidates.push_back(i);
    std::vector<int64_t> scores(candidates.size());
    pl.ScoreNodes(info, *f.cluster, candidates, scores);
    pl.NormalizeScore(info, scores);
    EXPECT_EQ(scores, tc.want);
  }
}

Node Host(const std::string& name) { return MakeNode(name, {{kLabelHostname, name}}); }
Node ZH(const std::string& zone, const std::string& name) {
  return MakeNode(name, {{"zone", zone}, {kLabelHostname, name}});
}
Node Zone(const std::string& name, const std::string& zone) { return MakeNode(name, {{"zone", zone}}); }
// A node labelled node=<name>, and foo="" when `foo`.
Node NodeL(const std::string& name, bool foo = false, std::vector<Taint> taints = {}) {
  std::map<std::string, std::string> labels = {{"node", name}};
  if (foo) labels["foo"] = "";
  return MakeNode(name, labels, std::move(taints));
}
// upstream's `taints`: node.kubernetes.io/unschedulable:NoSchedule.
std::vector<Taint> Unschedulable() { return {{"node.kubernetes.io/unschedulable", "", "NoSchedule"}}; }
Pod Foo(const std::string& name, const std::string& node) { return PodB(name).Node(node).Label("foo", "").Obj(); }
Pod Bar(const std::string& name, const std::string& node) { return PodB(name).Node(node).Label("bar", "").Obj(); }
Pod FooBar(const std::string& name, const std::string& node) {
  return PodB(name).Node(node).Label("foo", "").Label("bar", "").Obj();
}
std::vector<Pod> Spread(const std::vector<std::pair<std::string, int>>& per_node) {
  std::vector<Pod> out;
  for (const auto& [node, n] : per_node)
    for (int k = 1; k <= n; ++k) out.push_back(Foo("p-" + node.substr(5) + std::to_string(k), node));
  return out;
}

TEST(PodTopologySpreadScoreTest, PodTopologySpreadScore) {
  const LabelSelector foo = Exists("foo");
  auto one = [&](int32_t skew, const std::string& key) {
    return PodB("p").Label("foo", "").Spread(skew, key, kScheduleAnyway, foo).Obj();
  };
  ApiObjects service;
  service.services.push_back(ServiceSelector{"default", "svc", LabelMap{{"foo", ""}}});
  const std::vector<Pod> s4321 = Spread({{"node-a", 4}, {"node-b", 3}, {"node-c", 2}, {"node-d", 1}});
  const std::vector<Pod> s421y3 = Spread({{"node-a", 4}, {"node-b", 2}, {"node-x", 1}, {"node-y", 3}});
  const std::vector<Pod> s211 = Spread({{"node-a", 2}, {"node-b", 1}, {"node-c", 1}});
  const LabelSelector bar = Exists("bar");
  const Pod foo_zone_bar_host = PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kScheduleAnyway, foo)
                                    .Spread(1, kLabelHostname, kScheduleAnyway, bar).Obj();
  const std::vector<ScoreCase> cases = {
      {"one constraint on node, no existing pods", one(1, kLabelHostname), {}, {Host("node-a"), Host("node-b")}, {},
       {100, 100}, {}},
      {"one constraint on node, only one node is candidate", one(1, kLabelHostname),
       Spread({{"node-a", 2}, {"node-b", 1}}), {Host("node-a")}, {Host("node-b")}, {100}, {}},
      {"one constraint on node, all nodes have the same number of matching pods", one(1, kLabelHostname),
       Spread({{"node-a", 1}, {"node-b", 1}}), {Host("node-a"), Host("node-b")}, {}, {100, 100}, {}},
      {"one constraint on node, all 4 nodes are candidates", one(1, kLabelHostname),
       Spread({{"node-a", 2}, {"node-b", 1}, {"node-d", 3}}),
       {Host("node-a"), Host("node-b"), Host("node-c"), Host("node-d")}, {}, {20, 60, 100, 0}, {}},
      {"one constraint on node, null selector",
       PodB("p").Label("foo", "").Spread(1, kLabelHostname, kScheduleAnyway, std::nullopt).Obj(),
       Spread({{"node-a", 2}, {"node-b", 1}, {"node-d", 3}}),
       {Host("node-a"), Host("node-b"), Host("node-c"), Host("node-d")}, {}, {100, 100, 100, 100}, {}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=2", one(2, kLabelHostname),
       Spread({{"node-a", 2}, {"node-b", 1}, {"node-d", 3}}),
       {Host("node-a"), Host("node-b"), Host("node-c"), Host("node-d")}, {}, {33, 66, 100, 16}, {}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=3", one(3, kLabelHostname), s4321,
       {Host("node-a"), Host("node-b"), Host("node-c"), Host("node-d")}, {}, {44, 66, 77, 100}, {}},
      {"system defaulting, nodes don't have zone, pods match service", PodB("p").Label("foo", "").Obj(), s4321,
       {Host("node-a"), Host("node-b"), Host("node-c"), Host("node-d")}, {}, {44, 66, 77, 100}, service},
      {"one constraint on node, 3 out of 4 nodes are candidates", one(1, kLabelHostname), s421y3,
       {Host("node-a"), Host("node-b"), Host("node-x")}, {Host("node-y")}, {33, 83, 100}, {}},
      {"one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
       one(1, kLabelHostname), s421y3, {Host("node-a"), MakeNode("node-b", {{"n", "node-b"}}), Host("node-x")},
       {Host("node-y")}, {16, 0, 100}, {}},
      {"one constraint on zone, 3 out of 4 nodes are candidates", one(1, "zone"), s421y3,
       {ZH("zone1", "node-a"), ZH("zone1", "node-b"), ZH("zone2", "node-x")}, {ZH("zone2", "node-y")},
       {75, 75, 100}, {}},
      {"two Constraints on zone and node, 2 out of 4 nodes are candidates",
       PodB("p").Label("foo", "").Spread(1, "zone", kScheduleAnyway, foo).Spread(1, kLabelHostname, kScheduleAnyway,
                                                                                 foo).Obj(),
       Spread({{"node-a", 2}, {"node-b", 1}, {"node-x", 2}, {"node-y", 4}}),
       {ZH("zone1", "node-a"), ZH("zone2", "node-x")}, {ZH("zone1", "node-b"), ZH("zone2", "node-y")}, {100, 63},
       {}},
      {"two Constraints on zone, 2 out of 4 nodes are candidates",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kScheduleAnyway, foo)
           .Spread(1, "zone", kScheduleAnyway, bar).Obj(),
       {FooBar("p-a1", "node-a"), Foo("p-a2", "node-a"), FooBar("p-b1", "node-b"), Foo("p-y1", "node-y"),
        FooBar("p-y2", "node-y"), Foo("p-y3", "node-y")},
       {Zone("node-a", "zone1"), Zone("node-x", "zone2")}, {Zone("node-b", "zone1"), Zone("node-y", "zone2")},
       {85, 100}, {}},
      {"two Constraints on zone and node, with different labelSelectors", foo_zone_bar_host,
       {Foo("p-a1", "node-a"), FooBar("p-b1", "node-b"), Foo("p-y1", "node-y"), Bar("p-y2", "node-y")},
       {ZH("zone1", "node-a"), ZH("zone1", "node-b"), ZH("zone2", "node-x"), ZH("zone2", "node-y")}, {},
       {60, 20, 100, 60}, {}},
      {"two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods", foo_zone_bar_host,
       {Bar("p-b1", "node-b"), Foo("p-x1", "node-x"), FooBar("p-y1", "node-y")},
       {ZH("zone1", "node-a"), ZH("zone1", "node-b"), ZH("zone2", "node-x"), ZH("zone2", "node-y")}, {},
       {100, 60, 40, 0}, {}},
      {"two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
       foo_zone_bar_host,
       {Foo("p-a1", "node-a"), FooBar("p-b1", "node-b"), Foo("p-y1", "node-y"), Bar("p-y2", "node-y")},
       {ZH("zone1", "node-a"), ZH("zone1", "node-b"), ZH("zone2", "node-x")}, {ZH("zone2", "node-y")},
       {50, 25, 100}, {}},
      {"existing pods in a different namespace do not count", one(1, kLabelHostname),
       {PodB("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(), Foo("p-a2", "node-a"),
        Foo("p-b1", "node-b"), Foo("p-b2", "node-b")},
       {Host("node-a"), Host("node-b")}, {}, {100, 33}, {}},
      {"terminating Pods should be excluded", one(1, kLabelHostname),
       {PodB("p-a").Node("node-a").Label("foo", "").Terminating().Obj(), Foo("p-b", "node-b")},
       {Host("node-a"), Host("node-b")}, {}, {100, 0}, {}},
      // Artificial, as upstream says: the API server refuses minDomains with
      // ScheduleAnyway.
      {"minDomains has no effect when ScheduleAnyway",
       PodB("p").Label("foo", "").Spread(2, "node", kScheduleAnyway, foo, 10).Obj(),
       Spread({{"node-a", 2}, {"node-b", 2}, {"node-c", 1}}),
       {NodeL("node-a"), NodeL("node-b"), NodeL("node-c")}, {}, {75, 75, 100}, {}},
      // The node inclusion policies (enableNodeInclusionPolicy: true, as
      // v1.35 locks it); node-c's taint is upstream's `taints`.
      {"NodeAffinityPolicy honoed with labelSelectors",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "node", kScheduleAnyway, foo).Obj(), s211,
       {NodeL("node-a", true), NodeL("node-b", true), NodeL("node-c")}, {}, {0, 33, 100}, {}},
      {"NodeAffinityPolicy ignored with labelSelectors",
       PodB("p").Label("foo", "").NodeSelector("foo", "").Spread(1, "node", kScheduleAnyway, foo, std::nullopt,
                                                                  "Ignore").Obj(),
       s211, {NodeL("node-a", true), NodeL("node-b", true), NodeL("node-c")}, {}, {66, 100, 100}, {}},
      {"NodeAffinityPolicy honoed with nodeAffinity",
       PodB("p").Label("foo", "").NodeAffinity("foo", "In", {""}).Spread(1, "node", kScheduleAnyway, foo).Obj(),
       s211, {NodeL("node-a", true), NodeL("node-b", true), NodeL("node-c")}, {}, {0, 33, 100}, {}},
      {"NodeAffinityPolicy ignored with nodeAffinity",
       PodB("p").Label("foo", "").NodeAffinity("foo", "In", {""}).Spread(1, "node", kScheduleAnyway, foo,
                                                                          std::nullopt, "Ignore").Obj(),
       s211, {NodeL("node-a", true), NodeL("node-b", true), NodeL("node-c")}, {}, {66, 100, 100}, {}},
      {"NodeTaintsPolicy honored",
       PodB("p").Label("foo", "").Spread(1, "node", kScheduleAnyway, foo, std::nullopt, "", "Honor").Obj(), s211,
       {NodeL("node-a"), NodeL("node-b"), NodeL("node-c", false, Unschedulable())}, {}, {0, 33, 100}, {}},
      {"NodeTaintsPolicy ignored", PodB("p").Label("foo", "").Spread(1, "node", kScheduleAnyway, foo).Obj(), s211,
       {NodeL("node-a"), NodeL("node-b"), NodeL("node-c", false, Unschedulable())}, {}, {66, 100, 100}, {}},
      {"matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
       PodB("p").Label("foo", "").Label("bar", "").Spread(1, "zone", kScheduleAnyway, LabelSelector{}, std::nullopt,
                                                          "", "", {"foo"})
           .Spread(1, kLabelHostname, kScheduleAnyway, LabelSelector{}, std::nullopt, "", "", {"bar"}).Obj(),
       {Foo("p-a1", "node-a"), FooBar("p-b1", "node-b"), Foo("p-y1", "node-c"), Bar("p-y2", "node-c")},
       {ZH("zone1", "node-a"), ZH("zone1", "node-b"), ZH("zone2", "node-c"), ZH("zone2", "node-d")}, {},
       {60, 20, 60, 100}, {}},
      {"matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
       PodB("p").Label("foo", "").Label("bar", "").Label("baz", "").Spread(1, "zone", kScheduleAnyway, foo)
           .Spread(1, kLabelHostname, kScheduleAnyway, bar, std::nullopt, "", "", {"baz"}).Obj(),
       {Foo("p-a1", "node-a"), PodB("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Label("baz", "").Obj(),
        Foo("p-c1", "node-c"), Bar("p-c2", "node-c"),
        PodB("p-d3").Node("node-c").Label("bar", "").Label("baz", "").Obj()},
       {ZH("zone1", "node-a"), ZH("zone1", "node-b"), ZH("zone2", "node-c"), ZH("zone2", "node-d")}, {},
       {60, 20, 60, 100}, {}},
  };
  // Upstream's 28 cases but "matchLabelKeys ignored when feature gate
  // disabled" (MatchLabelKeysInPodTopologySpread off; v1.35 has it on).
  ASSERT_EQ(cases.size(), 27u);
  RunScoreCases(cases);
}

TEST(PodTopologySpreadScoreTest, PreScoreSkips) {
  PodTopologySpread pl;
  Fixture f({Host("node-a")}, {});
  // No constraint, no Service, no controller: the system defaults have no
  // selector (the trace pod's case, decided without a scan).
  EXPECT_FALSE(pl.PreScore(PodInfo::Make(PodB("p").Label("foo", "").Obj(), 0), *f.cluster));
  // Only DoNotSchedule constraints: nothing to score.
  EXPECT_FALSE(pl.PreScore(
      PodInfo::Make(PodB("p").Spread(1, "zone", kDoNotSchedule, Exists("foo")).Obj(), 0), *f.cluster));
  // An owner the input does not hold: empty default selector.
  EXPECT_FALSE(pl.PreScore(PodInfo::Make(PodB("p").Owner("ReplicaSet", "rs").Obj(), 0), *f.cluster));
  // defaultingType List without constraints: no defaults.
  PodTopologySpreadArgs list;
  list.defaulting_type = "List";
  f.objects.services.push_back(ServiceSelector{"default", "svc", LabelMap{{"foo", ""}}});
  f.SetObjects();
  EXPECT_TRUE(pl.PreScore(PodInfo::Make(PodB("p").Label("foo", "").Obj(), 0), *f.cluster));
  EXPECT_FALSE(PodTopologySpread(list).PreScore(PodInfo::Make(PodB("p").Label("foo", "").Obj(), 0), *f.cluster));
}

TEST(PodTopologySpreadScoreTest, DefaultSelector) {
  ApiObjects objects;
  objects.services.push_back(ServiceSelector{"default", "a", LabelMap{{"app", "web"}}});
  objects.services.push_back(ServiceSelector{"default", "nil", std::nullopt});
  objects.services.push_back(ServiceSelector{"other", "b", LabelMap{{"app", "web"}, {"x", "y"}}});
  LabelSelector rs;
  rs.match_labels["app"] = "web";
  rs.match_expressions.push_back({"tier", "In", {"gpu"}});
  objects.spread_controllers.push_back(ControllerSelector{"ReplicaSet", "apps/v1", "default", "web-1", rs});
  LabelSelector dep;
  dep.match_labels["app"] = "web";
  objects.spread_controllers.push_back(ControllerSelector{"Deployment", "apps/v1", "default", "web", dep});

  const Pod by_service = PodB("p").Label("app", "web").Obj();
  LabelSelector got = DefaultSelector(by_service, objects);
  EXPECT_EQ(got.match_labels, (LabelMap{{"app", "web"}}));
  EXPECT_TRUE(got.match_expressions.empty());

  const Pod by_rs = PodB("p").Label("app", "web").Label("tier", "gpu").Owner("ReplicaSet", "web-1").Obj();
  got = DefaultSelector(by_rs, objects);
  ASSERT_EQ(got.match_expressions.size(), 2u);  // the RS's requirements added to the service's labels
  EXPECT_EQ(got.match_expressions[0].key, "app");
  EXPECT_EQ(got.match_expressions[1].key, "tier");

  // A pod gpusched made for a Deployment: its would-be ReplicaSet's selector.
  const Pod by_dep = PodB("p").Label("app", "other").Label("pod-template-hash", "abc").Owner("Deployment", "web").Obj();
  got = DefaultSelector(by_dep, objects);
  ASSERT_EQ(got.match_expressions.size(), 2u);
  EXPECT_EQ(got.match_expressions[1].key, "pod-template-hash");
  EXPECT_EQ(got.match_expressions[1].values, std::vector<std::string>{"abc"});

  // The wrong group for a ReplicaSet: not a supported controller.
  EXPECT_TRUE(DefaultSelector(PodB("p").Owner("ReplicaSet", "web-1", "extensions/v1beta1").Obj(), objects).Empty());
}

}  // namespace
}  // namespace gpusched

// Ported from TestPodTopologySpreadScore in k8s.io/kubernetes
// pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go: PreScore
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
Pod Foo(const std::string& name, const std::string& node) { return PodB(name).Node(node).Label("foo", "").Obj(); }
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
  };
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

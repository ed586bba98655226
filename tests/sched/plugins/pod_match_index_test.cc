#include "gpusched/sched/plugins/pod_match_index.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;

Node ZonedNode(const std::string& name, const std::string& zone) {
  Node n = GpuNode(name, 8);
  if (!zone.empty()) n.meta.labels["zone"] = zone;
  return n;
}

Pod LabelledPod(const std::string& name, const std::string& ns, std::map<std::string, std::string> labels) {
  Pod p = testing::GpuPod(name, 0, 100);
  p.meta.namespace_ = ns;
  for (auto& [k, v] : labels) p.meta.labels[k] = v;
  return p;
}

PodMatcher AppMatcher(const std::string& app, std::vector<std::string> namespaces = {"default"}) {
  PodMatcher m;
  m.namespaces = std::move(namespaces);
  m.selector.match_labels["app"] = app;
  return m;
}

TEST(PodMatchIndexTest, CountsPerNodeAndPerDomain) {
  // a, b in zone z1; c in z2; d without a zone.
  ClusterState c({ZonedNode("a", "z1"), ZonedNode("b", "z1"), ZonedNode("c", "z2"), ZonedNode("d", "")});
  std::deque<Pod> pods;
  auto bind = [&](size_t node, Pod p) {
    pods.push_back(std::move(p));
    c.Bind(node, {}, {}, pods.size(), 0, {}, {}, &pods.back());
  };
  bind(0, LabelledPod("w0", "default", {{"app", "web"}}));
  bind(0, LabelledPod("w1", "default", {{"app", "web"}}));
  bind(1, LabelledPod("w2", "other", {{"app", "web"}}));  // another namespace
  bind(2, LabelledPod("w3", "default", {{"app", "web"}}));
  bind(3, LabelledPod("w4", "default", {{"app", "web"}}));  // no zone: counted per node only
  bind(2, LabelledPod("db", "default", {{"app", "db"}}));
  Pod gone = LabelledPod("w5", "default", {{"app", "web"}});
  gone.deleting = true;
  bind(1, gone);

  PodMatchIndex index;
  auto web = index.Get(c, AppMatcher("web"), {"zone"});
  EXPECT_EQ(web->per_node, (std::vector<int32_t>{2, 1, 1, 1}));  // the terminating pod counts unless skip_deleting
  EXPECT_EQ(web->total, 5);
  const PodMatchCounts::ByKey& z = web->For("zone");
  EXPECT_EQ(z.domains->names, (std::vector<std::string>{"z1", "z2"}));
  EXPECT_EQ(z.counts, (std::vector<int64_t>{3, 1}));

  PodMatcher live = AppMatcher("web");
  live.skip_deleting = true;
  EXPECT_EQ(index.Get(c, live, {"zone"})->per_node, (std::vector<int32_t>{2, 0, 1, 1}));
  PodMatcher both = AppMatcher("web", {"default", "other"});
  EXPECT_EQ(index.Get(c, both, {"zone"})->For("zone").counts, (std::vector<int64_t>{4, 1}));
  PodMatcher any = AppMatcher("web", {});
  any.any_namespace = true;
  EXPECT_EQ(index.Get(c, any, {})->total, 6);
  PodMatcher nothing = AppMatcher("web");
  nothing.nothing = true;
  EXPECT_EQ(index.Get(c, nothing, {})->total, 0);

  // A pod leaves a, one comes to c: the counts follow.
  ASSERT_TRUE(c.Unbind(0, 1));
  bind(2, LabelledPod("w6", "default", {{"app", "web"}}));
  auto after = index.Get(c, AppMatcher("web"), {"zone"});
  EXPECT_EQ(after->per_node, (std::vector<int32_t>{1, 1, 2, 1}));
  EXPECT_EQ(after->For("zone").counts, (std::vector<int64_t>{2, 2}));
  // What a caller held keeps the counts it was handed.
  EXPECT_EQ(web->per_node, (std::vector<int32_t>{2, 1, 1, 1}));
  EXPECT_EQ(z.counts, (std::vector<int64_t>{3, 1}));
}

TEST(PodMatchIndexTest, KeyTellsMatchersApart) {
  PodMatcher a = AppMatcher("web"), b = AppMatcher("web");
  EXPECT_EQ(a.Key(), b.Key());
  b.skip_deleting = true;
  EXPECT_NE(a.Key(), b.Key());
  b = AppMatcher("web", {"default", "x"});
  EXPECT_NE(a.Key(), b.Key());
  b = AppMatcher("we");
  b.selector.match_labels["app"] = "we";
  b.selector.match_expressions.push_back({"b", "Exists", {}});
  EXPECT_NE(a.Key(), b.Key());
  b = a;
  b.nothing = true;
  EXPECT_NE(a.Key(), b.Key());
}

// The index against matching every node's pods, over random binds, unbinds,
// added and removed nodes, a log outrun, and several matchers used in turn
// (each catching up on what happened since its last use).
TEST(PodMatchIndexTest, AgreesWithThePlainCountOnRandomClusters) {
  Rng rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<Node> nodes;
    const size_t n = 1 + rng.Uniform(20);
    for (size_t i = 0; i < n; ++i)
      nodes.push_back(ZonedNode("n" + std::to_string(i), rng.Uniform(5) ? "z" + std::to_string(rng.Uniform(3)) : ""));
    ClusterState c(nodes);
    std::deque<Pod> pods;
    std::vector<std::pair<size_t, uint64_t>> bound;
    uint64_t next = 0;
    std::vector<PodMatcher> matchers;
    for (const char* app : {"a", "b", "c"}) {
      matchers.push_back(AppMatcher(app));
      PodMatcher m = AppMatcher(app, {"default", "x"});
      m.skip_deleting = true;
      matchers.push_back(m);
    }
    PodMatcher tier;
    tier.any_namespace = true;
    tier.selector.match_expressions.push_back({"tier", "In", {"1", "2"}});
    matchers.push_back(tier);
    PodMatchIndex index;
    for (int step = 0; step < 300; ++step) {
      const uint64_t op = rng.Uniform(20);
      if (op < 12 || bound.empty()) {
        const size_t node = rng.Uniform(c.size());
        if (!c.present(node)) continue;
        std::map<std::string, std::string> labels{{"app", std::string(1, static_cast<char>('a' + rng.Uniform(4)))}};
        if (rng.Uniform(3) == 0) labels["tier"] = std::to_string(rng.Uniform(3));
        Pod p = LabelledPod("p" + std::to_string(next), rng.Uniform(4) ? "default" : "x", labels);
        p.deleting = rng.Uniform(8) == 0;
        pods.push_back(std::move(p));
        // Now and then a pod known only by its requests.
        c.Bind(node, {}, {}, next, 0, {}, {}, rng.Uniform(10) ? &pods.back() : nullptr);
        bound.push_back({node, next++});
      } else if (op < 18) {
        const size_t k = rng.Uniform(bound.size());
        if (c.present(bound[k].first)) c.Unbind(bound[k].first, bound[k].second);
        bound[k] = bound.back();
        bound.pop_back();
      } else if (op == 18) {
        c.AddNode(ZonedNode("m" + std::to_string(step), "z" + std::to_string(rng.Uniform(3))));
      } else if (c.num_present() > 1) {
        const size_t gone = rng.Uniform(c.size());
        if (c.present(gone)) c.RemoveNode(gone);
      }
      if (rng.Uniform(60) == 0) testing::ChurnPastTheLog(c, c.version());
      const PodMatcher& m = matchers[rng.Uniform(matchers.size())];
      auto got = index.Get(c, m, {"zone"});
      ASSERT_EQ(got->per_node.size(), c.size());
      std::map<std::string, int64_t> want_zone;
      for (size_t i = 0; i < c.size(); ++i) {
        int32_t want = 0;
        if (c.present(i))
          for (const BoundPod& b : c.state(i).pods)
            want += b.pod && m.Matches(*b.pod) ? 1 : 0;
        ASSERT_EQ(got->per_node[i], want) << "trial " << trial << " step " << step << " node " << i;
        EXPECT_EQ(want, PodMatchIndex::CountOn(c.present(i) ? c.state(i).pods : std::vector<BoundPod>{}, m));
        auto z = c.node(i).meta.labels.find("zone");
        if (c.present(i) && z != c.node(i).meta.labels.end()) want_zone[z->second] += want;
      }
      const PodMatchCounts::ByKey& by = got->For("zone");
      std::map<std::string, int64_t> got_zone;
      for (size_t d = 0; d < by.counts.size(); ++d) got_zone[by.domains->names[d]] = by.counts[d];
      ASSERT_EQ(got_zone, want_zone) << "trial " << trial << " step " << step;
    }
  }
}

}  // namespace
}  // namespace gpusched

#include "gpusched/sched/plugins/interpodaffinity/anti_affinity_index.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/util/random.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

Node HostNode(const std::string& name, const std::string& zone) {
  Node n = testing::GpuNode(name, 8);
  n.meta.labels[kLabelHostname] = name;
  if (!zone.empty()) n.meta.labels["zone"] = zone;
  return n;
}

PodAffinityTerm Term(const std::string& app, const std::string& key) {
  PodAffinityTerm t;
  t.label_selector.emplace();
  t.label_selector->match_labels["app"] = app;
  t.topology_key = key;
  return t;
}

// A pod of `app` in `ns` with required anti-affinity `terms`.
Pod AntiPod(const std::string& name, const std::string& ns, const std::string& app, std::vector<PodAffinityTerm> terms) {
  Pod p = testing::GpuPod(name, 0, 100);
  p.meta.namespace_ = ns;
  p.meta.labels["app"] = app;
  if (!terms.empty()) {
    auto spec = std::make_shared<PodAffinitySpec>();
    spec->anti_affinity.emplace();
    spec->anti_affinity->required = std::move(terms);
    p.pod_affinity = std::move(spec);
  }
  return p;
}

bool All(const CarriedTerm&) { return true; }

TEST(AntiAffinityIndexTest, DistinctTermsWithWhereTheyAreCarried) {
  ClusterState c({HostNode("a", "z1"), HostNode("b", "z1"), HostNode("c", "")});
  std::deque<Pod> pods;
  auto bind = [&](size_t node, Pod p) {
    pods.push_back(std::move(p));
    c.Bind(node, {}, {}, pods.size(), 0, {}, {}, &pods.back());
  };
  bind(0, AntiPod("w0", "default", "web", {Term("web", kLabelHostname)}));
  bind(0, AntiPod("w1", "default", "web", {Term("web", kLabelHostname)}));
  bind(1, AntiPod("w2", "default", "web", {Term("web", kLabelHostname), Term("db", "zone")}));
  bind(2, AntiPod("w3", "default", "web", {Term("db", "zone")}));   // c has no zone: not counted there
  bind(2, AntiPod("w4", "other", "web", {Term("web", kLabelHostname)}));  // another namespace: another term
  bind(1, AntiPod("plain", "default", "web", {}));

  AntiAffinityIndex index;
  auto terms = index.Terms(c, All);
  ASSERT_EQ(terms.size(), 3u);
  EXPECT_EQ(terms[0]->term.topology_key, kLabelHostname);
  EXPECT_EQ(terms[0]->owner_ns, "default");
  EXPECT_EQ(terms[0]->per_node, (std::vector<std::pair<uint32_t, int32_t>>{{0, 2}, {1, 1}}));
  EXPECT_EQ(terms[0]->labeled, 3);
  EXPECT_EQ(terms[1]->term.topology_key, "zone");
  EXPECT_EQ(terms[1]->per_node, (std::vector<std::pair<uint32_t, int32_t>>{{1, 1}, {2, 1}}));
  EXPECT_EQ(terms[1]->labeled, 1);  // only b's: c has no zone
  EXPECT_EQ(terms[1]->InDomain(terms[1]->domains->Find("z1")), 1);
  EXPECT_EQ(terms[2]->owner_ns, "other");
  EXPECT_EQ(terms[2]->OnNode(2), 1);

  // Which terms select a pod of app=db in namespace default: the zone one.
  Pod db = AntiPod("db", "default", "db", {});
  auto selecting = index.Terms(c, [&](const CarriedTerm& t) {
    return PodAffinityTermMatches(t.term, t.owner_ns, db, nullptr);
  });
  ASSERT_EQ(selecting.size(), 1u);
  EXPECT_EQ(selecting[0]->term.topology_key, "zone");

  // w2 leaves b: its zone term is carried only where there is no zone.
  ASSERT_TRUE(c.Unbind(1, 3));
  auto after = index.Terms(c, All);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0]->per_node, (std::vector<std::pair<uint32_t, int32_t>>{{0, 2}}));
  EXPECT_EQ(after[1]->owner_ns, "other");
  // What a caller held is unchanged.
  EXPECT_EQ(terms[0]->per_node, (std::vector<std::pair<uint32_t, int32_t>>{{0, 2}, {1, 1}}));
}

TEST(AntiAffinityIndexTest, KeyTellsTermsApart) {
  const PodAffinityTerm t = Term("web", kLabelHostname);
  EXPECT_EQ(AntiAffinityIndex::Key(t, "default"), AntiAffinityIndex::Key(Term("web", kLabelHostname), "default"));
  EXPECT_NE(AntiAffinityIndex::Key(t, "default"), AntiAffinityIndex::Key(t, "other"));
  EXPECT_NE(AntiAffinityIndex::Key(t, "default"), AntiAffinityIndex::Key(Term("web", "zone"), "default"));
  PodAffinityTerm ns = t;
  ns.namespaces = {"x"};
  EXPECT_NE(AntiAffinityIndex::Key(t, "default"), AntiAffinityIndex::Key(ns, "default"));
  PodAffinityTerm sel = t;
  sel.namespace_selector.emplace();
  EXPECT_NE(AntiAffinityIndex::Key(t, "default"), AntiAffinityIndex::Key(sel, "default"));
  PodAffinityTerm nothing = t;
  nothing.label_selector.reset();
  EXPECT_NE(AntiAffinityIndex::Key(t, "default"), AntiAffinityIndex::Key(nothing, "default"));
}

// The index against every bound pod's terms, over random binds, unbinds,
// added and removed nodes and a log outrun.
TEST(AntiAffinityIndexTest, AgreesWithThePlainCountOnRandomClusters) {
  Rng rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<Node> nodes;
    const size_t n = 1 + rng.Uniform(15);
    for (size_t i = 0; i < n; ++i)
      nodes.push_back(HostNode("n" + std::to_string(i), rng.Uniform(4) ? "z" + std::to_string(rng.Uniform(2)) : ""));
    ClusterState c(nodes);
    std::deque<Pod> pods;
    std::vector<std::pair<size_t, uint64_t>> bound;
    uint64_t next = 0;
    AntiAffinityIndex index;
    for (int step = 0; step < 200; ++step) {
      const uint64_t op = rng.Uniform(20);
      if (op < 12 || bound.empty()) {
        const size_t node = rng.Uniform(c.size());
        if (!c.present(node)) continue;
        std::vector<PodAffinityTerm> terms;
        const std::string app(1, static_cast<char>('a' + rng.Uniform(3)));
        if (rng.Uniform(3)) terms.push_back(Term(app, rng.Uniform(2) ? kLabelHostname : "zone"));
        if (rng.Uniform(4) == 0) terms.push_back(Term("b", "zone"));
        pods.push_back(AntiPod("p" + std::to_string(next), rng.Uniform(3) ? "default" : "x", app, terms));
        c.Bind(node, {}, {}, next, 0, {}, {}, &pods.back());
        bound.push_back({node, next++});
      } else if (op < 18) {
        const size_t k = rng.Uniform(bound.size());
        if (c.present(bound[k].first)) c.Unbind(bound[k].first, bound[k].second);
        bound[k] = bound.back();
        bound.pop_back();
      } else if (op == 18) {
        c.AddNode(HostNode("m" + std::to_string(step), "z" + std::to_string(rng.Uniform(2))));
      } else if (c.num_present() > 1) {
        const size_t gone = rng.Uniform(c.size());
        if (c.present(gone)) c.RemoveNode(gone);
      }
      if (rng.Uniform(50) == 0) testing::ChurnPastTheLog(c, c.version());
      if (rng.Uniform(3)) continue;  // catch up over several changes now and then
      // (term key) -> node -> pods carrying it, counted plainly.
      std::map<std::string, std::map<uint32_t, int32_t>> want;
      std::map<std::string, int64_t> want_labeled;
      for (size_t i = 0; i < c.size(); ++i) {
        if (!c.present(i)) continue;
        for (const BoundPod& b : c.state(i).pods) {
          if (!b.pod || !HasRequiredPodAntiAffinity(*b.pod)) continue;
          for (const PodAffinityTerm& t : b.pod->pod_affinity->RequiredAntiAffinity()) {
            const std::string key = AntiAffinityIndex::Key(t, b.pod->ns());
            ++want[key][static_cast<uint32_t>(i)];
            if (c.node(i).meta.labels.count(t.topology_key)) ++want_labeled[key];
          }
        }
      }
      std::map<std::string, std::map<uint32_t, int32_t>> got;
      std::map<std::string, int64_t> got_labeled;
      for (const auto& t : index.Terms(c, All)) {
        const std::string key = AntiAffinityIndex::Key(t->term, t->owner_ns);
        for (const auto& [node, k] : t->per_node) got[key][node] = k;
        got_labeled[key] = t->labeled;
        int64_t sum = 0;
        for (const auto& [d, k] : t->per_domain) sum += k;
        EXPECT_EQ(sum, t->labeled);
      }
      // Terms carried only on nodes without their key are not handed out.
      for (auto it = want.begin(); it != want.end();)
        it = want_labeled[it->first] > 0 ? std::next(it) : want.erase(it);
      std::erase_if(want_labeled, [](const auto& e) { return e.second == 0; });
      ASSERT_EQ(got, want) << "trial " << trial << " step " << step;
      ASSERT_EQ(got_labeled, want_labeled) << "trial " << trial << " step " << step;
    }
  }
}

}  // namespace
}  // namespace gpusched

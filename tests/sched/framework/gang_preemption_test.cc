// PreemptionGangs (--preempt-gangs): each pod's gang, the co-victims of a
// node's victims (KAI's rule: a gang left below minCount loses every member
// on the cluster, a surplus member goes alone), the gangs an eviction
// breaks, and pickOneNodeForPreemption counting co-victims.
#include "gpusched/sched/framework/gang_preemption.h"

#include <gtest/gtest.h>

#include <map>

#include "gpusched/model/pod_requests.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;
using testing::OperatorGroup;

struct GangVictimsFixture {
  std::vector<Pod> pods;
  std::vector<const Pod*> ptrs;
  GangSet gangs;
  ClusterState cluster{std::vector<Node>{GpuNode("n0", 8), GpuNode("n1", 8), GpuNode("n2", 8)}};
  std::map<uint64_t, size_t> node_of;

  // pods a-0..a-2 (gang a, minCount 3), b-0..b-2 (gang b, minCount 2),
  // solo; a-2 has priority 50, the others 0.
  GangVictimsFixture() {
    for (const char* n : {"a-0", "a-1", "a-2", "b-0", "b-1", "b-2", "solo"}) pods.push_back(GpuPod(n, 2));
    pods[2].priority = 50;
    for (const Pod& p : pods) ptrs.push_back(&p);
    gangs = GroupIntoGangs({OperatorGroup("a", 3, {"a-0", "a-1", "a-2"}), OperatorGroup("b", 2, {"b-0", "b-1", "b-2"})}, ptrs);
    // a-0, b-0 on n0; a-1, b-1 on n1; a-2, solo on n2; b-2 not bound.
    const std::pair<size_t, size_t> binds[] = {{0, 0}, {3, 0}, {1, 1}, {4, 1}, {2, 2}, {6, 2}};
    for (auto [id, node] : binds) {
      const PodInfo info = PodInfo::Make(pods[id], id);
      cluster.Bind(node, info.requests, info.non_zero_requests, id, pods[id].Priority(), info.gpu,
                   cluster.DefaultGpuChoice(node, info.gpu));
      node_of[id] = node;
    }
  }
  PreemptionGangs::PlaceFn Place() const {
    return [this](uint64_t id) -> std::optional<size_t> {
      auto it = node_of.find(id);
      return it == node_of.end() ? std::nullopt : std::optional<size_t>(it->second);
    };
  }
  BoundPod On(size_t node, uint64_t id) const {
    for (const BoundPod& bp : cluster.state(node).pods)
      if (bp.id == id) return bp;
    ADD_FAILURE() << id << " not on " << node;
    return {};
  }
};

std::vector<std::pair<size_t, uint64_t>> CoVictimIds(const std::vector<CoVictim>& cv) {
  std::vector<std::pair<size_t, uint64_t>> out;
  for (const CoVictim& c : cv) out.emplace_back(c.node, c.pod.id);
  return out;
}

TEST(PreemptionGangsTest, GangsOfPods) {
  GangVictimsFixture f;
  PreemptionGangs g(f.gangs, nullptr, f.ptrs);
  EXPECT_EQ(g.size(), 2u);
  EXPECT_EQ(g.GangOf(0), 0);
  EXPECT_EQ(g.GangOf(5), 1);
  EXPECT_EQ(g.GangOf(6), -1);
  EXPECT_EQ(g.Members(1), (std::vector<uint64_t>{3, 4, 5}));
  EXPECT_EQ(ParsePreemptGangs("whole"), PreemptGangs::kWhole);
  EXPECT_EQ(ParsePreemptGangs("upstream"), PreemptGangs::kUpstream);
  EXPECT_EQ(ParsePreemptGangs("Whole"), std::nullopt);
}

TEST(PreemptionGangsTest, CoVictims) {
  GangVictimsFixture f;
  PreemptionGangs g(f.gangs, nullptr, f.ptrs);
  struct Case {
    std::string name;
    size_t node;
    std::vector<uint64_t> victims;
    std::vector<std::pair<size_t, uint64_t>> want;  // (node, id)
  };
  const Case cases[] = {
      // a loses a-0: 2 of minCount 3 left, both go (on n1 and n2).
      {"gang below minCount loses the rest", 0, {0}, {{1, 1}, {2, 2}}},
      // b has b-0 and b-1 bound (b-2 is not): losing b-0 leaves 1 < 2.
      {"only bound members go", 0, {3}, {{1, 4}}},
      {"two gangs, in victim order", 0, {3, 0}, {{1, 4}, {1, 1}, {2, 2}}},
      {"a bare pod has none", 2, {6}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<BoundPod> victims;
    for (uint64_t id : c.victims) victims.push_back(f.On(c.node, id));
    EXPECT_EQ(CoVictimIds(g.CoVictims(victims, f.cluster, f.Place())), c.want);
  }
  // With b-2 bound too, b keeps minCount 2 after losing b-0: surplus.
  f.node_of[5] = 2;
  const PodInfo info = PodInfo::Make(f.pods[5], 5);
  f.cluster.Bind(2, info.requests, info.non_zero_requests, 5, 0, info.gpu, f.cluster.DefaultGpuChoice(2, info.gpu));
  EXPECT_TRUE(g.CoVictims({f.On(0, 3)}, f.cluster, f.Place()).empty());
  EXPECT_EQ(g.Broken({3}, f.Place()), std::vector<int32_t>{});
  EXPECT_EQ(g.Broken({3, 4}, f.Place()), std::vector<int32_t>{1});
}

TEST(PreemptionGangsTest, UnevictableAndBroken) {
  GangVictimsFixture f;
  PreemptionGangs g(f.gangs, nullptr, f.ptrs);
  // a has a member of priority 50.
  EXPECT_TRUE(g.Unevictable(0, 50));
  EXPECT_FALSE(g.Unevictable(0, 51));
  EXPECT_FALSE(g.Unevictable(3, 1));
  EXPECT_FALSE(g.Unevictable(6, 1));
  // a: 3 bound >= 3, then 2; b: 2 bound >= 2, then 1.
  EXPECT_EQ(g.Broken({6, 3, 0}, f.Place()), (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(g.Broken({6}, f.Place()), std::vector<int32_t>{});
}

// pickOneNodeForPreemption with co-victims: node 0's one victim wins on
// "fewest victims" alone, loses once its 2 co-victims count; a co-victim's
// priority counts in "lowest highest victim priority".
TEST(PreemptionGangsTest, SelectCandidateCountsCoVictims) {
  auto bp = [](uint64_t id, int32_t prio, uint64_t seq) {
    BoundPod b;
    b.id = id;
    b.priority = prio;
    b.bind_seq = seq;
    return b;
  };
  std::vector<PreemptionCandidate> c = {{0, {bp(1, 0, 5)}, 0}, {1, {bp(2, 0, 1), bp(3, 0, 2)}, 0}};
  EXPECT_EQ(SelectCandidate(c), 0u);  // 1 victim against 2
  c[0].co_victims = {{2, bp(4, 0, 3)}, {2, bp(5, 0, 4)}};
  EXPECT_EQ(SelectCandidate(c), 1u);  // 3 against 2
  // A co-victim of higher priority decides the second criterion.
  c[0].co_victims = {{2, bp(4, 10, 3)}};
  c[1].victims = {bp(2, 5, 1)};
  EXPECT_EQ(SelectCandidate(c), 1u);
}

// A member whose eviction leaves its subgroup below its minimum is no
// surplus (KAI's GetTasksToEvict judges surplus per PodSet,
// podgroup_info/eviction_info.go): the KAI PodGroup of subGroups master 1 /
// worker 2 keeps running without one of its 3 workers, not without its
// master. A PodGroup of minMember 1 whose subgroups ask 2 is a gang here.
TEST(PreemptionGangsTest, SubgroupMinimumsDecideSurplus) {
  std::vector<Pod> pods;
  const std::pair<const char*, const char*> members[] = {{"m-0", "master"}, {"w-0", "worker"}, {"w-1", "worker"},
                                                         {"w-2", "worker"}, {"a-0", "a"},      {"b-0", "b"}};
  for (const auto& [name, subgroup] : members) {
    pods.push_back(GpuPod(name, 2));
    pods.back().meta.annotations[kKaiPodGroupAnnotation] = name[0] == 'a' || name[0] == 'b' ? "pg2" : "pg";
    pods.back().meta.labels[kKaiSubGroupLabel] = subgroup;
  }
  std::vector<const Pod*> ptrs;
  for (const Pod& p : pods) ptrs.push_back(&p);
  PodGroupDecl d;
  d.api = GangApi::kKai;
  d.ns = pods.front().ns();
  d.name = "pg";
  d.min_count = 3;
  d.subgroups = {{"master", 1, ""}, {"worker", 2, ""}};
  PodGroupDecl d2 = d;
  d2.name = "pg2";
  d2.min_count = 1;
  d2.subgroups = {{"a", 1, ""}, {"b", 1, ""}};
  const GangSet gangs = GroupIntoGangs({d, d2}, ptrs);
  ClusterState cluster{std::vector<Node>{GpuNode("n0", 16)}};
  for (uint64_t id = 0; id < pods.size(); ++id) {
    const PodInfo info = PodInfo::Make(pods[id], id);
    cluster.Bind(0, info.requests, info.non_zero_requests, id, pods[id].Priority(), info.gpu,
                 cluster.DefaultGpuChoice(0, info.gpu));
  }
  auto place = [](uint64_t) -> std::optional<size_t> { return 0; };
  auto victim = [&](uint64_t id) {
    for (const BoundPod& bp : cluster.state(0).pods)
      if (bp.id == id) return bp;
    ADD_FAILURE() << id;
    return BoundPod{};
  };
  PreemptionGangs g(gangs, nullptr, ptrs);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g.SubgroupOf(0), "master");
  EXPECT_EQ(g.SubgroupOf(3), "worker");
  struct Case {
    const char* name;
    std::vector<uint64_t> victims;
    std::vector<std::pair<size_t, uint64_t>> want_co;
    std::vector<int32_t> want_broken;
  };
  const Case cases[] = {
      {"one worker of 3: surplus, goes alone", {1}, {}, {}},
      {"the master: 3 workers are left, but subgroup master is empty", {0}, {{0, 1}, {0, 2}, {0, 3}}, {0}},
      {"two workers: subgroup worker below 2", {1, 2}, {{0, 0}, {0, 3}}, {0}},
      {"pg2's a: its subgroup b alone is not ready", {4}, {{0, 5}}, {1}},
  };
  for (const Case& c : cases) {
    std::vector<BoundPod> victims;
    for (uint64_t v : c.victims) victims.push_back(victim(v));
    EXPECT_EQ(CoVictimIds(g.CoVictims(victims, cluster, place)), c.want_co) << c.name;
    EXPECT_EQ(g.Broken(c.victims, place), c.want_broken) << c.name;
  }
}

}  // namespace
}  // namespace gpusched

// IndexedScan (src/sched/framework/indexed_scan.cc) against PlainScan on
// random clusters with churn: for every pod, from a random start and for a
// random number of nodes to find, the same feasible set in the same order,
// the same next start, and "none" exactly when the plain scan finds none.
#include "gpusched/sched/framework/indexed_scan.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusched/sched/framework/plain_scan.h"
#include "../random_cluster.h"
#include "search_test_util.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace indexed_scan_test {

using testing::Profile;
using testing::ProfileRun;

struct Tally {
  int64_t found = 0, none = 0;
  bool operator==(const Tally&) const = default;
};
void PrintTo(const Tally& t, std::ostream* os) { *os << "{" << t.found << ", " << t.none << "}"; }

// One random scenario; stops at the first difference.
Tally Compare(const Profile& profile, uint64_t seed) {
  Rng rng(seed);
  const size_t n = 20 + rng.Uniform(150);
  std::vector<Node> nodes;
  for (size_t i = 0; i < n; ++i) nodes.push_back(testing::rich::RandomNode("n" + std::to_string(i), rng));
  ClusterState cluster(nodes);
  ProfileRun run(profile, 1);
  EXPECT_TRUE(IndexedScan::Usable(run.chain()));
  IndexedScan indexed(run.chain());
  PlainScan plain(run.preemption());
  Tally t;
  std::vector<std::pair<size_t, uint64_t>> running;
  for (uint64_t id = 0; id < 500; ++id) {
    const Pod pod = testing::rich::RandomPod("p" + std::to_string(id), rng, n);
    const PodInfo info = PodInfo::Make(pod, id);
    const size_t start = rng.Uniform(cluster.size());
    static const int64_t kToFind[] = {1, 1, 3, 10, 1000};
    const int64_t to_find = kToFind[rng.Uniform(5)];
    std::vector<size_t> want, got;
    size_t want_next = 7777, got_next = 7777;
    FitError err;
    std::optional<PreemptionVerdict> preemption;
    uint64_t rejectors = 0;
    const bool want_found = plain.Run(run.Context(info, cluster, start, to_find), nullptr, want, want_next, err,
                                      preemption, rejectors);
    const bool found = indexed.Find(run.Context(info, cluster, start, to_find), got, got_next);
    EXPECT_EQ(found, want_found) << "pod " << id;
    if (found != want_found) return t;
    if (found) {
      EXPECT_EQ(got, want) << "pod " << id;
      EXPECT_EQ(got_next, want_next) << "pod " << id;
      if (got != want || got_next != want_next) return t;
      ++t.found;
      // The pod lands on one of them.
      const size_t node = want[rng.Uniform(want.size())];
      cluster.Bind(node, info.requests, info.non_zero_requests, id, info.priority, info.gpu,
                   cluster.DefaultGpuChoice(node, info.gpu));
      running.emplace_back(node, id);
    } else {
      EXPECT_EQ(got_next, 7777u) << "pod " << id;  // untouched
      ++t.none;
    }
    while (running.size() > 3 * n || (!running.empty() && rng.Uniform(3) == 0)) {
      const size_t r = rng.Uniform(running.size());
      cluster.Unbind(running[r].first, running[r].second);
      running[r] = running.back();
      running.pop_back();
    }
    if (rng.Uniform(40) == 0) {
      const size_t gone = rng.Uniform(cluster.size());
      cluster.RemoveNode(gone);
      std::erase_if(running, [&](const auto& r) { return r.first == gone; });
    }
    if (rng.Uniform(40) == 0) cluster.AddNode(testing::rich::RandomNode("m" + std::to_string(id), rng));
  }
  return t;
}

TEST(IndexedScanTest, MatchesThePlainScanOnRandomClusters) {
  struct Case {
    const char* name;
    Profile profile;
    uint64_t seed;
    Tally want;
  };
  const Case cases[] = {
      {"first-fit", {"first-fit"}, 1, {482, 18}},
      {"kube-default (DefaultPreemption)", {"kube-default"}, 2, {455, 45}},
      // NodeResourcesFit ignoring nvidia.com/gpu: no pruning on it.
      {"nvidia.com/gpu ignored", {"kube-default", {"nvidia.com/gpu"}}, 3, {465, 35}},
      {"example.com group ignored", {"first-fit", {}, {"example.com"}}, 4, {488, 12}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Compare(c.profile, c.seed), c.want);
  }
}

// Usable only where the chain declares what the index prunes on.
TEST(IndexedScanTest, UsableWhenTheChainDeclaresAFitFilter) {
  struct Case {
    const char* name;
    ChainTraits chain;
    bool want;
  };
  const Case cases[] = {
      {"declared, checks fit", {true, true, false, false}, true},
      {"declared, no fit filter", {true, false, false, true}, false},
      {"a filter declares nothing", {false, true, true, true}, false},
  };
  for (const Case& c : cases) EXPECT_EQ(IndexedScan::Usable(c.chain), c.want) << c.name;
}

}  // namespace indexed_scan_test
}  // namespace gpusched

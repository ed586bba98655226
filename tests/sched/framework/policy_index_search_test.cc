// PolicyIndexSearch (src/sched/framework/policy_index_search.cc) against the
// plain scan on random clusters with churn: for every pod and every policy
// that declares an index of its own, the node it finds is the one Select
// picks over PlainScan's feasible set (none when that set is empty, the lone
// node without Select), each side with a run of its own from the same seed;
// both runs then draw alike and choose the same devices.
#include "gpusched/sched/framework/policy_index_search.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusched/sched/framework/plain_scan.h"
#include "gpusched/sched/policies/policy.h"
#include "../random_cluster.h"
#include "search_test_util.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace policy_index_search_test {

using testing::Profile;
using testing::ProfileRun;

struct Tally {
  int64_t placed = 0, none = 0;
  bool operator==(const Tally&) const = default;
};
void PrintTo(const Tally& t, std::ostream* os) { *os << "{" << t.placed << ", " << t.none << "}"; }

Tally Compare(const std::string& policy, uint64_t seed) {
  Rng rng(seed);
  const size_t n = 20 + rng.Uniform(100);
  std::vector<Node> nodes;
  for (size_t i = 0; i < n; ++i) nodes.push_back(testing::rich::RandomNode("n" + std::to_string(i), rng));
  ClusterState cluster(nodes);
  ProfileRun ref({policy}, seed), fast({policy}, seed);
  EXPECT_TRUE(PolicyIndexSearch::Usable(fast.chain(), fast.policy()));
  PolicyIndexSearch search(fast.chain());
  PlainScan plain(ref.preemption());
  Tally t;
  std::vector<std::pair<size_t, uint64_t>> running;
  for (uint64_t id = 0; id < 400; ++id) {
    const Pod pod = testing::rich::RandomPod("p" + std::to_string(id), rng, n);
    const PodInfo info = PodInfo::Make(pod, id);
    const int64_t to_find = ref.policy().NumFeasibleNodesToFind(static_cast<int64_t>(cluster.num_present()));
    // The reference: every feasible node, then Select as Commit asks it.
    std::vector<size_t> feasible;
    size_t next = 0;
    FitError err;
    std::optional<PreemptionVerdict> preemption;
    uint64_t rejectors = 0;
    std::optional<size_t> want;
    if (plain.Run(ref.Context(info, cluster, 0, to_find), nullptr, feasible, next, err, preemption, rejectors)) {
      want = feasible.size() == 1 ? feasible.front()
                                  : ref.policy().Select(info, cluster, feasible, ref.rng(), ref.state(), nullptr);
    }
    std::vector<size_t> got;
    size_t got_next = 7777;
    const bool found = search.Find(fast.Context(info, cluster, 0, to_find), got, got_next);
    EXPECT_EQ(found, want.has_value()) << policy << " pod " << id;
    if (found != want.has_value()) return t;
    EXPECT_EQ(got_next, 7777u) << policy << " pod " << id;  // no rotation to keep
    if (!found) {
      ++t.none;
      continue;
    }
    EXPECT_EQ(got, std::vector<size_t>{*want}) << policy << " pod " << id;
    if (got != std::vector<size_t>{*want}) return t;
    const std::vector<int32_t> devices = ref.policy().SelectGpus(info, cluster, *want, ref.rng(), ref.state());
    EXPECT_EQ(fast.policy().SelectGpus(info, cluster, *want, fast.rng(), fast.state()), devices)
        << policy << " pod " << id;
    Rng a = ref.rng(), b = fast.rng();
    EXPECT_EQ(a.NextU64(), b.NextU64()) << policy << " pod " << id << ": the runs drew differently";
    ++t.placed;
    cluster.Bind(*want, info.requests, info.non_zero_requests, id, info.priority, info.gpu, devices);
    running.emplace_back(*want, id);
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

TEST(PolicyIndexSearchTest, MatchesSelectOverThePlainScanOnRandomClusters) {
  struct Case {
    std::string policy;
    uint64_t seed;
    Tally want;
  };
  const Case cases[] = {
      {"best-fit", 1, {310, 90}},       {"worst-fit", 2, {326, 74}},      {"fgd", 3, {366, 34}},
      {"random", 4, {388, 12}},         {"dot-product", 5, {300, 100}},    {"gpu-clustering", 6, {255, 145}},
      {"gpu-packing", 7, {247, 153}},    {"paper-best-fit", 8, {302, 98}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.policy);
    EXPECT_EQ(Compare(c.policy, c.seed), c.want);
  }
}

// Usable only for a policy with an index of its own that does not rotate,
// on a declared chain checking what SelectIndexed settles without `fits`.
TEST(PolicyIndexSearchTest, UsableOnlyWhereEverythingIsDeclared) {
  const ChainTraits all{true, true, true, true};
  BestFitPolicy best;
  FirstFitPolicy first;
  struct Case {
    const char* name;
    ChainTraits chain;
    const Policy* policy;
    bool want;
  };
  const Case cases[] = {
      {"best-fit, all declared", all, &best, true},
      {"first-fit has no index", all, &first, false},
      {"a filter declares nothing", {false, true, true, true}, &best, false},
      {"nvidia.com/gpu not checked", {true, true, false, true}, &best, false},
      {"no device filter", {true, true, true, false}, &best, false},
  };
  for (const Case& c : cases) EXPECT_EQ(PolicyIndexSearch::Usable(c.chain, *c.policy), c.want) << c.name;
}

}  // namespace policy_index_search_test
}  // namespace gpusched

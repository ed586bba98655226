// SummarizedFailures (include/gpusched/sched/framework/summarized_failures.h)
// against PlainScan on random clusters with churn: for every pod the plain
// scan finds no node for, an unconstrained pod gets the same FitError, the
// same preemption verdict and the same rejecting filters from the
// summaries; every other pod (constrained, or one that fits) gets nothing.
#include "gpusched/sched/framework/summarized_failures.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusched/sched/framework/plain_scan.h"
#include "../random_cluster.h"
#include "search_test_util.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace summarized_failures_test {

using testing::Profile;
using testing::ProfileRun;

struct Tally {
  int64_t explained = 0, left_to_plain = 0, fits = 0;
  bool operator==(const Tally&) const = default;
};
void PrintTo(const Tally& t, std::ostream* os) {
  *os << "{" << t.explained << ", " << t.left_to_plain << ", " << t.fits << "}";
}

Tally Compare(const Profile& profile, uint64_t seed) {
  Rng rng(seed);
  const size_t n = 10 + rng.Uniform(80);
  std::vector<Node> nodes;
  for (size_t i = 0; i < n; ++i) nodes.push_back(testing::rich::RandomNode("n" + std::to_string(i), rng));
  ClusterState cluster(nodes);
  ProfileRun run(profile, 1);
  EXPECT_TRUE(SummarizedFailures::Usable(run.chain()));
  SummarizedFailures summaries(run.preemption());
  PlainScan plain(run.preemption());
  // A few shapes, so that the summaries follow them through the churn.
  std::vector<Pod> shapes;
  for (int k = 0; k < 12; ++k) shapes.push_back(testing::rich::RandomPod("s" + std::to_string(k), rng, n));
  Tally t;
  std::vector<std::pair<size_t, uint64_t>> running;
  for (uint64_t id = 0; id < 600; ++id) {
    const PodInfo info = PodInfo::Make(shapes[rng.Uniform(shapes.size())], id);
    const int64_t all = static_cast<int64_t>(cluster.size());
    std::vector<size_t> feasible;
    size_t next = 0;
    FitError want_err, got_err;
    want_err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
    std::optional<PreemptionVerdict> want_pre, got_pre;
    uint64_t want_rej = 0, got_rej = 0;
    const bool fits =
        plain.Run(run.Context(info, cluster, 0, all), nullptr, feasible, next, want_err, want_pre, want_rej);
    const bool explained = summaries.Explain(run.Context(info, cluster, 0, all), got_err, got_pre, got_rej);
    if (fits || !info.unconstrained) {
      EXPECT_FALSE(explained) << "pod " << id;
      if (explained) return t;
      ++(fits ? t.fits : t.left_to_plain);
    } else {
      EXPECT_TRUE(explained) << "pod " << id;
      if (!explained) return t;
      ++t.explained;
      EXPECT_EQ(got_err.Error(), want_err.Error()) << "pod " << id;
      EXPECT_EQ(got_rej, want_rej) << "pod " << id;
      EXPECT_EQ(got_pre.has_value(), want_pre.has_value()) << "pod " << id;
      if (got_pre && want_pre) {
        EXPECT_EQ(got_pre->would_help, want_pre->would_help) << "pod " << id;
        EXPECT_EQ(got_pre->node, want_pre->node) << "pod " << id;
        EXPECT_EQ(got_pre->victims, want_pre->victims) << "pod " << id;
        EXPECT_EQ(got_pre->message, want_pre->message) << "pod " << id;
      }
      if (got_err.Error() != want_err.Error()) return t;
    }
    if (fits) {
      const size_t node = feasible[rng.Uniform(feasible.size())];
      cluster.Bind(node, info.requests, info.non_zero_requests, id, info.priority, info.gpu,
                   cluster.DefaultGpuChoice(node, info.gpu));
      running.emplace_back(node, id);
    }
    while (running.size() > 4 * n || (!running.empty() && rng.Uniform(4) == 0)) {
      const size_t r = rng.Uniform(running.size());
      cluster.Unbind(running[r].first, running[r].second);
      running[r] = running.back();
      running.pop_back();
    }
    if (rng.Uniform(50) == 0) {
      const size_t gone = rng.Uniform(cluster.size());
      cluster.RemoveNode(gone);
      std::erase_if(running, [&](const auto& r) { return r.first == gone; });
    }
    if (rng.Uniform(50) == 0) cluster.AddNode(testing::rich::RandomNode("m" + std::to_string(id), rng));
  }
  return t;
}

TEST(SummarizedFailuresTest, MatchesThePlainScanOnRandomClusters) {
  struct Case {
    const char* name;
    Profile profile;
    uint64_t seed;
    Tally want;
  };
  const Case cases[] = {
      {"first-fit", {"first-fit"}, 1, {45, 259, 296}},
      {"kube-default (DefaultPreemption)", {"kube-default"}, 2, {130, 115, 355}},
      {"kube-default (DefaultPreemption)", {"kube-default"}, 3, {104, 57, 439}},
      {"nvidia.com/gpu ignored", {"kube-default", {"nvidia.com/gpu"}}, 4, {6, 3, 591}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Compare(c.profile, c.seed), c.want);
  }
}

TEST(SummarizedFailuresTest, UsableOnlyOnADeclaredChain) {
  EXPECT_TRUE(SummarizedFailures::Usable(ChainTraits{true, true, true, true}));
  EXPECT_TRUE(SummarizedFailures::Usable(ChainTraits{true, false, false, false}));
  EXPECT_FALSE(SummarizedFailures::Usable(ChainTraits{false, true, true, true}));
}

}  // namespace summarized_failures_test
}  // namespace gpusched

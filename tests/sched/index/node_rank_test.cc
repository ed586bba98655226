#include "gpusched/sched/index/node_rank.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace gpusched {
namespace {

TEST(NodeRankTest, GoPermConstructionDrawnOnce) {
  // rand.Perm(n): m[0] = 0; for i = 1..n-1: j = Intn(i+1); m[i] = m[j]; m[j] = i.
  // Replayed by hand from the same generator's draws.
  Rng replay(42);
  std::vector<uint32_t> want(6, 0);
  for (size_t i = 1; i < want.size(); ++i) {
    const size_t j = static_cast<size_t>(replay.Uniform(i + 1));
    want[i] = want[j];
    want[j] = static_cast<uint32_t>(i);
  }
  Rng rng(42);
  NodeRank r;
  EXPECT_FALSE(r.drawn());
  EXPECT_EQ(r.Ensure(6, rng), want);
  EXPECT_TRUE(r.drawn());
  std::vector<uint32_t> sorted = want;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint32_t> iota(6);
  std::iota(iota.begin(), iota.end(), 0u);
  EXPECT_EQ(sorted, iota);  // a permutation
  // Later calls draw nothing; added nodes rank after all others, in order.
  std::vector<uint32_t> grown = want;
  grown.push_back(6);
  grown.push_back(7);
  EXPECT_EQ(r.Ensure(8, rng), grown);
  EXPECT_EQ(rng.NextU64(), replay.NextU64());
}

TEST(NodeRankTest, PickHighest) {
  // Nodes 0..4 with ranks {3, 0, 4, 1, 2}.
  const std::vector<uint32_t> rank = {3, 0, 4, 1, 2};
  struct Case {
    const char* name;
    std::vector<size_t> feasible;
    std::vector<int64_t> scores;
    size_t index, ties;
  } cases[] = {
      {"unique max", {0, 1, 2}, {5, 9, 7}, 1, 1},
      {"tie: smallest rank (node 3, rank 1)", {0, 2, 3, 4}, {8, 8, 8, 2}, 2, 3},
      {"tie with the first", {1, 4}, {6, 6}, 0, 2},
      {"later higher score resets ties", {0, 1, 2, 4}, {3, 3, 9, 9}, 3, 2},
      {"negative scores", {2, 4}, {-5, -7}, 0, 1},
      {"one node", {2}, {0}, 0, 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    HighestPick p = PickHighest(c.feasible, c.scores, rank);
    EXPECT_EQ(p.index, c.index);
    EXPECT_EQ(p.ties, c.ties);
  }
}

}  // namespace
}  // namespace gpusched

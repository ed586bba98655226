// src/server/filter_cache.cc: a class's verdicts are computed once, shared
// by pods of the same class, and recomputed for exactly the nodes the
// change log names.
#include "gpusched/server/filter_cache.h"

#include <gtest/gtest.h>

#include "gpusched/sched/plugins/filter_chain.h"
#include "../sched/test_util.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

TEST(FilterCacheTest, SharesVerdictsByClassAndFollowsTheChangeLog) {
  ClusterState cl({testing::DecodeNode(testing::NodeJson("a", 8)), testing::DecodeNode(testing::NodeJson("b", 2))});
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "best-fit", 1);
  ASSERT_TRUE(set.ok());
  ExtenderDecisions decisions(*set->profiles.front().second, 1);
  const Pod p4 = testing::DecodePod(testing::PodJson("ml", "x", 4));
  const Pod q4 = testing::DecodePod(testing::PodJson("ml", "y", 4));  // same class, another pod
  const Pod p1 = testing::DecodePod(testing::PodJson("ml", "z", 1));
  const PodInfo x = PodInfo::Make(p4, 0), y = PodInfo::Make(q4, 0), z = PodInfo::Make(p1, 0);
  FilterCache cache(2);
  {
    FilterCache::Row& row = cache.RowFor(x, cl);
    EXPECT_TRUE(row.Get(0, decisions, x, cl).passed);
    const NodeVerdict& b = row.Get(1, decisions, x, cl);
    EXPECT_FALSE(b.passed);
    EXPECT_TRUE(b.unresolvable);
    EXPECT_EQ(b.reason, "Insufficient nvidia.com/gpu");
  }
  EXPECT_EQ(&cache.RowFor(y, cl), &cache.RowFor(x, cl));
  EXPECT_EQ(cache.num_classes(), 1u);
  EXPECT_TRUE(cache.RowFor(z, cl).Get(1, decisions, z, cl).passed);
  EXPECT_EQ(cache.num_classes(), 2u);
  // Node a fills up: its cached verdict (passed) is dropped and recomputed.
  Pod big = testing::DecodePod(testing::PodJson("ml", "big", 6, 0, "a"));
  const PodInfo bi = PodInfo::Make(big, 0);
  cl.Bind(0, bi.requests);
  FilterCache::Row& row = cache.RowFor(x, cl);
  const NodeVerdict& a = row.Get(0, decisions, x, cl);
  EXPECT_FALSE(a.passed);
  EXPECT_FALSE(a.unresolvable);
  EXPECT_EQ(a.reason, "Insufficient nvidia.com/gpu");
  // A third class evicts the least recently used (z's).
  const Pod p2 = testing::DecodePod(testing::PodJson("ml", "w", 2));
  const PodInfo w = PodInfo::Make(p2, 0);
  cache.RowFor(w, cl);
  EXPECT_EQ(cache.num_classes(), 2u);
}

// A row that fell behind what the change log holds starts over: every
// verdict is computed again, from the nodes as they are now.
TEST(FilterCacheTest, StartsOverWhenTheLogNoLongerHoldsItsChanges) {
  ClusterState cl({testing::DecodeNode(testing::NodeJson("a", 4)), testing::DecodeNode(testing::NodeJson("b", 2)),
                   testing::DecodeNode(testing::NodeJson("c", 4))});
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "best-fit", 1);
  ASSERT_TRUE(set.ok());
  ExtenderDecisions decisions(*set->profiles.front().second, 1);
  const Pod p4 = testing::DecodePod(testing::PodJson("ml", "x", 4));
  const PodInfo x = PodInfo::Make(p4, 0);
  FilterCache cache;
  {
    FilterCache::Row& row = cache.RowFor(x, cl);
    EXPECT_TRUE(row.Get(0, decisions, x, cl).passed);
    EXPECT_FALSE(row.Get(1, decisions, x, cl).passed);
    EXPECT_TRUE(row.Get(2, decisions, x, cl).passed);
  }
  const uint64_t pos = cl.version();
  // A GPU taken on a and c (the nodes 0 and 2).
  testing::ChurnPastTheLog(cl, pos);
  ASSERT_FALSE(cl.change_log().Holds(pos));
  FilterCache::Row& row = cache.RowFor(x, cl);
  for (size_t i = 0; i < 3; ++i) {
    const NodeVerdict& v = row.Get(i, decisions, x, cl);
    EXPECT_FALSE(v.passed) << "node " << i;
    EXPECT_EQ(v.reason, "Insufficient nvidia.com/gpu") << "node " << i;
  }
}

}  // namespace
}  // namespace gpusched

// src/server/cluster_view.cc: the pods requests bring are kept for their
// bind up to max_pending(), evicted one at a time, oldest first (halving at
// the cap stalled every decision for ~120 ms at 100,000).
#include "gpusched/server/cluster_view.h"

#include <gtest/gtest.h>

#include "test_cluster.h"

namespace gpusched {
namespace {

Pod PendingPod(const std::string& name, const std::string& uid) {
  auto j = testing::PodJson("ml", name, 1);
  j["metadata"]["uid"] = uid;
  return testing::DecodePod(j);
}

std::vector<std::string> Kept(const ClusterView& v, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    if (auto p = v.FindPending("ml", "p" + std::to_string(i), "")) out.push_back(p->name() + "@" + p->meta.uid);
  return out;
}

TEST(ClusterViewTest, PendingPodsAreEvictedOneAtATimeOldestFirst) {
  ClusterView v;
  EXPECT_EQ(v.max_pending(), kDefaultMaxPendingPods);
  v.set_max_pending(3);
  for (int i = 0; i < 5; ++i) v.RememberPending(PendingPod("p" + std::to_string(i), "u" + std::to_string(i)));
  EXPECT_EQ(Kept(v, 6), (std::vector<std::string>{"p2@u2", "p3@u3", "p4@u4"}));
  // p2 again, recreated (a new uid): its older entry leaving does not take
  // the newer one with it.
  v.RememberPending(PendingPod("p2", "u2b"));
  EXPECT_EQ(Kept(v, 6), (std::vector<std::string>{"p2@u2b", "p3@u3", "p4@u4"}));
  v.RememberPending(PendingPod("p5", "u5"));
  EXPECT_EQ(Kept(v, 6), (std::vector<std::string>{"p2@u2b", "p4@u4", "p5@u5"}));
  EXPECT_EQ(v.num_pending(), 3u);
  // The same pod again (same uid) is not a new entry.
  v.RememberPending(PendingPod("p5", "u5"));
  EXPECT_EQ(Kept(v, 6), (std::vector<std::string>{"p2@u2b", "p4@u4", "p5@u5"}));
}

}  // namespace
}  // namespace gpusched

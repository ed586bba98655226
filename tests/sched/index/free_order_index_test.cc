// Ours: best-fit's and worst-fit's node order (src/sched/index/free_order_index.cc)
// against a sort of every node, through binds, unbinds, removals and
// additions, and Find against the first node of that order that meets the
// need and passes the predicate.
#include "gpusched/sched/index/free_order_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gpusched/util/random.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;

// Every present node sorted by (free GPUs, free cpu, index), or descending
// free with ascending index for `most`.
std::vector<size_t> SortedOrder(const ClusterState& c, bool most) {
  std::vector<std::tuple<int64_t, int64_t, size_t>> keys;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c.present(i)) continue;
    const NodeFitIndex::Need free = NodeFitIndex::FreeOf(c.state(i));
    int64_t g = free[NodeFitIndex::kGpus], cpu = free[NodeFitIndex::kCpu];
    if (most) g = ~g, cpu = ~cpu;
    keys.emplace_back(g, cpu, i);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<size_t> out;
  for (const auto& k : keys) out.push_back(std::get<2>(k));
  return out;
}

TEST(FreeOrderIndexTest, SmallClusterOrders) {
  // free (GPUs, cpu): n0 (4, 8000), n1 (2, 8000), n2 (2, 4000), n3 (4, 8000), n4 (0, 16000)
  ClusterState c({GpuNode("n0", 4, 8000), GpuNode("n1", 2, 8000), GpuNode("n2", 2, 4000), GpuNode("n3", 4, 8000),
                  GpuNode("n4", 0, 16000)});
  struct Case {
    bool most;
    std::vector<size_t> want;
  };
  const Case cases[] = {
      {false, {4, 2, 1, 0, 3}},
      {true, {0, 3, 1, 2, 4}},  // ties (n0, n3) still by ascending index
  };
  for (const Case& k : cases) {
    FreeOrderIndex index(k.most);
    EXPECT_EQ(index.Order(c), k.want) << (k.most ? "most" : "least");
  }
  // A bind moves a node; the order follows.
  c.Bind(0, testing::ToResources({4000, 0, 0, {{"nvidia.com/gpu", 3}}}));  // n0 -> (1, 4000)
  FreeOrderIndex least(false);
  EXPECT_EQ(least.Order(c), (std::vector<size_t>{4, 0, 2, 1, 3}));
}

// An index so far behind that the change log no longer holds the changes
// since its last read starts over from the nodes: the order is the sorted
// one for the cluster as it is now.
TEST(FreeOrderIndexTest, StartsOverWhenTheLogNoLongerHoldsItsChanges) {
  // free (GPUs, cpu): n0 (4, 8000), n1 (2, 8000), n2 (2, 4000), n3 (4, 8000), n4 (0, 16000)
  ClusterState c({GpuNode("n0", 4, 8000), GpuNode("n1", 2, 8000), GpuNode("n2", 2, 4000), GpuNode("n3", 4, 8000),
                  GpuNode("n4", 0, 16000)});
  FreeOrderIndex least(false, 2), most(true, 2);
  EXPECT_EQ(least.Order(c), (std::vector<size_t>{4, 2, 1, 0, 3}));
  EXPECT_EQ(most.Order(c), (std::vector<size_t>{0, 3, 1, 2, 4}));
  const uint64_t pos = c.version();
  // One more pod on n0 (a GPU, 100m), n2 (a GPU, 100m) and n4 (100m):
  // n0 (3, 7900), n2 (1, 3900), n4 (0, 15900).
  testing::ChurnPastTheLog(c, pos);
  ASSERT_FALSE(c.change_log().Holds(pos));
  EXPECT_EQ(least.Order(c), (std::vector<size_t>{4, 2, 1, 0, 3}));
  EXPECT_EQ(most.Order(c), (std::vector<size_t>{3, 0, 1, 2, 4}));
  EXPECT_EQ(least.Order(c), SortedOrder(c, false));
  EXPECT_EQ(most.Order(c), SortedOrder(c, true));
  // Both hold one entry per node again, none stale.
  EXPECT_EQ(least.entries(), 5u);
  EXPECT_EQ(most.entries(), 5u);
}

TEST(FreeOrderIndexTest, FindTakesTheFirstThatMeetsAndFits) {
  ClusterState c({GpuNode("n0", 4, 8000), GpuNode("n1", 2, 8000), GpuNode("n2", 2, 4000), GpuNode("n3", 4, 8000),
                  GpuNode("n4", 0, 16000)});
  FreeOrderIndex index(false);
  auto need = [](int64_t gpus, int64_t cpu) {
    NodeFitIndex::Need n;
    n.fill(std::numeric_limits<int64_t>::min());
    if (gpus > 0) n[NodeFitIndex::kGpus] = gpus;
    if (cpu > 0) n[NodeFitIndex::kCpu] = cpu;
    n[NodeFitIndex::kPodSlots] = 1;
    return n;
  };
  struct Case {
    const char* name;
    int64_t gpus, cpu;
    std::vector<size_t> refuse;  // nodes the predicate rejects
    std::optional<size_t> want;
  };
  const Case cases[] = {
      {"anything: the fewest GPUs free", 0, 0, {}, 4},
      {"one GPU", 1, 0, {}, 2},
      {"one GPU and 6 cores", 1, 6000, {}, 1},
      {"three GPUs", 3, 0, {}, 0},
      {"three GPUs, n0 refused", 3, 0, {0}, 3},
      {"five GPUs: none", 5, 0, {}, std::nullopt},
      {"all refused", 0, 0, {0, 1, 2, 3, 4}, std::nullopt},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    std::vector<size_t> asked;
    const auto got = index.Find(c, need(k.gpus, k.cpu), [&](size_t i) {
      asked.push_back(i);
      return std::find(k.refuse.begin(), k.refuse.end(), i) == k.refuse.end();
    });
    EXPECT_EQ(got, k.want);
    // The predicate is asked only of nodes that meet the need, in order.
    for (size_t i : asked) {
      const NodeFitIndex::Need free = NodeFitIndex::FreeOf(c.state(i));
      EXPECT_TRUE(NodeFitIndex::Meets(free, need(k.gpus, k.cpu))) << i;
    }
  }
}

TEST(FreeOrderIndexTest, NodesWithAndWithoutAShareFreeMergeByCpu) {
  // All three end with no whole GPU free: n0 lends 600m of its one device
  // (400m left), n1's device is taken whole, n2 has none. n3 has 2 GPUs.
  ClusterState c({GpuNode("n0", 1, 8000), GpuNode("n1", 1, 4000), GpuNode("n2", 0, 16000), GpuNode("n3", 2, 8000)});
  GpuRequest share;
  share.count = 1;
  share.milli = 600;
  share.from_annotations = true;
  c.Bind(0, Resources{}, Resources{}, 1, 0, share, c.DefaultGpuChoice(0, share));
  c.Bind(1, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 1}}}));
  auto need = [](int64_t device_milli) {
    NodeFitIndex::Need n;
    n.fill(std::numeric_limits<int64_t>::min());
    if (device_milli > 0) n[NodeFitIndex::kDeviceMilli] = device_milli;
    n[NodeFitIndex::kPodSlots] = 1;
    return n;
  };
  struct Case {
    const char* name;
    bool most;
    int64_t device_milli;
    std::vector<size_t> refuse;
    std::optional<size_t> want;
  };
  const Case cases[] = {
      {"anything: n1 has the least cpu of the three with no GPU free", false, 0, {}, 1},
      {"n1 refused: n0, from the other bucket of 0 GPUs", false, 0, {1}, 0},
      {"n1 and n0 refused: n2", false, 0, {0, 1}, 2},
      {"a 300m share: n0", false, 300, {}, 0},
      {"a 500m share: n3's whole devices", false, 500, {}, 3},
      {"most: n3 first", true, 0, {}, 3},
      {"most, n3 refused: the most cpu of the three", true, 0, {3}, 2},
      {"most, n3 and n2 refused", true, 0, {2, 3}, 0},
      {"most, a 300m share, n3 refused", true, 300, {3}, 0},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    FreeOrderIndex index(k.most);
    EXPECT_EQ(index.Order(c), k.most ? (std::vector<size_t>{3, 2, 0, 1}) : (std::vector<size_t>{1, 0, 2, 3}));
    EXPECT_EQ(index.buckets(), 3u);  // (0, none free), (0, a share free), (2, a share free)
    EXPECT_EQ(index.Find(c, need(k.device_milli),
                         [&](size_t i) { return std::find(k.refuse.begin(), k.refuse.end(), i) == k.refuse.end(); }),
              k.want);
  }
}

TEST(FreeOrderIndexTest, StaleEntriesStayBounded) {
  // One node re-keyed 1,000 times among 10: without the purges its stale
  // entries would pile up in the blocks Find never reads.
  std::vector<Node> nodes;
  for (int i = 0; i < 10; ++i) nodes.push_back(GpuNode("n" + std::to_string(i), 8, 64000));
  ClusterState c(nodes);
  FreeOrderIndex index(false, 4);
  NodeFitIndex::Need need;
  need.fill(std::numeric_limits<int64_t>::min());
  need[NodeFitIndex::kGpus] = 8;
  size_t most_entries = 0;
  for (uint64_t k = 0; k < 1000; ++k) {
    c.Bind(3, testing::ToResources({1000, 0, 0, {{"nvidia.com/gpu", 1}}}), Resources{}, k, 0);
    EXPECT_EQ(index.Find(c, need, [](size_t) { return true; }), 0u);
    c.Unbind(3, k);
    EXPECT_EQ(index.Find(c, need, [](size_t) { return true; }), 0u);
    most_entries = std::max(most_entries, index.entries());
  }
  EXPECT_EQ(index.Order(c), (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_LE(most_entries, 2 * 10 + 2 * 4u);
}

TEST(FreeOrderIndexTest, BucketsStayBoundedWhenFreeGpuCountsKeepChanging) {
  // A node overcommitted further at each step (free GPUs 0, -1, -2, ...):
  // every count is new, and each bucket empties once Find passes it.
  ClusterState c({GpuNode("n0", 1, 1000)});
  FreeOrderIndex index(true, 4);
  NodeFitIndex::Need need;
  need.fill(std::numeric_limits<int64_t>::min());
  size_t most_buckets = 0;
  for (uint64_t k = 0; k < 2000; ++k) {
    c.Bind(0, testing::ToResources({0, 0, 0, {{"nvidia.com/gpu", 1}}}), Resources{}, k, 0);
    EXPECT_EQ(index.Find(c, need, [](size_t) { return true; }), 0u);
    most_buckets = std::max(most_buckets, index.buckets());
  }
  EXPECT_LE(most_buckets, 1u + 2u + 16u);  // entries (<= 2x live + 2 blocks) + 16
}

TEST(FreeOrderIndexTest, ManyChangesBetweenReadsMergeInOrder) {
  // 300 nodes filled and emptied in a random order with reads only now and
  // then: blocks take dozens of appended entries (past their 32-entry tail,
  // and past their size) before a read puts them in order.
  Rng rng(5);
  std::vector<Node> nodes;
  for (int i = 0; i < 300; ++i)
    nodes.push_back(GpuNode("n" + std::to_string(i), 1 + static_cast<int64_t>(rng.Uniform(8)),
                            1000 * (1 + static_cast<int64_t>(rng.Uniform(64)))));
  ClusterState c(nodes);
  for (size_t block : {size_t{16}, size_t{128}}) {
    FreeOrderIndex least(false, block), most(true, block);
    std::vector<std::pair<size_t, uint64_t>> bound;
    for (uint64_t step = 0; step < 2000; ++step) {
      const size_t i = rng.Uniform(c.size());
      if (rng.Uniform(3) != 0) {
        const int64_t gpus = c.state(i).GpuFree();
        c.Bind(i, testing::ToResources({500 * static_cast<int64_t>(rng.Uniform(3)), 0, 0, {{"nvidia.com/gpu", gpus}}}),
               Resources{}, step, 0);
        bound.emplace_back(i, step);
      } else if (!bound.empty()) {
        const size_t k = rng.Uniform(bound.size());
        c.Unbind(bound[k].first, bound[k].second);
        bound.erase(bound.begin() + static_cast<ptrdiff_t>(k));
      }
      if (step % 97 == 0 || step == 1999) {
        ASSERT_EQ(least.Order(c), SortedOrder(c, false)) << step;
        ASSERT_EQ(most.Order(c), SortedOrder(c, true)) << step;
      }
    }
  }
}

TEST(FreeOrderIndexTest, FollowsTheClusterOnRandomChanges) {
  Rng rng(11);
  for (int trial = 0; trial < 90; ++trial) {
    SCOPED_TRACE(trial);
    // Blocks of 2 and 5 entries fill up, purge and split all the time; 128 is the default.
    const size_t block = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 5 : 128;
    std::vector<Node> nodes;
    const size_t n = 1 + rng.Uniform(80);
    for (size_t i = 0; i < n; ++i)
      nodes.push_back(GpuNode("n" + std::to_string(i), static_cast<int64_t>(rng.Uniform(9)) - 1,
                              1000 * static_cast<int64_t>(rng.Uniform(16)), (1LL << 30) * static_cast<int64_t>(rng.Uniform(4)),
                              static_cast<int64_t>(rng.Uniform(6))));
    ClusterState c(nodes);
    FreeOrderIndex least(false, block), most(true, block);
    std::vector<std::pair<size_t, uint64_t>> bound;
    for (int step = 0; step < 120; ++step) {
      const uint64_t op = rng.Uniform(12);
      if (op >= 10) {
        // A share of one device (leaves the node with a share free, or none).
        const size_t i = rng.Uniform(c.size());
        GpuRequest g;
        g.count = 1;
        g.milli = 100 * static_cast<int32_t>(1 + rng.Uniform(10));
        g.from_annotations = true;
        const std::vector<int32_t> devices = c.present(i) ? c.DefaultGpuChoice(i, g) : std::vector<int32_t>{};
        if (!devices.empty()) {
          c.Bind(i, Resources{}, Resources{}, static_cast<uint64_t>(step), 0, g, devices);
          bound.emplace_back(i, static_cast<uint64_t>(step));
        }
      } else if (op < 5) {
        const size_t i = rng.Uniform(c.size());
        if (c.present(i)) {
          c.Bind(i, testing::ToResources({500 * static_cast<int64_t>(rng.Uniform(5)), 0, 0,
                                          {{"nvidia.com/gpu", static_cast<int64_t>(rng.Uniform(3))}}}),
                 Resources{}, static_cast<uint64_t>(step), 0);
          bound.emplace_back(i, static_cast<uint64_t>(step));
        }
      } else if (op < 8 && !bound.empty()) {
        const size_t k = rng.Uniform(bound.size());
        c.Unbind(bound[k].first, bound[k].second);
        bound.erase(bound.begin() + static_cast<ptrdiff_t>(k));
      } else if (op == 8) {
        c.RemoveNode(rng.Uniform(c.size()));
      } else {
        c.AddNode(GpuNode("m" + std::to_string(step), static_cast<int64_t>(rng.Uniform(9)),
                          1000 * static_cast<int64_t>(rng.Uniform(16))));
      }
      if (step % 7 == 0) {  // catch up over several changes at once, too
        ASSERT_EQ(least.Order(c), SortedOrder(c, false));
        ASSERT_EQ(most.Order(c), SortedOrder(c, true));
        // Find: the first in order meeting a random need.
        NodeFitIndex::Need need;
        need.fill(std::numeric_limits<int64_t>::min());
        // 4: no GPU need (a CPU-only pod); cpu 0: no cpu need.
        const int64_t gpus = static_cast<int64_t>(rng.Uniform(5));
        need[NodeFitIndex::kGpus] = gpus == 4 ? std::numeric_limits<int64_t>::min() : gpus;
        const int64_t cpu = 1000 * static_cast<int64_t>(rng.Uniform(8));
        need[NodeFitIndex::kCpu] = cpu == 0 ? std::numeric_limits<int64_t>::min() : cpu;
        need[NodeFitIndex::kMemory] = (1LL << 29) * static_cast<int64_t>(rng.Uniform(4));
        need[NodeFitIndex::kPodSlots] = 1;
        // A GPU-share pod half the time (no whole-GPU need then).
        if (rng.Uniform(2) == 0) {
          need[NodeFitIndex::kGpus] = std::numeric_limits<int64_t>::min();
          need[NodeFitIndex::kDeviceMilli] = 100 * static_cast<int64_t>(1 + rng.Uniform(10));
        }
        const size_t refused = rng.Uniform(c.size());
        for (bool m : {false, true}) {
          std::optional<size_t> want;
          for (size_t i : SortedOrder(c, m))
            if (i != refused && NodeFitIndex::Meets(NodeFitIndex::FreeOf(c.state(i)), need)) {
              want = i;
              break;
            }
          FreeOrderIndex& index = m ? most : least;
          EXPECT_EQ(index.Find(c, need, [&](size_t i) { return i != refused; }), want);
          // Stale entries never outnumber the live ones by more than two blocks' worth.
          EXPECT_LE(index.entries(), 2 * c.num_present() + 2 * block);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpusched

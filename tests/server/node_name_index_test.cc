// src/server/node_name_index.cc: answers as ClusterState::FindNode, before
// and after node additions and removals (an index per node set), and knows
// which node set it was built from.
#include "gpusched/server/node_name_index.h"

#include <gtest/gtest.h>

#include "test_cluster.h"

namespace gpusched {
namespace {

TEST(NodeNameIndexTest, FindsAsClusterStateDoes) {
  ClusterState cl({testing::DecodeNode(testing::NodeJson("a", 8)), testing::DecodeNode(testing::NodeJson("b", 8))});
  const NodeNameIndex idx(cl);
  EXPECT_TRUE(idx.Matches(cl));
  EXPECT_EQ(idx.Find("a"), 0);
  EXPECT_EQ(idx.Find("b"), 1);
  EXPECT_EQ(idx.Find("c"), -1);
  EXPECT_EQ(idx.Find(""), -1);
  cl.RemoveNode(0);
  cl.AddNode(testing::DecodeNode(testing::NodeJson("c", 8)));
  cl.AddNode(testing::DecodeNode(testing::NodeJson("a", 4)));  // "a" again, in a new slot
  EXPECT_FALSE(idx.Matches(cl));
  const NodeNameIndex now(cl);
  EXPECT_TRUE(now.Matches(cl));
  for (const char* name : {"a", "b", "c", "d", ""}) EXPECT_EQ(now.Find(name), cl.FindNode(name)) << name;
  EXPECT_EQ(now.Find("a"), 3);
  EXPECT_EQ(now.Find("c"), 2);
  // Many names: every one found in its slot (probing past collisions).
  std::vector<Node> many;
  for (int i = 0; i < 3000; ++i) many.push_back(testing::DecodeNode(testing::NodeJson("node-" + std::to_string(i), 1)));
  ClusterState big(many);
  const NodeNameIndex bi(big);
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(bi.Find("node-" + std::to_string(i)), i);
  EXPECT_EQ(bi.Find("node-3000"), -1);
  EXPECT_EQ(bi.Find("node-"), -1);
}

// Ranks: the names in byte order, by node slot, after removals and re-adds.
TEST(NodeNameIndexTest, RanksNamesInByteOrder) {
  std::vector<Node> nodes;
  for (const char* name : {"b", "a10", "a2", "a-9", "a1"}) nodes.push_back(testing::DecodeNode(testing::NodeJson(name, 1)));
  ClusterState cl(nodes);
  cl.RemoveNode(1);                                             // a10
  cl.RemoveNode(0);                                             // b
  cl.AddNode(testing::DecodeNode(testing::NodeJson("b", 2)));  // "b" again, slot 5
  const NodeNameIndex idx(cl);
  EXPECT_EQ(idx.num_names(), 4u);
  // a-9 < a1 < a2 < b ('-' before the digits)
  EXPECT_EQ(idx.Rank(static_cast<size_t>(idx.Find("a-9"))), 0u);
  EXPECT_EQ(idx.Rank(static_cast<size_t>(idx.Find("a1"))), 1u);
  EXPECT_EQ(idx.Rank(static_cast<size_t>(idx.Find("a2"))), 2u);
  EXPECT_EQ(idx.Find("b"), 5);
  EXPECT_EQ(idx.Rank(5), 3u);
}

}  // namespace
}  // namespace gpusched

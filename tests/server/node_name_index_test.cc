// src/server/node_name_index.cc: answers as ClusterState::FindNode through
// node additions and removals (rebuilt on a new node set).
#include "gpusched/server/node_name_index.h"

#include <gtest/gtest.h>

#include "test_cluster.h"

namespace gpusched {
namespace {

TEST(NodeNameIndexTest, FindsAsClusterStateDoes) {
  ClusterState cl({testing::DecodeNode(testing::NodeJson("a", 8)), testing::DecodeNode(testing::NodeJson("b", 8))});
  NodeNameIndex idx;
  idx.Sync(cl);
  EXPECT_EQ(idx.Find("a"), 0);
  EXPECT_EQ(idx.Find("b"), 1);
  EXPECT_EQ(idx.Find("c"), -1);
  EXPECT_EQ(idx.Find(""), -1);
  cl.RemoveNode(0);
  cl.AddNode(testing::DecodeNode(testing::NodeJson("c", 8)));
  cl.AddNode(testing::DecodeNode(testing::NodeJson("a", 4)));  // "a" again, in a new slot
  idx.Sync(cl);
  for (const char* name : {"a", "b", "c", "d"}) EXPECT_EQ(idx.Find(name), cl.FindNode(name)) << name;
  EXPECT_EQ(idx.Find("a"), 3);
  EXPECT_EQ(idx.Find("c"), 2);
}

}  // namespace
}  // namespace gpusched

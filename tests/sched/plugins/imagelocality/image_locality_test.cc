// ImageLocality: upstream's tables in pkg/scheduler/framework/plugins/
// imagelocality/image_locality_test.go (v1.35) with their expected scores:
// TestImageLocalityPriority (7 cases) and TestNormalizedImageName (4).
#include "gpusched/sched/plugins/imagelocality/image_locality.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/image_names.h"

namespace gpusched {
namespace {

constexpr int64_t kMb = 1024 * 1024;

struct Image {
  std::vector<std::string> names;
  int64_t size;
};

Node MakeImageNode(const std::string& name, const std::vector<Image>& images) {
  Node n;
  n.meta.name = name;
  std::vector<std::pair<std::string, int64_t>> names_sizes;
  for (const Image& img : images)
    for (const std::string& nm : img.names) names_sizes.emplace_back(nm, img.size);
  n.SetImages(names_sizes);
  return n;
}

Pod MakePod(const std::vector<std::string>& images, const std::vector<std::string>& init = {}) {
  Pod p;
  p.meta.name = "p";
  for (const std::string& i : images) p.containers.push_back(Container{"c", i, {}, {}, "", {}});
  for (const std::string& i : init) p.init_containers.push_back(Container{"i", i, {}, {}, "", {}});
  return p;
}

// Score on every node, as the test's loop over test.nodes does.
std::vector<int64_t> ScoreAll(const Pod& pod, const std::vector<Node>& nodes) {
  ClusterState cluster(nodes);
  ImageLocality pl;
  PodInfo info = PodInfo::Make(pod, 0);
  std::vector<size_t> idx;
  for (size_t i = 0; i < nodes.size(); ++i) idx.push_back(i);
  std::vector<int64_t> scores(nodes.size(), -1);
  // PreScore skipping means 0 on every node.
  if (!pl.PreScore(info, cluster)) return std::vector<int64_t>(nodes.size(), 0);
  pl.ScoreNodes(info, cluster, idx, scores);
  for (size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(pl.Score(info, cluster.node(i), cluster.state(i)), scores[i]);
  return scores;
}

TEST(ImageLocalityTest, UpstreamTable) {
  const std::vector<Image> node403002000 = {{{"gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"}, 40 * kMb},
                                            {{"gcr.io/300:latest", "gcr.io/300:v1"}, 300 * kMb},
                                            {{"gcr.io/2000:latest"}, 2000 * kMb}};
  const std::vector<Image> node25010 = {{{"gcr.io/250:latest"}, 250 * kMb},
                                        {{"gcr.io/10:latest", "gcr.io/10:v1"}, 10 * kMb}};
  const std::vector<Image> node60040900 = {
      {{"gcr.io/600:latest"}, 600 * kMb}, {{"gcr.io/40:latest"}, 40 * kMb}, {{"gcr.io/900:latest"}, 900 * kMb}};
  const std::vector<Image> node300600900 = {
      {{"gcr.io/300:latest"}, 300 * kMb}, {{"gcr.io/600:latest"}, 600 * kMb}, {{"gcr.io/900:latest"}, 900 * kMb}};
  const std::vector<Image> node400030 = {{{"gcr.io/4000:latest"}, 4000 * kMb}, {{"gcr.io/30:latest"}, 30 * kMb}};
  const std::vector<Image> node203040 = {
      {{"gcr.io/20:latest"}, 20 * kMb}, {{"gcr.io/30:latest"}, 30 * kMb}, {{"gcr.io/40:latest"}, 40 * kMb}};
  const std::vector<Image> none;
  struct Case {
    const char* name;
    Pod pod;
    std::vector<Node> nodes;
    std::vector<int64_t> want;
  } cases[] = {
      {"two images spread on two nodes, prefer the larger image one", MakePod({"gcr.io/40", "gcr.io/250"}),
       {MakeImageNode("node1", node403002000), MakeImageNode("node2", node25010)},
       {0, 5}},
      {"two images on one node, prefer this node", MakePod({"gcr.io/40", "gcr.io/300"}),
       {MakeImageNode("node1", node403002000), MakeImageNode("node2", node25010)},
       {7, 0}},
      {"if exceed limit, use limit", MakePod({"gcr.io/10", "gcr.io/4000"}),
       {MakeImageNode("node1", node400030), MakeImageNode("node2", node25010)},
       {kMaxNodeScore, 0}},
      {"if exceed limit, use limit (with node which has no images present)", MakePod({"gcr.io/10", "gcr.io/4000"}),
       {MakeImageNode("node1", node400030), MakeImageNode("node2", node25010), MakeImageNode("node3", none)},
       {66, 0, 0}},
      {"pod with multiple large images, node2 is preferred", MakePod({"gcr.io/300", "gcr.io/600", "gcr.io/900"}),
       {MakeImageNode("node1", node60040900), MakeImageNode("node2", node300600900), MakeImageNode("node3", none)},
       {32, 36, 0}},
      {"pod with multiple small images", MakePod({"gcr.io/30", "gcr.io/40"}),
       {MakeImageNode("node1", node203040), MakeImageNode("node2", node400030)},
       {1, 0}},
      {"include InitContainers: two images spread on two nodes, prefer the larger image one",
       MakePod({"gcr.io/30"}, {"gcr.io/300"}),
       {MakeImageNode("node1", node403002000), MakeImageNode("node2", node203040)},
       {6, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ScoreAll(c.pod, c.nodes), c.want);
  }
}

TEST(ImageLocalityTest, NormalizedImageName) {
  const std::string digest = "sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2";
  const std::pair<std::string, std::string> cases[] = {
      {"root", "root:latest"},
      {"gcr.io:5000/root", "gcr.io:5000/root:latest"},
      {"root:tag", "root:tag"},
      {"root@" + digest, "root@" + digest},
  };
  for (const auto& [in, out] : cases) EXPECT_EQ(NormalizedImageName(in), out) << in;
}

TEST(ImageLocalityTest, ImageVolumesAddToTheSumNotToTheThreshold) {
  // v1.35's sumImageScores adds image volumes; calculatePriority's
  // threshold counts only init containers and containers.
  Pod pod = MakePod({"gcr.io/none"});
  auto x = std::make_shared<PodSpecExtras>();
  x->image_volumes = {"gcr.io/2000"};
  pod.extras = x;
  const std::vector<Image> big = {{{"gcr.io/2000:latest"}, 2000 * kMb}};
  // 2000M * 1/1 clamps to 1000M x 1 container: 100.
  EXPECT_EQ(ScoreAll(pod, {MakeImageNode("node1", big)}), std::vector<int64_t>{kMaxNodeScore});
}

TEST(ImageLocalityTest, SkipsWhenNoNodeListsThePodsImages) {
  ClusterState cluster({MakeImageNode("a", {}), MakeImageNode("b", {})});
  ImageLocality pl;
  Pod pod = MakePod({"nginx"});
  EXPECT_FALSE(pl.PreScore(PodInfo::Make(pod, 0), cluster));
  ClusterState with({MakeImageNode("a", {{{"other:latest"}, 100 * kMb}})});
  EXPECT_FALSE(pl.PreScore(PodInfo::Make(pod, 0), with));
  Pod other = MakePod({"other"});
  EXPECT_TRUE(pl.PreScore(PodInfo::Make(other, 0), with));
}

TEST(ImageLocalityTest, CalculatePriority) {
  EXPECT_EQ(ImageLocality::CalculatePriority(0, 1), 0);
  EXPECT_EQ(ImageLocality::CalculatePriority(23 * kMb, 1), 0);
  EXPECT_EQ(ImageLocality::CalculatePriority(1000 * kMb, 1), kMaxNodeScore);
  EXPECT_EQ(ImageLocality::CalculatePriority(5000 * kMb, 2), kMaxNodeScore);
  // 100 * (250M/2 - 23M) / (2000M - 23M) = 5
  EXPECT_EQ(ImageLocality::CalculatePriority(125 * kMb, 2), 5);
}

}  // namespace
}  // namespace gpusched

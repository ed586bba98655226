// Tests for src/io/image_decode.cc through the manifest loader: a Node's
// status.images and a pod's image volumes (ImageLocality).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/model/image_names.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Load;

TEST(ImageDecodeTest, NodeImagesAndImageVolumes) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: \"4\", pods: \"110\"}\n"
      "  images:\n  - names: [\"repo/a@sha256:00\", \"repo/a:v1\"]\n    sizeBytes: 1000\n"
      "  - names: [\"repo/a:v1\", \"repo/b:latest\"]\n    sizeBytes: 5\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  containers: [{name: c, image: repo/a:v1}]\n"
      "  volumes: [{name: model, image: {reference: repo/weights:v2}}, {name: scratch, emptyDir: {}}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.nodes.size(), 1u);
  const Node& n = m.nodes[0].node;
  EXPECT_EQ(n.images.size(), 3u);
  // A name listed twice keeps the first image's size.
  EXPECT_EQ(n.ImageSize(FindImageName("repo/a:v1")), 1000);
  EXPECT_EQ(n.ImageSize(FindImageName("repo/b:latest")), 5);
  EXPECT_EQ(n.ImageSize(InternImageName("repo/c:latest")), -1);
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].pod.Extras().image_volumes, std::vector<std::string>{"repo/weights:v2"});
}

}  // namespace
}  // namespace gpusched

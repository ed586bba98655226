// End to end, ImageLocality as issue 26 asked for it: the node that already
// holds a 20 GiB training image is preferred (examples/image-locality).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kEx = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";

TEST(ImageLocalityCliTest, NodeHoldingTheTrainingImageIsPreferred) {
  CliRun r = Cli({"schedule", "-f", kEx + "image-locality", "--policy", "kube-default", "--explain", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 1u);
  EXPECT_EQ(j["placements"][0]["node"], "gpu-c");
  // 20 GiB x 1/3 of the nodes is over the 1000 MiB ceiling: 100 on gpu-c, 0 elsewhere.
  for (const auto& n : j["placements"][0]["explain"]["nodes"]) {
    int64_t image = -1;
    for (const auto& s : n["scores"])
      if (s["plugin"] == "ImageLocality") image = s["raw"];
    EXPECT_EQ(image, n["node"] == "gpu-c" ? 100 : 0) << n.dump();
  }
  // Run, so not named among the profile's unimplemented plugins.
  if (j.contains("unimplemented_plugins")) {
    EXPECT_EQ(j["unimplemented_plugins"].dump().find("ImageLocality"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpusched

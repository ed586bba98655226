// NodeAffinity's PreFilter end to end (examples/daemonset/): a DaemonSet pod
// is pinned to its node by matchFields metadata.name, so kube-scheduler
// evaluates that node only and reports every other node as "node(s) didn't
// satisfy plugin(s) [NodeAffinity]" (schedule_one.go findNodesThatFitPod),
// whatever else those nodes would fail (gpu-cordoned is cordoned).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

TEST(NodeAffinityCliTest, DaemonSetPodReportsTheOtherNodesAsPreFilterLeftThem) {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/daemonset/";
  CliRun r = Cli({"schedule", "-f", dir + "cluster.yaml", "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 2u) << r.out;
  ASSERT_EQ(j["pending"].size(), 1u) << r.out;
  EXPECT_EQ(j["pending"][0]["message"],
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. "
            "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
}

}  // namespace
}  // namespace gpusched

// The volume plugins end to end on examples/volumes (README "Volumes"): a
// pod whose claim is bound to a local PV on node-a lands on node-a, stays
// pending with kube-scheduler's text when node-a is full, and a pod whose
// claim does not exist stays pending with FitError's PreFilter message and
// DefaultPreemption's; a new pod's generic ephemeral volume gets its claim.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

std::vector<std::string> Args(std::vector<std::string> files) {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/volumes/";
  std::vector<std::string> args = {"schedule", "-f", dir + "cluster.yaml", "-f", dir + "storage.yaml"};
  for (const std::string& f : files) {
    args.push_back("-f");
    args.push_back(dir + f);
  }
  args.insert(args.end(), {"--policy", "kube-default", "--order", "fifo", "-o", "json"});
  return args;
}

// The pending entry of `pod` in the JSON report, or null.
nlohmann::json Pending(const CliRun& r, const std::string& pod) {
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const auto& p : j["pending"])
    if (p["pod"] == pod) return p;
  return nullptr;
}

TEST(VolumesCliTest, BoundLocalVolumeDecidesTheNode) {
  CliRun r = Cli(Args({"trainer.yaml"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 1u) << r.out;
  EXPECT_EQ(j["placements"][0]["pod"], "trainer");
  EXPECT_EQ(j["placements"][0]["node"], "node-a");
}

TEST(VolumesCliTest, FullNodeOfTheVolumeKeepsThePodPending) {
  CliRun r = Cli(Args({"node-a-busy.yaml", "trainer.yaml"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Pending(r, "trainer")["message"],
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had volume node affinity conflict. "
            "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is "
            "not helpful for scheduling.");
}

TEST(VolumesCliTest, MissingClaimIsUpstreamsPreFilterMessage) {
  CliRun r = Cli(Args({"missing-claim.yaml"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json eval = Pending(r, "eval");
  EXPECT_EQ(eval["message"],
            "0/2 nodes are available: persistentvolumeclaim \"eval-data\" not found. preemption: 0/2 nodes are "
            "available: 2 Preemption is not helpful for scheduling.");
  EXPECT_EQ(eval["reason"], "prefilter-rejected");
  EXPECT_EQ(eval["forever"], true);
}

// A StatefulSet's volumeClaimTemplates: llm-0's claim binds the one free
// local volume (node-b), llm-1's finds none, as kube-scheduler says it.
TEST(VolumesCliTest, StatefulSetClaimsFromTemplatesNeedVolumes) {
  CliRun r = Cli(Args({"statefulset.yaml"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 1u) << r.out;
  EXPECT_EQ(j["placements"][0]["pod"], "llm-0");
  EXPECT_EQ(j["placements"][0]["node"], "node-b");
  const nlohmann::json p = Pending(r, "llm-1");
  ASSERT_FALSE(p.is_null()) << r.out;
  EXPECT_EQ(p["message"],
            "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. preemption: 0/2 "
            "nodes are available: 2 Preemption is not helpful for scheduling.");
}

// A generic ephemeral volume of a pod not created yet: its claim is made
// from the template as the ephemeral volume controller would, provisioned
// where the pod goes (WaitForFirstConsumer), so the pod is placed instead of
// "waiting for ephemeral volume controller to create the persistentvolumeclaim".
TEST(VolumesCliTest, EphemeralVolumeOfANewPodGetsItsClaim) {
  CliRun r = Cli(Args({"ephemeral.yaml"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 1u) << r.out;
  EXPECT_EQ(j["placements"][0]["pod"], "finetune");
  EXPECT_EQ(j["pending"].size(), 0u) << r.out;
}

}  // namespace
}  // namespace gpusched

// End-to-end DRA through the gpusched binary on examples/dra/ (README "GPUs
// through DRA", docs/dra.md): the JSON contract of a placement's claims,
// explain's per-request reasons, and the DRA feature gates.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kDra = std::string(GPUSCHED_SOURCE_DIR) + "/examples/dra/";

TEST(DraCliTest, JsonClaimsOfEachPlacement) {
  CliRun r = Cli({"schedule", "-f", kDra, "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);
  std::map<std::string, std::string> got;
  for (const auto& p : j["placements"]) got[p["pod"]] = p.contains("claims") ? p["claims"].dump() : "";
  EXPECT_EQ(got["pair-train"],
            R"([{"name":"gpus","claim":"default/pair-train-gpus-wpnts","devices":[)"
            R"({"request":"gpus","driver":"gpu.nvidia.com","pool":"h100-1","device":"gpu-2"},)"
            R"({"request":"gpus","driver":"gpu.nvidia.com","pool":"h100-1","device":"gpu-3"}]}])");
  // firstAvailable: the result names the subrequest chosen.
  EXPECT_EQ(got["flexible"],
            R"([{"name":"accel","claim":"default/flexible-accel-8qzrm","devices":[)"
            R"({"request":"accel/mig","driver":"gpu.nvidia.com","pool":"mig-1","device":"gpu-0-mig-3g40gb-9-0"}]}])");
  // One claim, two pods, one device.
  EXPECT_EQ(got["server-a"], got["server-b"]);
  EXPECT_EQ(got["server-a"],
            R"([{"name":"gpu","claim":"default/shared-gpu","devices":[)"
            R"({"request":"gpu","driver":"gpu.nvidia.com","pool":"h100-1","device":"gpu-4"}]}])");
  ASSERT_EQ(j["pending"].size(), 1u);
  EXPECT_EQ(j["pending"][0]["pod"], "big-model");
  EXPECT_EQ(j["pending"][0]["reason"], "no-eligible-node");
  EXPECT_EQ(j["pending"][0]["forever"], true);
}

TEST(DraCliTest, ExplainSaysWhatEachNodeLacks) {
  CliRun r = Cli({"explain", "-f", kDra, "big-model"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("pod default/big-model requests resource claim gpus (from ResourceClaimTemplate "
                       "four-big-gpus)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  a100-1        0/0  no        DynamicResources         -  cannot allocate all claims "
                       "(request gpus (class gpu.nvidia.com, 4 devices): no device on the node matches its class and "
                       "selectors)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  it would fit with: devices that the claims' device classes and selectors admit, enough of "
                       "them on one node"),
            std::string::npos)
      << r.out;
}

// Devices taken: explain names the claims that hold them. With first fit,
// a100-1 is full after flexible (notebook, pair-train, flexible), so the
// shared claim's first pod goes to h100-1, and a fifth whole GPU would too.
TEST(DraCliTest, ExplainNamesTheClaimsHoldingTheDevices) {
  CliRun r = Cli({"explain", "-f", kDra, "server-a"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("cannot allocate all claims (request gpu (class gpu.nvidia.com, 1 device): 4 devices match, 0 "
                       "free; taken: gpu-0 (claim default/notebook-gpu-8mnz8), gpu-1 (claim "
                       "default/flexible-accel-8qzrm), gpu-2 (claim default/pair-train-gpus-wpnts), gpu-3 (claim "
                       "default/pair-train-gpus-wpnts))"),
            std::string::npos)
      << r.out;
}

TEST(DraCliTest, FeatureGates) {
  CliRun off = Cli({"schedule", "-f", kDra, "--feature-gates", "DRAPrioritizedList=false", "-o", "json"});
  ASSERT_EQ(off.code, 0) << off.err;
  const nlohmann::json j = nlohmann::json::parse(off.out);
  std::string flexible;
  for (const auto& p : j["pending"])
    if (p["pod"] == "flexible") flexible = p["message"];
  EXPECT_EQ(flexible,
            "0/3 nodes are available: resource claim default/flexible-accel-8qzrm, request accel: has subrequests, "
            "but the DRAPrioritizedList feature is disabled.");
  CliRun bad = Cli({"schedule", "-f", kDra, "--feature-gates", "DRAExtendedResource=true"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err,
            "error: unsupported --feature-gates entry \"DRAExtendedResource=true\" (schedule reads "
            "GangScheduling=true|false and GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)\n");
}

}  // namespace
}  // namespace gpusched

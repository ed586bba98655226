// The simulate demo of examples/gang/README.md through the command line,
// output compared exactly: two interleaved gangs placed one by one
// (both run partially, every GPU-hour held by groups that never ran whole)
// and under GangScheduling (members wait at Permit; the first deadline
// releases one gang and the other completes), and the JSON summary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;

const std::string kGangSim = std::string(GPUSCHED_SOURCE_DIR) + "/examples/gang/";

TEST(GangSimulateCliTest, OneByOneRunsBothGangsPartially) {
  auto r = Cli({"simulate", "-f", kGangSim + "simulate/workload.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, R"(simulated 6 pods on 4 nodes, queue order priority, seed 1

  POLICY            PODS  FINISHED  RUNNING  PENDING  REJECTED  GPU ALLOC  FRAG   WAIT p50/p90/p99        JCT p50/p99
  kube-default         6         6        0        0         0     75.0%   0.0%   0.0s/119.9m/119.9m      2.00h/4.00h

  GPU ALLOC and FRAG are time-weighted means over the run; FRAG is FGD's fragmentation (free GPU share
  no typical pod of this workload could use) as a % of GPU capacity; WAIT is arrival to first bind.

gangs with kube-default: 2 gangs, 0 enforced by their scheduler
  placed one by one: 2 groups ran partially (members running, never minCount at once), holding 96.00 GPU-hours
)");
}

TEST(GangSimulateCliTest, GangSchedulingWaitsAtPermit) {
  auto r = Cli({"simulate", "-f", kGangSim + "simulate/workload.yaml", "--feature-gates", "GangScheduling=true",
                "--config", kGangSim + "config/gang-scheduling.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, R"(simulated 6 pods on 4 nodes, queue order priority, seed 1

  POLICY            PODS  FINISHED  RUNNING  PENDING  REJECTED  GPU ALLOC  FRAG   WAIT p50/p90/p99        JCT p50/p99
  kube-default         6         6        0        0         0     87.7%   0.0%   5.0m/2.08h/2.08h        2.08h/4.08h

  GPU ALLOC and FRAG are time-weighted means over the run; FRAG is FGD's fragmentation (free GPU share
  no typical pod of this workload could use) as a % of GPU capacity; WAIT is arrival to first bind.

gangs with kube-default: 2 gangs, 2 enforced by their scheduler
  started 2 times, wait from first member reserved to start p50/p99/max 5.0m/2.08h/2.08h; 67152 GPU-seconds held by members waiting on Permit
  25 Permit timeouts (1 gang, 25 retries)
)");
}

TEST(GangSimulateCliTest, GangSchedulingProfileNeedsItsGate) {
  auto r = Cli({"simulate", "-f", kGangSim + "simulate/workload.yaml", "--config",
                kGangSim + "config/gang-scheduling.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: profile \"default-scheduler\" enables GangScheduling, alpha in v1.35 and off by default: add "
            "--feature-gates GangScheduling=true\n");
}

TEST(GangSimulateCliTest, SummaryJsonHasTheGangMetrics) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "gang_simulate_json";
  std::filesystem::remove_all(dir);
  auto r = Cli({"simulate", "-f", kGangSim + "simulate/workload.yaml", "--feature-gates", "GangScheduling=true",
                "--config", kGangSim + "config/gang-scheduling.yaml", "-o", dir.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream f(dir / "summary.json");
  const nlohmann::json j = nlohmann::json::parse(f);
  const nlohmann::json& g = j["policies"][0]["gangs"];
  EXPECT_EQ(g["gangs"], 2);
  EXPECT_EQ(g["enforced"], 2);
  EXPECT_EQ(g["started"], 2);
  EXPECT_EQ(g["timeouts"], 25);
  EXPECT_EQ(g["gangs_timed_out"], 1);
  EXPECT_EQ(g["retries"], 25);
  EXPECT_EQ(g["partial_groups"], 0);
  EXPECT_EQ(g["wait"]["count"], 2);
  EXPECT_EQ(g["wait"]["max"], 7500);
  EXPECT_EQ(g["wait"]["p50"], 299);
  EXPECT_EQ(g["waiting_gpu_seconds"], 67152);
}

}  // namespace
}  // namespace gpusched

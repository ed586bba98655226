// Tests for src/run/sim_run.cc: a cluster and workload loaded once and
// replayed under each policy of the settings, with the settings' queue order
// and end time, and a path that cannot be read.
#include "gpusched/run/sim_run.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

const std::string kSim = std::string(GPUSCHED_SOURCE_DIR) + "/examples/simulate/";

TEST(SimRunTest, EachPolicyOfTheSettings) {
  RunResult<RunSettings> settings =
      ResolveSettings(RunOptions{.policy = "best-fit,fgd"}, Command::kSimulate, nullptr);
  ASSERT_TRUE(settings.ok());
  SimRun run(*settings);
  ASSERT_TRUE(run.Load({kSim + "cluster.yaml"}, false, kSim + "jobs.yaml").ok());
  EXPECT_EQ(run.inputs().initial_nodes.size(), 8u);
  EXPECT_EQ(run.inputs().workload.pods.size(), 8u);
  for (const std::string& policy : settings->policies) {
    SCOPED_TRACE(policy);
    double last = 0;
    Result<SimResult> r = run.Simulate(policy, std::nullopt, [&last](double f) { last = f; });
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->policy, policy);
    EXPECT_EQ(r->summary.pods, 8);
    EXPECT_EQ(r->summary.finished, 6);
    EXPECT_EQ(r->summary.running, 2);
    EXPECT_EQ(last, 1.0);
  }
  // Stopped at the start, nothing has finished.
  Result<SimResult> early = run.Simulate("best-fit", 0.0, nullptr);
  ASSERT_TRUE(early.ok());
  EXPECT_EQ(early->summary.finished, 0);
}

TEST(SimRunTest, UnreadablePath) {
  RunResult<RunSettings> settings = ResolveSettings(RunOptions{}, Command::kSimulate, nullptr);
  ASSERT_TRUE(settings.ok());
  SimRun run(*settings);
  EXPECT_EQ(run.Load({kSim + "cluster.yaml"}, false, "/nonexistent/w.yaml").message(),
            "error: the path \"/nonexistent/w.yaml\" does not exist");
}

}  // namespace
}  // namespace gpusched

// Tests for src/run/batch_run.cc: the seed's manifests scheduled with
// resolved settings, the per-node detail for every pod or one, and a path
// that cannot be read.
#include "gpusched/run/batch_run.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

const std::string kSeed = std::string(GPUSCHED_SOURCE_DIR) + "/examples/seed";

RunSettings Settings(RunOptions options) {
  RunResult<RunSettings> s = ResolveSettings(options, Command::kSchedule, nullptr);
  EXPECT_TRUE(s.ok());
  return std::move(s).value();
}

// "pod->node ..." for the placements, then "| pending ...".
std::string Outcome(const BatchRun& run) {
  std::string out;
  for (const auto& p : run.result().placements)
    out += run.pods()[p.pod]->name() + "->" + run.cluster().node(p.node).name() + " ";
  out += "|";
  for (const auto& p : run.result().pending) out += " " + run.pods()[p.pod]->name();
  return out;
}

TEST(BatchRunTest, SchedulesTheSeedUnderEachSetting) {
  struct Case {
    RunOptions options;
    std::string want;
  };
  const Case cases[] = {
      // The seed's own answer: first-fit in input order.
      {{}, "training-job-a->gpu-node-1 inference-svc-b->gpu-node-1 inference-svc-d->gpu-node-1 "
           "training-job-e->gpu-node-2 | training-job-c"},
      {{.order = "largest-first"}, "training-job-c->gpu-node-1 training-job-a->gpu-node-2 "
                                   "inference-svc-b->gpu-node-1 | training-job-e inference-svc-d"},
  };
  for (const Case& c : cases) {
    const RunSettings settings = Settings(c.options);
    BatchRun run;
    ASSERT_TRUE(run.Load({kSeed}, false).ok());
    EXPECT_EQ(run.pods().size(), 5u);
    ASSERT_TRUE(run.Schedule(settings, BatchDetail{}).ok());
    EXPECT_EQ(Outcome(run), c.want);
    EXPECT_FALSE(run.result().placements.front().explain.has_value());
    EXPECT_EQ(run.schedulers().profiles.size(), 1u);
  }
}

TEST(BatchRunTest, DetailForEveryPodOrOne) {
  const RunSettings settings = Settings({});
  BatchRun every;
  ASSERT_TRUE(every.Load({kSeed}, false).ok());
  ASSERT_TRUE(every.Schedule(settings, BatchDetail{.every_pod = true}).ok());
  for (const auto& p : every.result().placements) EXPECT_TRUE(p.explain.has_value());
  for (const auto& p : every.result().pending) EXPECT_TRUE(p.explain.has_value());

  BatchRun one;
  ASSERT_TRUE(one.Load({kSeed}, false).ok());
  ASSERT_TRUE(one.Schedule(settings, BatchDetail{.pod = 2}).ok());  // training-job-c, pending
  for (const auto& p : one.result().placements) EXPECT_FALSE(p.explain.has_value());
  ASSERT_EQ(one.result().pending.size(), 1u);
  EXPECT_TRUE(one.result().pending.front().explain.has_value());
}

TEST(BatchRunTest, UnreadablePath) {
  BatchRun run;
  Status st = run.Load({"/nonexistent/cluster.yaml"}, false);
  EXPECT_EQ(st.message(), "error: the path \"/nonexistent/cluster.yaml\" does not exist");
}

}  // namespace
}  // namespace gpusched

// Tests for src/run/run_error.cc: a RunError's message in the concepts'
// words, RunResult, and the engine's messages without their "error: ".
#include "gpusched/run/run_error.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

std::string Flag(Setting s) { return s == Setting::kOrder ? "--order" : "--?"; }

TEST(RunErrorTest, MessageNamesTheConceptOrWhatTheCallerSays) {
  const RunError e{RunError::Kind::kUnknownName, Setting::kOrder,
                   SettingText() << "unknown " << Setting::kOrder << " \"lifo\""};
  EXPECT_EQ(e.Message(), "unknown queue order \"lifo\"");
  EXPECT_EQ(e.Message(Flag), "unknown --order \"lifo\"");
}

TEST(RunErrorTest, ResultHoldsAValueOrAnError) {
  RunResult<int> ok = 3;
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 3);
  RunResult<int> bad = RunError{RunError::Kind::kConflict, Setting::kSchedulerName, "taken"};
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, RunError::Kind::kConflict);
  EXPECT_EQ(bad.error().Message(), "taken");
}

TEST(RunErrorTest, EngineMessageDropsTheErrorPrefix) {
  EXPECT_EQ(EngineMessage(Status::Usage("error: fgd needs a workload")), "fgd needs a workload");
  EXPECT_EQ(EngineMessage(Status::NotFound("cannot read x.yaml")), "cannot read x.yaml");
  EXPECT_EQ(EngineMessage(Status::Usage("an error: inside")), "an error: inside");
}

}  // namespace
}  // namespace gpusched

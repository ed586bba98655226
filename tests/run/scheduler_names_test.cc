// Tests for src/run/scheduler_names.cc: NAME=POLICY values, and names
// given twice or already served (moved here from
// tests/sched/framework/profile_factory_test.cc with the parser and checks).
#include "gpusched/run/scheduler_names.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

const std::string kKnown =
    "first-fit, best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, "
    "paper-best-fit";

TEST(SchedulerNamesTest, Parse) {
  RunResult<std::vector<ExtraProfile>> none = ParseSchedulerNames({}, DefaultSchedulerConfiguration());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  RunResult<std::vector<ExtraProfile>> two =
      ParseSchedulerNames({"kai-scheduler=best-fit", "volcano=fgd"}, DefaultSchedulerConfiguration());
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0].scheduler_name, "kai-scheduler");
  EXPECT_EQ((*two)[0].policy, "best-fit");
  EXPECT_EQ((*two)[1].scheduler_name, "volcano");
  EXPECT_EQ((*two)[1].policy, "fgd");
}

TEST(SchedulerNamesTest, Errors) {
  KubeSchedulerConfiguration two_profiles = DefaultSchedulerConfiguration();
  two_profiles.profiles.push_back(two_profiles.profiles.front());
  two_profiles.profiles.back().scheduler_name = "gpu-scheduler";
  struct Case {
    std::vector<std::string> values;
    RunError::Kind kind;
    std::string error;
  };
  const Case cases[] = {
      {{"kai-scheduler"}, RunError::Kind::kInvalidValue,
       "invalid scheduler name \"kai-scheduler\": expected NAME=POLICY, e.g. kai-scheduler=best-fit"},
      {{"=best-fit"}, RunError::Kind::kInvalidValue,
       "invalid scheduler name \"=best-fit\": the scheduler name before \"=\" is empty"},
      {{"kai-scheduler="}, RunError::Kind::kInvalidValue,
       "invalid scheduler name \"kai-scheduler=\": the policy after \"=\" is empty"},
      {{"kai-scheduler=bestfit"}, RunError::Kind::kUnknownName,
       "invalid scheduler name \"kai-scheduler=bestfit\": unknown policy \"bestfit\" (did you mean best-fit? known: " +
           kKnown + ")"},
      // The first bad value is the error, before any conflict.
      {{"kai-scheduler=best-fit", "kai-scheduler=best-fit", "volcano", "=x"}, RunError::Kind::kInvalidValue,
       "invalid scheduler name \"volcano\": expected NAME=POLICY, e.g. kai-scheduler=best-fit"},
      {{"kai-scheduler=best-fit", "kai-scheduler=first-fit"}, RunError::Kind::kConflict,
       "scheduler name kai-scheduler is given twice"},
      {{"default-scheduler=best-fit"}, RunError::Kind::kConflict,
       "scheduler name default-scheduler=best-fit: \"default-scheduler\" is already served by policy (or the "
       "configuration profile of that name)"},
      {{"gpu-scheduler=best-fit"}, RunError::Kind::kConflict,
       "scheduler name gpu-scheduler=best-fit: \"gpu-scheduler\" is already served by a profile of configuration"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.values.front());
    RunResult<std::vector<ExtraProfile>> r = ParseSchedulerNames(c.values, two_profiles);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, c.kind);
    EXPECT_EQ(r.error().setting, Setting::kSchedulerName);
    EXPECT_EQ(r.error().Message(), c.error);
  }
}

TEST(SchedulerNamesTest, UnknownPolicyText) {
  EXPECT_EQ(UnknownPolicyText(Setting::kPolicy, "x").Render(), "unknown policy \"x\" (known: " + kKnown + ")");
  EXPECT_EQ(UnknownPolicyText("policy", "x"), SettingText("unknown policy \"x\" (known: " + kKnown + ")"));
  // A name near known ones says which, best first.
  EXPECT_EQ(UnknownPolicyText(Setting::kPolicy, "gpu").Render(),
            "unknown policy \"gpu\" (did you mean gpu-packing or gpu-clustering? known: " + kKnown + ")");
}

}  // namespace
}  // namespace gpusched

// Tests for src/run/setting.cc: each setting's concept name, and one
// sentence rendered with the concepts or with another namer.
#include "gpusched/run/setting.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(SettingTest, ConceptNames) {
  const std::pair<Setting, std::string> cases[] = {
      {Setting::kPolicy, "policy"},
      {Setting::kOrder, "queue order"},
      {Setting::kSeed, "seed"},
      {Setting::kConfig, "configuration"},
      {Setting::kFeatureGates, "feature gates"},
      {Setting::kSchedulerName, "scheduler name"},
      {Setting::kPreemptGangs, "gang preemption"},
  };
  for (const auto& [setting, name] : cases) EXPECT_EQ(ConceptName(setting), name);
}

std::string Upper(Setting s) { return "<" + ConceptName(s) + ">"; }

TEST(SettingTest, OneSentenceTwoNamings) {
  SettingText t;
  t << "unknown " << Setting::kPolicy << " \"x\"" << std::string(" (see ") << Setting::kConfig << ")";
  EXPECT_EQ(t.Render(), "unknown policy \"x\" (see configuration)");
  EXPECT_EQ(t.Render(Upper), "unknown <policy> \"x\" (see <configuration>)");
  // Text and settings append; a SettingText appends its parts.
  SettingText whole = SettingText("a ") << t << Setting::kSeed;
  EXPECT_EQ(whole.Render(), "a unknown policy \"x\" (see configuration)seed");
  EXPECT_EQ(SettingText(Setting::kOrder).Render(Upper), "<queue order>");
  EXPECT_TRUE(SettingText().empty());
  EXPECT_TRUE(SettingText("").empty());
  // Adjacent text merges: equal sentences compare equal however built.
  EXPECT_EQ(SettingText("ab"), SettingText("a") << "b");
  EXPECT_NE(SettingText("policy"), SettingText(Setting::kPolicy));
}

}  // namespace
}  // namespace gpusched

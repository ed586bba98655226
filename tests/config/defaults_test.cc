// src/config/defaults.cc: SetDefaults. Ported from k8s.io/kubernetes
// pkg/scheduler/apis/config/v1/defaults_test.go:
//  - TestSchedulerDefaults: "empty config", "no scheduler name", "two
//    profiles", "set non default parallelism", "set non default global
//    percentageOfNodesToScore", "set non default profile
//    percentageOfNodesToScore", "set non default global and profile
//    percentageOfNodesToScore", "unknown plugin config" (8 of 11; the
//    others set fields gpusched does not model: leader election, client
//    connection, delayCacheUntilActive). The fields compared are the ones
//    gpusched models: profiles, scheduler names, plugins (getDefaultPlugins
//    merged), the pluginConfig names (upstream's pluginConfigs list),
//    percentages, backoff and parallelism.
//  - TestPluginArgsDefaults: the NodeResourcesBalancedAllocationArgs (4) and
//    NodeResourcesFitArgs (2) cases.
#include <gtest/gtest.h>

#include "gpusched/config/scheduler_config.h"

namespace gpusched {
namespace {

std::string Str(const std::vector<PluginRef>& v) {
  std::string s;
  for (const auto& p : v) s += (s.empty() ? "" : " ") + p.name + (p.weight ? ":" + std::to_string(p.weight) : "");
  return s;
}

std::string Str(const std::vector<ResourceSpec>& v) {
  std::string s;
  for (const auto& r : v) s += (s.empty() ? "" : " ") + r.name + ":" + std::to_string(r.weight);
  return s;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// pluginConfigs of defaults_test.go: the defaulted args appended for the
// enabled plugins that have an args kind, in name order.
const char* kDefaultPluginConfigs =
    "DefaultPreemption DynamicResources InterPodAffinity NodeAffinity NodeResourcesBalancedAllocation "
    "NodeResourcesFit PodTopologySpread VolumeBinding";

void ExpectDefaultProfile(const SchedulerProfile& p, const std::string& context) {
  EXPECT_EQ(Str(p.plugins.multi_point.enabled), Str(DefaultPlugins().multi_point.enabled)) << context;
  EXPECT_TRUE(p.plugins.multi_point.disabled.empty()) << context;
  EXPECT_EQ(Join(p.plugin_config), kDefaultPluginConfigs) << context;
  EXPECT_EQ(ScoringStrategyName(p.fit_args.type), std::string("LeastAllocated")) << context;
  EXPECT_EQ(Str(p.fit_args.resources), "cpu:1 memory:1") << context;
  EXPECT_EQ(Str(p.balanced_args.resources), "cpu:1 memory:1") << context;
}

void ExpectGlobalDefaults(const KubeSchedulerConfiguration& c, const std::string& context) {
  EXPECT_EQ(c.pod_initial_backoff_seconds, 1) << context;
  EXPECT_EQ(c.pod_max_backoff_seconds, 10) << context;
  EXPECT_TRUE(c.defaulted) << context;
}

TEST(SetDefaultsTest, EmptyConfig) {
  KubeSchedulerConfiguration c;
  SetDefaults(c);
  ExpectGlobalDefaults(c, "empty config");
  EXPECT_EQ(c.parallelism, 16);
  EXPECT_EQ(c.percentage_of_nodes_to_score, 0);  // config.DefaultPercentageOfNodesToScore
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_FALSE(c.profiles[0].percentage_of_nodes_to_score);
  ExpectDefaultProfile(c.profiles[0], "empty config");
}

TEST(SetDefaultsTest, DefaultSchedulerConfigurationIsTheEmptyConfigDefaulted) {
  KubeSchedulerConfiguration c = DefaultSchedulerConfiguration();
  ExpectGlobalDefaults(c, "DefaultSchedulerConfiguration");
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  ExpectDefaultProfile(c.profiles[0], "DefaultSchedulerConfiguration");
  EXPECT_TRUE(ValidateSchedulerConfiguration(c).empty());
}

TEST(SetDefaultsTest, NoSchedulerName) {
  KubeSchedulerConfiguration c;
  c.profiles.emplace_back();
  c.profiles[0].scheduler_name.clear();  // as the loader leaves a profile without schedulerName
  SetDefaults(c);
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  ExpectDefaultProfile(c.profiles[0], "no scheduler name");
}

TEST(SetDefaultsTest, TwoProfiles) {
  KubeSchedulerConfiguration c;
  c.parallelism = 16;
  SchedulerProfile first;
  first.scheduler_name.clear();
  first.plugin_config = {"FooPlugin"};
  SchedulerProfile second;
  second.scheduler_name = "custom-scheduler";
  second.scheduler_name_set = true;
  second.plugins.bind.enabled = {{"BarPlugin", 0}};
  second.plugins.bind.disabled = {{"DefaultBinder", 0}};
  c.profiles = {first, second};
  SetDefaults(c);
  ASSERT_EQ(c.profiles.size(), 2u);
  // Only a single profile gets the default name.
  EXPECT_EQ(c.profiles[0].scheduler_name, "");
  EXPECT_EQ(Str(c.profiles[0].plugins.multi_point.enabled), Str(DefaultPlugins().multi_point.enabled));
  EXPECT_EQ(Join(c.profiles[0].plugin_config), std::string("FooPlugin ") + kDefaultPluginConfigs);
  EXPECT_EQ(c.profiles[1].scheduler_name, "custom-scheduler");
  EXPECT_EQ(Str(c.profiles[1].plugins.multi_point.enabled), Str(DefaultPlugins().multi_point.enabled));
  EXPECT_EQ(Str(c.profiles[1].plugins.bind.enabled), "BarPlugin");
  EXPECT_EQ(Str(c.profiles[1].plugins.bind.disabled), "DefaultBinder");
  EXPECT_EQ(Join(c.profiles[1].plugin_config), kDefaultPluginConfigs);
}

TEST(SetDefaultsTest, NonDefaultParallelism) {
  KubeSchedulerConfiguration c;
  c.parallelism = 8;
  SetDefaults(c);
  EXPECT_EQ(c.parallelism, 8);
  ASSERT_EQ(c.profiles.size(), 1u);
  ExpectDefaultProfile(c.profiles[0], "set non default parallelism");
}

TEST(SetDefaultsTest, PercentageOfNodesToScore) {
  struct Case {
    const char* name;
    std::optional<int32_t> global;
    std::optional<int32_t> profile;  // nullopt: no profile given
    int32_t want_global;
    std::optional<int32_t> want_profile;
  };
  const std::vector<Case> cases = {
      {"set non default global percentageOfNodesToScore", 50, std::nullopt, 50, std::nullopt},
      {"set non default profile percentageOfNodesToScore", std::nullopt, 50, 0, 50},
      {"set non default global and profile percentageOfNodesToScore", 10, 50, 10, 50},
  };
  for (const auto& t : cases) {
    KubeSchedulerConfiguration c;
    c.percentage_of_nodes_to_score = t.global;
    if (t.profile) {
      SchedulerProfile p;
      p.scheduler_name.clear();
      p.percentage_of_nodes_to_score = t.profile;
      c.profiles.push_back(p);
    }
    SetDefaults(c);
    EXPECT_EQ(c.percentage_of_nodes_to_score, t.want_global) << t.name;
    ASSERT_EQ(c.profiles.size(), 1u) << t.name;
    EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler") << t.name;
    EXPECT_EQ(c.profiles[0].percentage_of_nodes_to_score, t.want_profile) << t.name;
    ExpectDefaultProfile(c.profiles[0], t.name);
  }
}

TEST(SetDefaultsTest, UnknownPluginConfig) {
  // The given pluginConfig entries are kept as they are and no default is
  // appended for a plugin that already has one.
  KubeSchedulerConfiguration c;
  SchedulerProfile p;
  p.scheduler_name.clear();
  p.plugin_config = {"DefaultPreemption", "DynamicResources", "InterPodAffinity", "NodeAffinity",
                     "NodeResourcesBalancedAllocation", "NodeResourcesFit", "PodTopologySpread", "VolumeBinding"};
  c.profiles.push_back(p);
  SetDefaults(c);
  EXPECT_EQ(Join(c.profiles[0].plugin_config), kDefaultPluginConfigs);
}

TEST(SetDefaultsTest, PluginArgsDefaults) {
  struct BalancedCase {
    const char* name;
    std::vector<ResourceSpec> in;
    const char* want;
  };
  const std::vector<BalancedCase> balanced = {
      {"NodeResourcesBalancedAllocationArgs resources empty", {}, "cpu:1 memory:1"},
      {"NodeResourcesBalancedAllocationArgs with scalar resource", {{"scalar.io/scalar1", 1}}, "scalar.io/scalar1:1"},
      {"NodeResourcesBalancedAllocationArgs with mixed resources",
       {{"cpu", 1}, {"scalar.io/scalar1", 1}},
       "cpu:1 scalar.io/scalar1:1"},
      {"NodeResourcesBalancedAllocationArgs have resource no weight",
       {{"cpu", 0}, {"scalar.io/scalar0", 0}, {"scalar.io/scalar1", 1}},
       "cpu:1 scalar.io/scalar0:1 scalar.io/scalar1:1"},
  };
  for (const auto& t : balanced) {
    KubeSchedulerConfiguration c;
    c.profiles.emplace_back();
    c.profiles[0].balanced_args.resources = t.in;
    SetDefaults(c);
    EXPECT_EQ(Str(c.profiles[0].balanced_args.resources), t.want) << t.name;
  }
  struct FitCase {
    const char* name;
    ScoringStrategyType type;
    const char* want_type;
  };
  const std::vector<FitCase> fit = {
      {"NodeResourcesFitArgs not set", ScoringStrategyType::kLeastAllocated, "LeastAllocated"},
      {"NodeResourcesFitArgs Resources empty", ScoringStrategyType::kMostAllocated, "MostAllocated"},
  };
  for (const auto& t : fit) {
    KubeSchedulerConfiguration c;
    c.profiles.emplace_back();
    c.profiles[0].fit_args.type = t.type;
    SetDefaults(c);
    EXPECT_EQ(ScoringStrategyName(c.profiles[0].fit_args.type), std::string(t.want_type)) << t.name;
    EXPECT_EQ(Str(c.profiles[0].fit_args.resources), "cpu:1 memory:1") << t.name;
  }
  // "If the weight is not set or it is explicitly set to 0, then apply the
  // default weight(1) instead" (SetDefaults_NodeResourcesFitArgs).
  KubeSchedulerConfiguration c;
  c.profiles.emplace_back();
  c.profiles[0].fit_args.resources = {{"nvidia.com/gpu", 0}, {"cpu", 3}};
  SetDefaults(c);
  EXPECT_EQ(Str(c.profiles[0].fit_args.resources), "nvidia.com/gpu:1 cpu:3");
}

TEST(SetDefaultsTest, ExplicitBackoffIsKept) {
  // PodInitialBackoffSeconds / PodMaxBackoffSeconds are defaulted only when
  // nil; a value the file sets stays, even 0, for validation to judge.
  KubeSchedulerConfiguration c;
  c.pod_initial_backoff_seconds = 0;
  c.pod_max_backoff_seconds = 30;
  SetDefaults(c);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 0);
  EXPECT_EQ(c.pod_max_backoff_seconds, 30);
}

TEST(SetDefaultsTest, Idempotent) {
  KubeSchedulerConfiguration c = DefaultSchedulerConfiguration();
  KubeSchedulerConfiguration again = c;
  SetDefaults(again);
  EXPECT_EQ(Str(again.profiles[0].plugins.multi_point.enabled), Str(c.profiles[0].plugins.multi_point.enabled));
  EXPECT_EQ(Join(again.profiles[0].plugin_config), Join(c.profiles[0].plugin_config));
}

}  // namespace
}  // namespace gpusched

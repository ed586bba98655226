// Tests for src/sched/framework/profile_factory.cc: the schedulers of a configuration
// for every policy, and the extra profiles of other schedulers' names.
#include "gpusched/sched/framework/profile_factory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "../test_util.h"

namespace gpusched {
namespace {

std::vector<std::string> FilterNames(const Scheduler& s) {
  std::vector<std::string> names;
  for (const auto& f : s.filters()) names.emplace_back(f->Name());
  return names;
}

TEST(ProfileFactoryTest, DefaultProfileForEveryPolicy) {
  // kube-scheduler's default profile: its filters, in upstream order, then
  // GpuShare; every plugin of it is implemented.
  const std::vector<std::string> filters = {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                                            "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
                                            "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity",
                                            "DynamicResources", "GpuShare"};
  TypicalPods typical = ComputeTypicalPods({});
  PolicyOptions options;
  options.typical = &typical;
  for (const std::string& policy : PolicyNames()) {
    SCOPED_TRACE(policy);
    Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), policy, 1, options);
    ASSERT_TRUE(set.ok()) << set.status().message();
    ASSERT_EQ(set->owned.size(), 1u);
    ASSERT_EQ(set->profiles.size(), 1u);
    EXPECT_EQ(set->profiles[0].first, "default-scheduler");
    EXPECT_EQ(set->profiles[0].second, set->owned[0].get());
    const Scheduler& s = *set->owned[0];
    EXPECT_EQ(FilterNames(s), filters);
    EXPECT_EQ(s.policy().Name(), policy);
    // Only kube-scheduler's own profile carries DefaultPreemption.
    EXPECT_EQ(s.preemption(), policy == "kube-default");
    EXPECT_EQ(set->unimplemented, std::vector<std::string>{});
  }
}

TEST(ProfileFactoryTest, Errors) {
  Result<SchedulerSet> unknown = BuildSchedulers(DefaultSchedulerConfiguration(), "magic", 1);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), UnknownPolicyMessage("magic"));
  Result<SchedulerSet> fgd = BuildSchedulers(DefaultSchedulerConfiguration(), "fgd", 1);
  ASSERT_FALSE(fgd.ok());
  EXPECT_EQ(fgd.status().message(), "error: fgd needs a workload to derive its target pods");
}

TEST(ProfileFactoryTest, OneSchedulerPerProfileWithItsOwnPlugins) {
  // A second profile without TaintToleration and without DefaultPreemption.
  KubeSchedulerConfiguration cfg;
  SchedulerProfile plain;
  SchedulerProfile gpu;
  gpu.scheduler_name = "gpu-scheduler";
  gpu.plugins.filter.disabled.push_back(PluginRef{"TaintToleration"});
  gpu.plugins.post_filter.disabled.push_back(PluginRef{"DefaultPreemption"});
  cfg.profiles = {plain, gpu};
  SetDefaults(cfg);
  Result<SchedulerSet> set = BuildSchedulers(cfg, "kube-default", 1);
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->profiles.size(), 2u);
  EXPECT_EQ(set->profiles[0].first, "default-scheduler");
  EXPECT_EQ(set->profiles[1].first, "gpu-scheduler");
  EXPECT_TRUE(set->profiles[0].second->preemption());
  EXPECT_FALSE(set->profiles[1].second->preemption());
  EXPECT_EQ(FilterNames(*set->profiles[1].second),
            (std::vector<std::string>{"NodeUnschedulable", "NodeName", "NodeAffinity", "NodePorts", "NodeResourcesFit",
                                      "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
                                      "InterPodAffinity", "DynamicResources", "GpuShare"}));
}

TEST(ProfileFactoryTest, ProfilesDrawFromDistinctStreams) {
  // Two identical profiles break the same ties differently: each scheduler's
  // generator is seeded from the seed and the profile's index. Sixteen empty
  // 1-GPU nodes tie for every pod under kube-default's scoring.
  KubeSchedulerConfiguration cfg;
  SchedulerProfile a, b;
  b.scheduler_name = "second";
  cfg.profiles = {a, b};
  SetDefaults(cfg);
  Result<SchedulerSet> set = BuildSchedulers(cfg, "kube-default", 7);
  ASSERT_TRUE(set.ok());
  std::vector<Node> nodes;
  for (int i = 0; i < 16; ++i) nodes.push_back(testing::GpuNode("n" + std::to_string(i), 1));
  std::vector<size_t> chosen[2];
  for (int k = 0; k < 2; ++k) {
    ClusterState c(nodes);
    for (int j = 0; j < 8; ++j) {
      Pod p = testing::GpuPod("p" + std::to_string(j), 1);
      Decision d = set->profiles[static_cast<size_t>(k)].second->ScheduleOne(PodInfo::Make(p, 0), c);
      ASSERT_TRUE(d.scheduled);
      chosen[k].push_back(d.node);
    }
  }
  EXPECT_NE(chosen[0], chosen[1]);
  // The same seed again gives the same choices.
  Result<SchedulerSet> again = BuildSchedulers(cfg, "kube-default", 7);
  ClusterState c(nodes);
  std::vector<size_t> repeat;
  for (int j = 0; j < 8; ++j) {
    Pod p = testing::GpuPod("p" + std::to_string(j), 1);
    repeat.push_back(again->profiles[0].second->ScheduleOne(PodInfo::Make(p, 0), c).node);
  }
  EXPECT_EQ(repeat, chosen[0]);
}

TEST(SchedulerNameFlagTest, ExtraProfilesAfterTheConfiguration) {
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, {},
                                             {{"kai-scheduler", "best-fit"}, {"volcano", "kube-default"}});
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ(set->profiles.size(), 3u);
  EXPECT_EQ(set->profiles[0].first, "default-scheduler");
  EXPECT_EQ(set->profiles[0].second->policy().Name(), "first-fit");
  EXPECT_EQ(set->profiles[1].first, "kai-scheduler");
  EXPECT_EQ(set->profiles[1].second->policy().Name(), "best-fit");
  EXPECT_EQ(set->profiles[2].first, "volcano");
  EXPECT_EQ(set->profiles[2].second->policy().Name(), "kube-default");
  // kube-scheduler's default plugins, with DefaultPreemption's message.
  EXPECT_TRUE(set->profiles[2].second->preemption());
  EXPECT_FALSE(set->profiles[1].second->preemption());
  std::vector<std::string> filters;
  for (const auto& f : set->profiles[1].second->filters()) filters.emplace_back(f->Name());
  EXPECT_EQ(filters, (std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                               "NodePorts", "NodeResourcesFit", "VolumeRestrictions",
                                               "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
                                               "InterPodAffinity", "DynamicResources", "GpuShare"}));
}

// Names given twice or already served are refused before, by the run layer
// (tests/run/scheduler_names_test.cc).
TEST(SchedulerNameFlagTest, FgdNeedsTheWorkload) {
  Result<SchedulerSet> fgd =
      BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, {}, {{"kai-scheduler", "fgd"}});
  ASSERT_FALSE(fgd.ok());
  EXPECT_EQ(fgd.status().message(), "error: " + std::string(kFgdNeedsWorkload));
}

}  // namespace
}  // namespace gpusched

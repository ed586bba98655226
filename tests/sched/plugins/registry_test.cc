// src/sched/plugins/registry.cc: the rows (v1.35's registry.go order and
// each plugin's extension points), every made plugin implementing what its
// row declares, PluginRegistry::With, a throw-away plugin configured and run
// through its row alone; NewScorePlugin: gpusched's own checks of the
// registry (kube-scheduler plugin names, nullptr for unknown ones) and of the
// args defaulting it applies (pkg/scheduler/apis/config/v1/defaults.go
// SetDefaults_NodeResourcesFitArgs / SetDefaults_NodeResourcesBalancedAllocationArgs),
// with values derived from the upstream formulas, not from our output.
#include "gpusched/sched/plugins/registry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "../../support/label_gate_plugin.h"
#include "../score_test_util.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using scoretest::MakeCluster;
using scoretest::MakeNode;
using scoretest::MakePod;
using scoretest::ScoreAll;

TEST(RegistryTest, InTreeCatalog) {
  // pkg/scheduler/framework/plugins/registry.go (v1.35) order, then
  // scheduler-plugins' Coscheduling; gpusched's GpuShare is internal.
  std::vector<std::string> names;
  std::vector<std::string> with_args;
  for (const InTreePlugin& p : InTreePlugins()) {
    names.emplace_back(p.name);
    if (p.decode_args) with_args.emplace_back(p.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "SchedulingGates", "PrioritySort", "NodeUnschedulable", "NodeName", "TaintToleration",
                       "NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
                       "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity", "DynamicResources",
                       "DefaultPreemption", "NodeResourcesBalancedAllocation", "ImageLocality", "DefaultBinder",
                       "NodeDeclaredFeatures", "GangScheduling", "Coscheduling"}));
  EXPECT_EQ(with_args,
            (std::vector<std::string>{"NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity",
                                      "NodeResourcesBalancedAllocation",
                                      "Coscheduling"}));
  EXPECT_EQ(PluginExtensionPoints("NodeResourcesFit"), kPreFilter | kFilter | kPreScore | kScore);
  EXPECT_EQ(PluginExtensionPoints("GpuShare"), std::nullopt);
  ASSERT_NE(PluginRegistry::InTree().Find("GpuShare"), nullptr);
  EXPECT_TRUE(PluginRegistry::InTree().Find("GpuShare")->internal);
}

TEST(RegistryTest, EveryMadePluginImplementsWhatItsRowDeclares) {
  const ResolvedProfile profile;
  std::vector<std::string> made;
  for (const PluginRegistration& r : PluginRegistry::InTree().rows()) {
    SCOPED_TRACE(r.plugin.name);
    if (!r.make) continue;
    made.emplace_back(r.plugin.name);
    std::unique_ptr<Plugin> p = r.make(profile);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->Name(), r.plugin.name);
    EXPECT_EQ(dynamic_cast<FilterPlugin*>(p.get()) != nullptr, (r.plugin.extension_points & kFilter) != 0);
    EXPECT_EQ(dynamic_cast<ScorePlugin*>(p.get()) != nullptr, (r.plugin.extension_points & kScore) != 0);
    EXPECT_EQ(PluginRegistry::InTree().NewFilter(r.plugin.name, profile) != nullptr,
              (r.plugin.extension_points & kFilter) != 0);
    EXPECT_EQ(PluginRegistry::InTree().NewScore(r.plugin.name, profile) != nullptr,
              (r.plugin.extension_points & kScore) != 0);
  }
  EXPECT_EQ(made, (std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                            "NodePorts", "NodeResourcesFit", "VolumeRestrictions",
                                            "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
                                            "InterPodAffinity", "DynamicResources", "NodeResourcesBalancedAllocation",
                                            "ImageLocality", "GpuShare"}));
}

TEST(RegistryTest, WithAddsARowOrReplacesTheRowOfItsName) {
  const PluginRegistry added = testing::RegistryWithLabelGate();
  EXPECT_EQ(added.rows().size(), PluginRegistry::InTree().rows().size() + 1);
  EXPECT_EQ(std::string(added.Catalog().back().name), "LabelGate");
  EXPECT_EQ(PluginRegistry::InTree().Find("LabelGate"), nullptr);
  // Replacing NodeName by a row that makes nothing keeps the order.
  const PluginRegistry replaced = PluginRegistry::InTree().With({{names::kNodeName, kFilter}});
  EXPECT_EQ(replaced.rows().size(), PluginRegistry::InTree().rows().size());
  EXPECT_EQ(std::string(replaced.rows()[3].plugin.name), "NodeName");
  EXPECT_EQ(replaced.NewFilter("NodeName", ResolvedProfile{}), nullptr);
}

// A plugin that exists only in a test's registry: enabled in a profile with a
// score weight and args, it is built as one object for Filter and Score, runs
// in the profile's chain before GpuShare, and decides where the pod goes.
TEST(RegistryTest, ThrowAwayPluginRunsThroughItsRowAlone) {
  const PluginRegistry registry = testing::RegistryWithLabelGate();
  KubeSchedulerConfiguration config;
  SchedulerProfile profile;
  profile.plugins.multi_point.enabled.push_back(PluginRef{"LabelGate", 5});
  auto args = std::make_shared<testing::LabelGateArgs>();
  args->label = "gpu-tier";
  args->prefer = "a100";
  profile.plugin_args["LabelGate"] = args;
  config.profiles = {profile};
  SetDefaults(config);
  // The in-tree registry does not know it.
  EXPECT_EQ(FrameworkError(config, 0), "PreFilterPlugin \"LabelGate\" does not exist");
  EXPECT_EQ(FrameworkError(config, 0, registry.Catalog()), std::nullopt);

  Result<SchedulerSet> set = BuildSchedulers(config, "kube-default", 1, {}, {}, registry);
  ASSERT_TRUE(set.ok()) << set.status().message();
  std::vector<std::string> filters;
  for (const auto& f : set->owned[0]->filters()) filters.emplace_back(f->Name());
  EXPECT_EQ(filters, (std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                               "NodePorts", "NodeResourcesFit", "VolumeRestrictions",
                                               "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
                                               "InterPodAffinity", "DynamicResources", "LabelGate", "GpuShare"}));

  // n0 is empty and unlabelled (LeastAllocated would take it), n1 is a t4,
  // n2 an a100 with less room: LabelGate's weight 5 x 100 takes the pod to n2.
  Node n0 = testing::GpuNode("n0", 8);
  Node n1 = testing::GpuNode("n1", 8);
  n1.meta.labels["gpu-tier"] = "t4";
  Node n2 = testing::GpuNode("n2", 8, 16000);
  n2.meta.labels["gpu-tier"] = "a100";
  ClusterState cluster({n0, n1, n2});
  Pod pod = testing::ResourcePod({{4000, 1 << 30, 0, {{"nvidia.com/gpu", 1}}}});
  BatchResult r = ScheduleBatch({&pod}, cluster, set->profiles, BatchOptions{});
  ASSERT_EQ(r.placements.size(), 1u);
  EXPECT_EQ(r.placements[0].node, 2u);

  // Without a labelled node, the pod is pending with the plugin's reason,
  // Unresolvable, so DefaultPreemption finds nothing to do.
  ClusterState bare({n0});
  BatchResult p = ScheduleBatch({&pod}, bare, set->profiles, BatchOptions{});
  ASSERT_EQ(p.pending.size(), 1u);
  EXPECT_EQ(p.pending[0].message,
            "0/1 nodes are available: 1 node(s) didn't have label gpu-tier. preemption: 0/1 nodes are available: 1 "
            "Preemption is not helpful for scheduling.");
}

TEST(ScorePluginsTest, NewScorePluginNames) {
  const ResolvedProfile profile;
  for (const char* name :
       {"NodeResourcesFit", "NodeResourcesBalancedAllocation", "TaintToleration", "NodeAffinity", "ImageLocality",
        "PodTopologySpread", "InterPodAffinity"}) {
    SCOPED_TRACE(name);
    auto p = NewScorePlugin(name, profile);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->Name(), name);
  }
  for (const char* name : {"", "nodeaffinity",
                           "NodeResourcesLeastAllocated"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(NewScorePlugin(name, profile), nullptr);
  }
}

// Pod: 3000 cpu / 5000 memory (two containers); nodes 4000/10000 and 6000/10000.
// LeastAllocated: node1 (25 + 50) / 2 = 37, node2 (50 + 50) / 2 = 50.
// MostAllocated:  node1 (75 + 50) / 2 = 62, node2 50.
TEST(ScorePluginsTest, NewScorePluginFitArgs) {
  const Pod pod = MakePod({{{"cpu", "1000"}, {"memory", "2000"}}, {{"cpu", "2000"}, {"memory", "3000"}}});
  const auto cluster = MakeCluster({MakeNode("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
                                    MakeNode("node2", {{"cpu", "6000"}, {"memory", "10000"}})});
  struct Case {
    const char* name;
    NodeResourcesFitArgs args;
    std::vector<int64_t> expected;
  };
  NodeResourcesFitArgs empty;  // resources empty -> [{cpu,1},{memory,1}]
  NodeResourcesFitArgs zero_weights;
  zero_weights.resources = {{"memory", 0}, {"cpu", 0}};  // weight 0 -> 1
  NodeResourcesFitArgs most;
  most.type = ScoringStrategyType::kMostAllocated;
  NodeResourcesFitArgs weighted;
  weighted.resources = {{"memory", 2}, {"cpu", 1}};  // (25 + 100) / 3 = 41, (50 + 100) / 3 = 50
  NodeResourcesFitArgs cpu_only;
  cpu_only.resources = {{"cpu", 1}};
  const std::vector<Case> cases = {
      {"default resources", empty, {37, 50}},
      {"zero weights default to 1", zero_weights, {37, 50}},
      {"most allocated", most, {62, 50}},
      {"weighted", weighted, {41, 50}},
      {"cpu only", cpu_only, {25, 50}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ResolvedProfile profile;
    profile.fit_args = c.args;
    auto p = NewScorePlugin("NodeResourcesFit", profile);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->PreScore(PodInfo::Make(pod, 0), ClusterState(std::vector<Node>{})));
    EXPECT_EQ(ScoreAll(*p, pod, cluster), c.expected);
  }
}

// Pod 3000m cpu / 5000 memory on nodes 4000m/10000 and 6000m/10000:
// fractions (0.75, 0.5) -> 87 and (0.5, 0.5) -> 100 with the default resources.
TEST(ScorePluginsTest, NewScorePluginBalancedArgs) {
  const Pod pod = MakePod({{{"cpu", "1000m"}, {"memory", "2000"}}, {{"cpu", "2000m"}, {"memory", "3000"}}});
  const auto cluster = MakeCluster({MakeNode("node1", {{"cpu", "4000m"}, {"memory", "10000"}}),
                                    MakeNode("node2", {{"cpu", "6000m"}, {"memory", "10000"}})});
  ResolvedProfile profile;  // balanced_args.resources empty -> cpu, memory
  auto p = NewScorePlugin("NodeResourcesBalancedAllocation", profile);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->PreScore(PodInfo::Make(pod, 0), ClusterState(std::vector<Node>{})));
  EXPECT_EQ(ScoreAll(*p, pod, cluster), (std::vector<int64_t>{87, 100}));
  // A best-effort pod is skipped.
  EXPECT_FALSE(p->PreScore(PodInfo::Make(MakePod({{}}), 0), ClusterState(std::vector<Node>{})));
}

}  // namespace
}  // namespace gpusched

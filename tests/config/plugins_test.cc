// src/config/plugins.cc: the default plugins and mergePluginSet.
// Ported from k8s.io/kubernetes pkg/scheduler/apis/config/v1/default_plugins_test.go:
//  - TestApplyFeatureGates: the default MultiPoint list. Upstream's table
//    lists the plugins per feature-gate state; the v1.35 defaults (in-tree
//    volume limit plugins gone, DynamicResourceAllocation GA and on, so
//    DynamicResources before DefaultPreemption) are the list below, also in
//    ../shared/reference/kube-scheduler.md section 4.6.
//  - TestMergePlugins: all 13 cases (the plugin names and weights are
//    upstream's; the "nil custom plugins" case is an empty custom set here).
// The registry checks are gpusched's own, against the interface assertions
// of the upstream plugins.
#include <gtest/gtest.h>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {
namespace {

std::string Str(const std::vector<PluginRef>& v) {
  std::string s;
  for (const auto& p : v) s += (s.empty() ? "" : " ") + p.name + (p.weight ? ":" + std::to_string(p.weight) : "");
  return s;
}

TEST(DefaultPluginsTest, ApplyFeatureGatesDefaults) {
  Plugins p = DefaultPlugins();
  EXPECT_EQ(Str(p.multi_point.enabled),
            "SchedulingGates PrioritySort NodeUnschedulable NodeName TaintToleration:3 NodeAffinity:2 NodePorts "
            "NodeResourcesFit:1 VolumeRestrictions NodeVolumeLimits VolumeBinding VolumeZone PodTopologySpread:2 "
            "InterPodAffinity:2 DynamicResources DefaultPreemption NodeResourcesBalancedAllocation:1 "
            "ImageLocality:1 DefaultBinder");
  EXPECT_TRUE(p.multi_point.disabled.empty());
  for (const PluginSet* s : {&p.queue_sort, &p.pre_filter, &p.filter, &p.post_filter, &p.pre_score, &p.score,
                             &p.reserve, &p.bind}) {
    EXPECT_TRUE(s->enabled.empty());
    EXPECT_TRUE(s->disabled.empty());
  }
  // Every default plugin is in the registry.
  for (const auto& e : p.multi_point.enabled) EXPECT_TRUE(PluginExtensionPoints(e.name)) << e.name;
}

TEST(DefaultPluginsTest, MergePlugins) {
  struct Case {
    const char* name;
    PluginSet custom;
    PluginSet defaults;
    PluginSet expected;
  };
  const std::vector<Case> cases = {
      {"AppendCustomPlugin",
       {{{"CustomPlugin", 0}}, {}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}, {"CustomPlugin", 0}}, {}}},
      {"InsertAfterDefaultPlugins2",
       {{{"CustomPlugin", 0}, {"DefaultPlugin2", 0}}, {{"DefaultPlugin2", 0}}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}},
       {{{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"DefaultPlugin2", 0}}, {{"DefaultPlugin2", 0}}}},
      {"InsertBeforeAllPlugins",
       {{{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {{"*", 0}}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}},
       {{{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {{"*", 0}}}},
      {"ReorderDefaultPlugins",
       {{{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {{"*", 0}}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}},
       {{{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {{"*", 0}}}},
      {"ApplyNilCustomPlugin",
       {},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}}},
      {"CustomPluginOverrideDefaultPlugin",
       {{{"Plugin1", 2}, {"Plugin3", 3}}, {}},
       {{{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}}, {}},
       {{{"Plugin1", 2}, {"Plugin2", 0}, {"Plugin3", 3}}, {}}},
      {"OrderPreserveAfterOverride",
       {{{"Plugin2", 2}, {"Plugin1", 1}}, {}},
       {{{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}}, {}},
       {{{"Plugin1", 1}, {"Plugin2", 2}, {"Plugin3", 0}}, {}}},
      {"RepeatedCustomPlugin",
       {{{"Plugin1", 0}, {"Plugin2", 2}, {"Plugin3", 0}, {"Plugin2", 4}}, {}},
       {{{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}}, {}},
       {{{"Plugin1", 0}, {"Plugin2", 4}, {"Plugin3", 0}, {"Plugin2", 2}}, {}}},
      {"Append custom MultiPoint plugin",
       {{{"CustomPlugin", 0}}, {}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {}},
       {{{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}, {"CustomPlugin", 0}}, {}}},
      {"override default MultiPoint plugins with custom value",
       {{{"DefaultPlugin", 5}}, {}},
       {{{"DefaultPlugin", 0}}, {}},
       {{{"DefaultPlugin", 5}}, {}}},
      {"disabled MultiPoint plugin in default set",
       {{{"CustomPlugin", 0}}, {}},
       {{{"DefaultPlugin", 0}}, {{"DefaultPlugin2", 0}}},
       {{{"DefaultPlugin", 0}, {"CustomPlugin", 0}}, {{"DefaultPlugin2", 0}}}},
      {"multipoint with only disabled gets merged",
       {{}, {{"DefaultPlugin", 0}}},
       {{{"DefaultPlugin", 0}}, {}},
       {{}, {{"DefaultPlugin", 0}}}},
  };
  for (const auto& c : cases) {
    PluginSet got = MergePluginSet(c.defaults, c.custom);
    EXPECT_EQ(Str(got.enabled), Str(c.expected.enabled)) << c.name;
    EXPECT_EQ(Str(got.disabled), Str(c.expected.disabled)) << c.name;
  }
}

// The two cases of TestMergePlugins that span extension points.
TEST(DefaultPluginsTest, MergePluginsAcrossExtensionPoints) {
  {
    // "Append disabled Multipoint plugins"
    Plugins defaults;
    defaults.multi_point.enabled = {{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}};
    Plugins custom;
    custom.multi_point.enabled = {{"CustomPlugin", 0}, {"CustomPlugin2", 0}};
    custom.multi_point.disabled = {{"DefaultPlugin2", 0}};
    custom.score.disabled = {{"CustomPlugin2", 0}};
    Plugins got = MergePlugins(defaults, custom);
    EXPECT_EQ(Str(got.multi_point.enabled), "DefaultPlugin1 CustomPlugin CustomPlugin2");
    EXPECT_EQ(Str(got.multi_point.disabled), "DefaultPlugin2");
    EXPECT_EQ(Str(got.score.disabled), "CustomPlugin2");
    EXPECT_TRUE(got.score.enabled.empty());
  }
  {
    // "disabled MultiPoint plugin in default set for specific extension point"
    Plugins defaults;
    defaults.multi_point.enabled = {{"DefaultPlugin", 0}};
    defaults.score.disabled = {{"DefaultPlugin2", 0}};
    Plugins custom;
    custom.multi_point.enabled = {{"CustomPlugin", 0}};
    Plugins got = MergePlugins(defaults, custom);
    EXPECT_EQ(Str(got.multi_point.enabled), "DefaultPlugin CustomPlugin");
    EXPECT_TRUE(got.multi_point.disabled.empty());
    EXPECT_EQ(Str(got.score.disabled), "DefaultPlugin2");
  }
}

TEST(DefaultPluginsTest, RegistryExtensionPoints) {
  struct Case {
    const char* name;
    uint32_t points;
  };
  // The `var _ fwk.XPlugin = &P{}` assertions of each upstream plugin.
  const std::vector<Case> cases = {
      {"PrioritySort", kQueueSort},
      {"NodeUnschedulable", kFilter},
      {"NodeName", kFilter},
      {"TaintToleration", kFilter | kPreScore | kScore},
      {"NodeAffinity", kPreFilter | kFilter | kPreScore | kScore},
      {"NodePorts", kPreFilter | kFilter},
      {"NodeResourcesFit", kPreFilter | kFilter | kPreScore | kScore},
      {"NodeResourcesBalancedAllocation", kPreScore | kScore},
      {"ImageLocality", kScore},
      {"DefaultPreemption", kPostFilter},
      {"DefaultBinder", kBind},
      {"VolumeBinding", kPreFilter | kFilter | kReserve | kPreBind | kPreScore | kScore},
      {"PodTopologySpread", kPreFilter | kFilter | kPreScore | kScore},
      {"InterPodAffinity", kPreFilter | kFilter | kPreScore | kScore},
  };
  for (const auto& c : cases) EXPECT_EQ(PluginExtensionPoints(c.name), c.points) << c.name;
  // Removed from v1 (validation's invalidPluginsByVersion) and never in-tree.
  for (const char* gone : {"EBSLimits", "GCEPDLimits", "AzureDiskLimits", "CinderLimits", "SelectorSpread", "Foo"})
    EXPECT_FALSE(PluginExtensionPoints(gone)) << gone;
}

}  // namespace
}  // namespace gpusched

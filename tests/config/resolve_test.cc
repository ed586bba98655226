// src/config/resolve.cc: BuildFramework, ResolveProfile, FrameworkError.
//  - MultiPointExpansion: all 11 cases of TestNewFrameworkMultiPointExpansion
//    in k8s.io/kubernetes pkg/scheduler/framework/runtime/framework_test.go,
//    with the same fake plugins (testPlugin implements every extension point,
//    scorePlugin1/2 PreScore+Score, scoreWithNormalizePlugin1 Score,
//    queueSortPlugin QueueSort, bindPlugin Bind) and upstream's expected
//    ListPlugins().
//  - DefaultProfile: ExpandedPluginsV1 of
//    pkg/scheduler/apis/config/testing/defaults/defaults.go for the v1.35
//    default plugins (DynamicResources present; no in-tree volume limit
//    plugins).
//  - The rest: upstream behaviour of framework.go (explicit entries override
//    multiPoint, disabled entries remove, score weight from the explicit
//    Score entry, else multiPoint, else 1) and NewFramework's error messages.
#include <gtest/gtest.h>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {
namespace {

std::string J(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string J(const std::vector<WeightedPlugin>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x.name + ":" + std::to_string(x.weight);
  return s;
}

const uint32_t kAll = kPreEnqueue | kQueueSort | kPreFilter | kFilter | kPostFilter | kPreScore | kScore | kReserve |
                      kPermit | kPreBind | kBind | kPostBind;

const std::vector<InTreePlugin>& FakeRegistry() {
  static const std::vector<InTreePlugin> r = {
      {"test-plugin", kAll},
      {"score-plugin-1", kPreScore | kScore},
      {"score-plugin-2", kPreScore | kScore},
      {"score-with-normalize-plugin-1", kScore},
      {"queue-sort-plugin", kQueueSort},
      {"bind-plugin", kBind},
  };
  return r;
}

// ListPlugins() as one line per extension point (the empty ones left out),
// score entries with their weights.
std::string List(const FrameworkPlugins& f) {
  std::string s;
  auto add = [&](const char* name, const std::string& v) {
    if (!v.empty()) s += std::string(name) + "=" + v + "\n";
  };
  add("QueueSort", J(f.queue_sort));
  add("PreFilter", J(f.pre_filter));
  add("Filter", J(f.filter));
  add("PostFilter", J(f.post_filter));
  add("PreScore", J(f.pre_score));
  add("Score", J(f.score));
  add("Reserve", J(f.reserve));
  add("Permit", J(f.permit));
  add("PreBind", J(f.pre_bind));
  add("Bind", J(f.bind));
  add("PostBind", J(f.post_bind));
  add("PreEnqueue", J(f.pre_enqueue));
  return s;
}

std::string AllPoints(const std::string& pre_score, const std::string& score) {
  std::string s = "QueueSort=test-plugin\nPreFilter=test-plugin\nFilter=test-plugin\nPostFilter=test-plugin\n";
  if (!pre_score.empty()) s += "PreScore=" + pre_score + "\n";
  if (!score.empty()) s += "Score=" + score + "\n";
  return s +
         "Reserve=test-plugin\nPermit=test-plugin\nPreBind=test-plugin\nBind=test-plugin\nPostBind=test-plugin\n"
         "PreEnqueue=test-plugin\n";
}

TEST(BuildFrameworkTest, MultiPointExpansion) {
  struct Case {
    const char* name;
    Plugins plugins;
    std::string want;      // ListPlugins
    std::string want_err;  // substring, as upstream checks it
  };
  std::vector<Case> cases;
  {
    Case c{"plugin expansion"};
    c.plugins.multi_point.enabled = {{"test-plugin", 5}};
    c.want = AllPoints("test-plugin", "test-plugin:5");
    cases.push_back(c);
  }
  {
    Case c{"disable MultiPoint plugin at some extension points"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}};
    c.plugins.pre_score.disabled = {{"test-plugin", 0}};
    c.plugins.score.disabled = {{"test-plugin", 0}};
    c.want = AllPoints("", "");
    cases.push_back(c);
  }
  {
    Case c{"Multiple MultiPoint plugins"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}, {"score-plugin-1", 0}};
    c.want = AllPoints("test-plugin score-plugin-1", "test-plugin:1 score-plugin-1:1");
    cases.push_back(c);
  }
  {
    Case c{"disable MultiPoint extension"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.pre_score.disabled = {{"*", 0}};
    c.want = AllPoints("", "test-plugin:1 score-plugin-1:1");
    cases.push_back(c);
  }
  {
    Case c{"Reorder MultiPoint plugins (specified extension takes precedence)"};
    c.plugins.multi_point.enabled = {{"score-with-normalize-plugin-1", 0}, {"test-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.score.enabled = {{"score-plugin-1", 0}, {"test-plugin", 0}};
    c.want = AllPoints("test-plugin score-plugin-1", "score-plugin-1:1 test-plugin:1 score-with-normalize-plugin-1:1");
    cases.push_back(c);
  }
  {
    Case c{"Reorder MultiPoint plugins (specified extension only takes precedence when it exists in MultiPoint)"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.score.enabled = {{"score-with-normalize-plugin-1", 0}, {"score-plugin-1", 0}, {"test-plugin", 0}};
    c.want = AllPoints("test-plugin score-plugin-1", "score-plugin-1:1 test-plugin:1 score-with-normalize-plugin-1:1");
    cases.push_back(c);
  }
  {
    Case c{"Override MultiPoint plugins weights"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.score.enabled = {{"score-plugin-1", 5}, {"test-plugin", 3}};
    c.want = AllPoints("test-plugin score-plugin-1", "score-plugin-1:5 test-plugin:3");
    cases.push_back(c);
  }
  {
    Case c{"disable and enable MultiPoint plugins with '*'"};
    c.plugins.multi_point.enabled = {{"queue-sort-plugin", 0}, {"bind-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.multi_point.disabled = {{"*", 0}};
    c.want = "QueueSort=queue-sort-plugin\nPreScore=score-plugin-1\nScore=score-plugin-1:1\nBind=bind-plugin\n";
    cases.push_back(c);
  }
  {
    Case c{"disable and enable MultiPoint plugin by name"};
    c.plugins.multi_point.enabled = {{"bind-plugin", 0}, {"queue-sort-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.multi_point.disabled = {{"score-plugin-1", 0}};
    c.want = "QueueSort=queue-sort-plugin\nPreScore=score-plugin-1\nScore=score-plugin-1:1\nBind=bind-plugin\n";
    cases.push_back(c);
  }
  {
    Case c{"Expect 'already registered' error"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}, {"test-plugin", 0}};
    c.want_err = "already registered";
    cases.push_back(c);
  }
  {
    Case c{"Override MultiPoint plugins weights and avoid a plugin being loaded multiple times"};
    c.plugins.multi_point.enabled = {{"test-plugin", 0}, {"score-plugin-1", 0}};
    c.plugins.score.enabled = {{"score-plugin-1", 5}, {"score-plugin-2", 5}, {"test-plugin", 3}};
    c.want = AllPoints("test-plugin score-plugin-1", "score-plugin-1:5 test-plugin:3 score-plugin-2:5");
    cases.push_back(c);
  }
  for (const auto& c : cases) {
    SchedulerProfile prof;
    prof.scheduler_name.clear();
    prof.plugins = c.plugins;
    FrameworkPlugins f = BuildFramework(prof, FakeRegistry());
    if (!c.want_err.empty()) {
      ASSERT_TRUE(f.error) << c.name;
      EXPECT_NE(f.error->find(c.want_err), std::string::npos) << c.name << ": " << *f.error;
      continue;
    }
    EXPECT_FALSE(f.error) << c.name << ": " << f.error.value_or("");
    EXPECT_EQ(List(f), c.want) << c.name;
  }
}

TEST(BuildFrameworkTest, DefaultProfile) {
  KubeSchedulerConfiguration c = DefaultSchedulerConfiguration();
  FrameworkPlugins f = BuildFramework(c.profiles[0], InTreePlugins());
  EXPECT_FALSE(f.error) << f.error.value_or("");
  EXPECT_EQ(List(f),
            "QueueSort=PrioritySort\n"
            "PreFilter=NodeAffinity NodePorts NodeResourcesFit VolumeRestrictions NodeVolumeLimits VolumeBinding "
            "VolumeZone PodTopologySpread InterPodAffinity DynamicResources\n"
            "Filter=NodeUnschedulable NodeName TaintToleration NodeAffinity NodePorts NodeResourcesFit "
            "VolumeRestrictions NodeVolumeLimits VolumeBinding VolumeZone PodTopologySpread InterPodAffinity "
            "DynamicResources\n"
            "PostFilter=DynamicResources DefaultPreemption\n"
            "PreScore=TaintToleration NodeAffinity NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity "
            "NodeResourcesBalancedAllocation\n"
            "Score=TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 "
            "InterPodAffinity:2 DynamicResources:1 NodeResourcesBalancedAllocation:1 ImageLocality:1\n"
            "Reserve=VolumeBinding DynamicResources\n"
            "PreBind=VolumeBinding DynamicResources\n"
            "Bind=DefaultBinder\n"
            "PreEnqueue=SchedulingGates DynamicResources\n");
}

TEST(ResolveProfileTest, DefaultProfile) {
  KubeSchedulerConfiguration c = DefaultSchedulerConfiguration();
  ResolvedProfile r = ResolveProfile(c, 0);
  EXPECT_EQ(r.scheduler_name, "default-scheduler");
  EXPECT_EQ(r.queue_sort, "PrioritySort");
  EXPECT_EQ(J(r.filters),
            "NodeUnschedulable NodeName TaintToleration NodeAffinity NodePorts NodeResourcesFit VolumeRestrictions "
            "NodeVolumeLimits VolumeBinding VolumeZone PodTopologySpread InterPodAffinity DynamicResources");
  EXPECT_EQ(J(r.scores),
            "TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 "
            "InterPodAffinity:2 DynamicResources:1 NodeResourcesBalancedAllocation:1 ImageLocality:1");
  EXPECT_EQ(J(r.post_filters), "DynamicResources DefaultPreemption");
  EXPECT_EQ(r.percentage_of_nodes_to_score, 0);
  EXPECT_EQ(ScoringStrategyName(r.fit_args.type), std::string("LeastAllocated"));
  ASSERT_EQ(r.fit_args.resources.size(), 2u);
  EXPECT_EQ(r.fit_args.resources[0].name, "cpu");
  EXPECT_EQ(r.fit_args.resources[0].weight, 1);
  ASSERT_EQ(r.balanced_args.resources.size(), 2u);
  EXPECT_EQ(r.balanced_args.resources[1].name, "memory");
}

// Profiles given as in a file (not defaulted); ResolveProfile defaults a copy.
ResolvedProfile Resolve(const Plugins& plugins, std::optional<int32_t> global = std::nullopt,
                        std::optional<int32_t> profile_pct = std::nullopt) {
  KubeSchedulerConfiguration c;
  c.percentage_of_nodes_to_score = global;
  SchedulerProfile p;
  p.plugins = plugins;
  p.percentage_of_nodes_to_score = profile_pct;
  c.profiles.push_back(p);
  return ResolveProfile(c, 0);
}

TEST(ResolveProfileTest, Overrides) {
  struct Case {
    const char* name;
    Plugins plugins;
    std::string filters;
    std::string scores;
    std::string post_filters;
  };
  const std::string default_filters =
      "NodeUnschedulable NodeName TaintToleration NodeAffinity NodePorts NodeResourcesFit VolumeRestrictions "
      "NodeVolumeLimits VolumeBinding VolumeZone PodTopologySpread InterPodAffinity DynamicResources";
  const std::string default_scores =
      "TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 InterPodAffinity:2 "
      "DynamicResources:1 NodeResourcesBalancedAllocation:1 ImageLocality:1";
  std::vector<Case> cases;
  {
    // An explicit Score entry overrides the multiPoint one: it runs first and
    // its weight counts.
    Case c{"score weight from the explicit Score entry"};
    c.plugins.score.enabled = {{"NodeResourcesFit", 5}};
    c.filters = default_filters;
    c.scores =
        "NodeResourcesFit:5 TaintToleration:3 NodeAffinity:2 VolumeBinding:1 PodTopologySpread:2 InterPodAffinity:2 "
        "DynamicResources:1 NodeResourcesBalancedAllocation:1 ImageLocality:1";
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    // The explicit entry has no weight: 1, not the multiPoint weight 3.
    Case c{"explicit Score entry without a weight"};
    c.plugins.score.enabled = {{"TaintToleration", 0}};
    c.filters = default_filters;
    c.scores =
        "TaintToleration:1 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 InterPodAffinity:2 "
        "DynamicResources:1 NodeResourcesBalancedAllocation:1 ImageLocality:1";
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    // A multiPoint entry replaces the default in place (mergePluginSet);
    // without a weight it scores with 1.
    Case c{"multiPoint re-configures a default"};
    c.plugins.multi_point.enabled = {{"NodeResourcesBalancedAllocation", 4}, {"ImageLocality", 0}};
    c.filters = default_filters;
    c.scores =
        "TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 InterPodAffinity:2 "
        "DynamicResources:1 NodeResourcesBalancedAllocation:4 ImageLocality:1";
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    Case c{"multiPoint weight for TaintToleration dropped"};
    c.plugins.multi_point.enabled = {{"TaintToleration", 0}};
    c.filters = default_filters;
    c.scores =
        "TaintToleration:1 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 InterPodAffinity:2 "
        "DynamicResources:1 NodeResourcesBalancedAllocation:1 ImageLocality:1";
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    Case c{"filter disabled at one extension point"};
    c.plugins.filter.disabled = {{"NodePorts", 0}, {"VolumeZone", 0}};
    c.filters =
        "NodeUnschedulable NodeName TaintToleration NodeAffinity NodeResourcesFit VolumeRestrictions "
        "NodeVolumeLimits VolumeBinding PodTopologySpread InterPodAffinity DynamicResources";
    c.scores = default_scores;
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    Case c{"all score plugins disabled"};
    c.plugins.score.disabled = {{"*", 0}};
    c.filters = default_filters;
    c.scores = "";
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    Case c{"score plugin disabled in multiPoint"};
    c.plugins.multi_point.disabled = {{"ImageLocality", 0}, {"NodeResourcesBalancedAllocation", 0}};
    c.filters = default_filters;
    c.scores = "TaintToleration:3 NodeAffinity:2 NodeResourcesFit:1 VolumeBinding:1 PodTopologySpread:2 "
               "InterPodAffinity:2 DynamicResources:1";
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    Case c{"all defaults disabled, a few enabled"};
    c.plugins.multi_point.disabled = {{"*", 0}};
    c.plugins.multi_point.enabled = {{"PrioritySort", 0},       {"NodeResourcesFit", 2}, {"TaintToleration", 0},
                                     {"DefaultPreemption", 0}, {"DefaultBinder", 0}};
    c.filters = "NodeResourcesFit TaintToleration";
    c.scores = "NodeResourcesFit:2 TaintToleration:1";
    c.post_filters = "DefaultPreemption";
    cases.push_back(c);
  }
  {
    // A plugin added at an extension point after the defaults.
    Case c{"explicit filter after the multiPoint ones"};
    c.plugins.filter.enabled = {{"NodeDeclaredFeatures", 0}};
    c.filters = default_filters + " NodeDeclaredFeatures";
    c.scores = default_scores;
    c.post_filters = "DynamicResources DefaultPreemption";
    cases.push_back(c);
  }
  {
    Case c{"postFilter disabled"};
    c.plugins.post_filter.disabled = {{"DefaultPreemption", 0}};
    c.filters = default_filters;
    c.scores = default_scores;
    c.post_filters = "DynamicResources";
    cases.push_back(c);
  }
  for (const auto& c : cases) {
    ResolvedProfile r = Resolve(c.plugins);
    EXPECT_EQ(J(r.filters), c.filters) << c.name;
    EXPECT_EQ(J(r.scores), c.scores) << c.name;
    EXPECT_EQ(J(r.post_filters), c.post_filters) << c.name;
    EXPECT_EQ(r.queue_sort, "PrioritySort") << c.name;
    EXPECT_EQ(r.scheduler_name, "default-scheduler") << c.name;
  }
}

TEST(ResolveProfileTest, PercentageOfNodesToScore) {
  // schedule_one.go: the profile's value, else the global one (0 after
  // defaulting: adaptive).
  EXPECT_EQ(Resolve({}).percentage_of_nodes_to_score, 0);
  EXPECT_EQ(Resolve({}, 30).percentage_of_nodes_to_score, 30);
  EXPECT_EQ(Resolve({}, 30, 70).percentage_of_nodes_to_score, 70);
  EXPECT_EQ(Resolve({}, std::nullopt, 0).percentage_of_nodes_to_score, 0);
}

TEST(ResolveProfileTest, ArgsAreDefaulted) {
  KubeSchedulerConfiguration c;
  SchedulerProfile p;
  p.fit_args.type = ScoringStrategyType::kMostAllocated;
  p.fit_args.resources = {{"nvidia.com/gpu", 5}, {"cpu", 0}};
  c.profiles.push_back(p);
  ResolvedProfile r = ResolveProfile(c, 0);
  EXPECT_EQ(ScoringStrategyName(r.fit_args.type), std::string("MostAllocated"));
  ASSERT_EQ(r.fit_args.resources.size(), 2u);
  EXPECT_EQ(r.fit_args.resources[0].weight, 5);
  EXPECT_EQ(r.fit_args.resources[1].weight, 1);
  EXPECT_EQ(r.balanced_args.resources.size(), 2u);
  // Out of range: empty.
  EXPECT_TRUE(ResolveProfile(c, 7).filters.empty());
}

TEST(FrameworkErrorTest, Messages) {
  struct Case {
    const char* name;
    void (*mutate)(Plugins&);
    std::string want;
  };
  const std::vector<Case> cases = {
      {"default", [](Plugins&) {}, ""},
      {"unknown plugin", [](Plugins& p) { p.filter.enabled = {{"Foo", 0}}; }, "FilterPlugin \"Foo\" does not exist"},
      {"unknown multiPoint plugin", [](Plugins& p) { p.multi_point.enabled = {{"Foo", 0}}; },
       "PreFilterPlugin \"Foo\" does not exist"},
      {"plugin at an extension point it does not implement",
       [](Plugins& p) { p.filter.enabled = {{"ImageLocality", 0}}; },
       "plugin \"ImageLocality\" does not extend FilterPlugin plugin"},
      {"plugin twice at an extension point",
       [](Plugins& p) { p.score.enabled = {{"NodeResourcesFit", 1}, {"NodeResourcesFit", 2}}; },
       "plugin \"NodeResourcesFit\" already registered as \"ScorePlugin\""},
      {"plugin twice in multiPoint",
       [](Plugins& p) { p.multi_point.enabled = {{"SchedulingGates", 0}, {"SchedulingGates", 0}}; },
       "plugin \"SchedulingGates\" already registered as \"PreEnqueuePlugin\""},
      {"no queue sort",
       [](Plugins& p) {
         p.multi_point.disabled = {{"*", 0}};
         p.multi_point.enabled = {{"DefaultBinder", 0}};
       },
       "only one queue sort plugin required for profile with scheduler name \"default-scheduler\", but got 0"},
      {"two queue sorts",
       [](Plugins& p) { p.queue_sort.enabled = {{"PrioritySort", 0}, {"GangScheduling", 0}}; },
       "plugin \"GangScheduling\" does not extend QueueSortPlugin plugin"},
      {"no bind", [](Plugins& p) { p.bind.disabled = {{"*", 0}}; },
       "at least one bind plugin is needed for profile with scheduler name \"default-scheduler\""},
  };
  for (const auto& t : cases) {
    KubeSchedulerConfiguration c;
    c.profiles.emplace_back();
    t.mutate(c.profiles[0].plugins);
    EXPECT_EQ(FrameworkError(c, 0).value_or(""), t.want) << t.name;
  }
}

}  // namespace
}  // namespace gpusched

// src/config/validation.cc. Ported from k8s.io/kubernetes
// pkg/scheduler/apis/config/validation/validation_test.go
// (TestValidateKubeSchedulerConfigurationV1) and validation_pluginargs_test.go
// (TestValidateNodeResourcesBalancedAllocationArgs, TestValidateFitArgs,
// TestValidateLeastAllocatedScoringStrategy,
// TestValidateMostAllocatedScoringStrategy,
// TestValidateRequestedToCapacityRatioScoringStrategy).
//
// Upstream's tables compare the error type and field (ignoreBadValueDetail);
// the full messages here are what field.Error.Error() prints for those
// errors, from the BadValue and detail that validation.go /
// validation_pluginargs.go pass (ints with %v, strings with %q, other types
// with encoding/json). Field paths of the plugin-args validators are those of
// the current validation_pluginargs.go (scoringStrategy.resources[i].weight,
// scoringStrategy.requestedToCapacityRatio.shape[i]...), which older copies of
// the test file predate. Cases of fields gpusched does not model (leader
// election, client connection, bind addresses, DefaultPreemption args, a nil
// ScoringStrategy) are not ported; the extender cases are (validConfig has one
// extender with prioritizeVerb and weight 1).
#include <gtest/gtest.h>

#include <string>

#include "gpusched/config/scheduler_config.h"

namespace gpusched {
namespace {

std::vector<std::string> Msgs(const std::vector<FieldError>& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.ToString());
  return out;
}

// validConfig of TestValidateKubeSchedulerConfigurationV1 (not defaulted, as
// upstream validates it directly).
KubeSchedulerConfiguration ValidConfig() {
  KubeSchedulerConfiguration c;
  c.parallelism = 8;
  c.pod_initial_backoff_seconds = 1;
  c.pod_max_backoff_seconds = 1;
  SchedulerProfile me;
  me.scheduler_name = "me";
  me.percentage_of_nodes_to_score = 35;
  me.plugins.queue_sort.enabled = {{"CustomSort", 0}};
  me.plugins.score.disabled = {{"*", 0}};
  me.plugin_config = {"DefaultPreemption"};
  SchedulerProfile other;
  other.scheduler_name = "other";
  other.percentage_of_nodes_to_score = 35;
  other.plugins.queue_sort.enabled = {{"CustomSort", 0}};
  other.plugins.bind.enabled = {{"CustomBind", 0}};
  c.profiles = {me, other};
  Extender e;
  e.prioritize_verb = "prioritize";
  e.weight = 1;
  c.extenders = {e};
  return c;
}

const char* kInvalidInV1 =
    "was invalid in version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version "
    "\"kubescheduler.config.k8s.io/v1\")";

TEST(ValidateSchedulerConfigurationTest, V1) {
  struct Case {
    const char* name;
    void (*mutate)(KubeSchedulerConfiguration&);
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"good", [](KubeSchedulerConfiguration&) {}, {}},
      {"bad-parallelism-invalid-value", [](KubeSchedulerConfiguration& c) { c.parallelism = 0; },
       {"parallelism: Invalid value: 0: should be an integer value greater than zero"}},
      {"bad-percentage-of-nodes-to-score", [](KubeSchedulerConfiguration& c) { c.percentage_of_nodes_to_score = 101; },
       {"percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"}},
      {"negative-percentage-of-nodes-to-score",
       [](KubeSchedulerConfiguration& c) { c.percentage_of_nodes_to_score = -1; },
       {"percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"}},
      {"scheduler-name-not-set", [](KubeSchedulerConfiguration& c) { c.profiles[1].scheduler_name = ""; },
       {"profiles[1].schedulerName: Required value"}},
      // The BadValue is the *field.Path of profiles[0].schedulerName, whose
      // fields are unexported: encoding/json prints {}.
      {"repeated-scheduler-name", [](KubeSchedulerConfiguration& c) { c.profiles[0].scheduler_name = "other"; },
       {"profiles[1].schedulerName: Duplicate value: {}"}},
      {"greater-than-100-profile-percentage-of-nodes-to-score",
       [](KubeSchedulerConfiguration& c) { c.profiles[1].percentage_of_nodes_to_score = 101; },
       {"profiles[1].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"}},
      {"negative-profile-percentage-of-nodes-to-score",
       [](KubeSchedulerConfiguration& c) { c.profiles[1].percentage_of_nodes_to_score = -1; },
       {"profiles[1].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"}},
      {"different-queue-sort",
       [](KubeSchedulerConfiguration& c) { c.profiles[1].plugins.queue_sort.enabled[0].name = "AnotherSort"; },
       {"profiles[1].plugins.queueSort: Invalid value: {\"Enabled\":[{\"Name\":\"AnotherSort\",\"Weight\":0}],"
        "\"Disabled\":null}: must be the same for all profiles"}},
      {"one-empty-queue-sort", [](KubeSchedulerConfiguration& c) { c.profiles[0].plugins = Plugins{}; },
       {"profiles[1].plugins.queueSort: Invalid value: {\"Enabled\":[{\"Name\":\"CustomSort\",\"Weight\":0}],"
        "\"Disabled\":null}: must be the same for all profiles"}},
      {"duplicated-plugin-config",
       [](KubeSchedulerConfiguration& c) { c.profiles[0].plugin_config = {"config", "config"}; },
       {"profiles[0].pluginConfig[1]: Duplicate value: \"config\""}},
      {"mismatch-queue-sort",
       [](KubeSchedulerConfiguration& c) {
         c.profiles[0].plugins = Plugins{};
         c.profiles[0].plugins.queue_sort.enabled = {{"PrioritySort", 0}};
         c.profiles[0].plugin_config = {"PrioritySort"};
         c.profiles[1].plugins = Plugins{};
         c.profiles[1].plugins.queue_sort.enabled = {{"CustomSort", 0}};
         c.profiles[1].plugin_config = {"CustomSort"};
       },
       {"profiles[1].plugins.queueSort: Invalid value: {\"Enabled\":[{\"Name\":\"CustomSort\",\"Weight\":0}],"
        "\"Disabled\":null}: must be the same for all profiles"}},
      // Upstream's case used SelectorSpread, invalid in v1 then; v1.35's
      // invalidPluginsByVersion lists the in-tree volume limit plugins.
      {"invalid-plugins",
       [](KubeSchedulerConfiguration& c) { c.profiles[0].plugins.score.enabled.push_back({"EBSLimits", 0}); },
       {std::string("profiles[0].plugins.score.enabled[0]: Invalid value: \"EBSLimits\": ") + kInvalidInV1}},
      {"valid-plugins",
       [](KubeSchedulerConfiguration& c) { c.profiles[0].plugins.score.enabled.push_back({"PodTopologySpread", 2}); },
       {}},
      // "bad-plugins-config" of the v1beta2 table, with a plugin removed from v1.
      {"bad-plugins-config",
       [](KubeSchedulerConfiguration& c) { c.profiles[0].plugin_config.push_back("GCEPDLimits"); },
       {std::string("profiles[0].pluginConfig[1]: Invalid value: \"GCEPDLimits\": ") + kInvalidInV1}},
      {"extender-negative-weight", [](KubeSchedulerConfiguration& c) { c.extenders[0].weight = -1; },
       {"extenders[0].weight: Invalid value: -1: must have a positive weight applied to it"}},
      {"extender-duplicate-managed-resources",
       [](KubeSchedulerConfiguration& c) {
         c.extenders[0].managed_resources = {{"example.com/foo", false}, {"example.com/foo", false}};
       },
       {"extenders[0].managedResources[1].name: Invalid value: \"example.com/foo\": duplicate extender managed "
        "resource name"}},
      {"extender-duplicate-bind",
       [](KubeSchedulerConfiguration& c) {
         c.extenders[0].bind_verb = "foo";
         Extender e;
         e.prioritize_verb = "prioritize";
         e.bind_verb = "bar";
         e.weight = 1;
         c.extenders.push_back(e);
       },
       {"extenders: Invalid value: \"found 2 extenders implementing bind\": only one extender can implement bind"}},
      // validateExtendedResourceName: IsQualifiedName's messages, then the
      // extended-resource check (a name without a domain is native).
      {"extender-managed-resource-not-extended",
       [](KubeSchedulerConfiguration& c) { c.extenders[0].managed_resources = {{"foo", false}}; },
       {"extenders[0].managedResources[0].name: Invalid value: \"foo\": is an invalid extended resource name"}},
      {"extender-managed-resource-kubernetes-io",
       [](KubeSchedulerConfiguration& c) { c.extenders[0].managed_resources = {{"kubernetes.io/foo", true}}; },
       {"extenders[0].managedResources[0].name: Invalid value: \"kubernetes.io/foo\": is an invalid extended "
        "resource name"}},
      {"extender-managed-resource-not-qualified",
       [](KubeSchedulerConfiguration& c) { c.extenders[0].managed_resources = {{"example.com/", false}}; },
       {"extenders[0].managedResources[0].name: Invalid value: \"example.com/\": name part must be non-empty",
        "extenders[0].managedResources[0].name: Invalid value: \"example.com/\": name part must consist of "
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
        "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
      {"extender-prioritize-without-weight",
       [](KubeSchedulerConfiguration& c) {
         c.extenders[0].weight = 0;
         c.extenders[0].managed_resources = {{"nvidia.com/gpu", true}, {"nvidia.com/gpumem", true}};
       },
       {"extenders[0].weight: Invalid value: 0: must have a positive weight applied to it"}},
      {"extender-filter-only-needs-no-weight",
       [](KubeSchedulerConfiguration& c) {
         c.extenders[0].prioritize_verb.clear();
         c.extenders[0].weight = 0;
         c.extenders[0].filter_verb = "filter";
       },
       {}},
      // The remaining checks of ValidateKubeSchedulerConfiguration.
      {"no profiles", [](KubeSchedulerConfiguration& c) { c.profiles.clear(); }, {"profiles: Required value"}},
      {"podInitialBackoffSeconds zero",
       [](KubeSchedulerConfiguration& c) { c.pod_initial_backoff_seconds = 0; },
       {"podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"}},
      {"podMaxBackoffSeconds below initial",
       [](KubeSchedulerConfiguration& c) {
         c.pod_initial_backoff_seconds = 5;
         c.pod_max_backoff_seconds = 4;
       },
       {"podMaxBackoffSeconds: Invalid value: 4: must be greater than or equal to PodInitialBackoffSeconds"}},
      {"two queue sort plugins",
       [](KubeSchedulerConfiguration& c) {
         c.profiles.resize(1);
         c.profiles[0].plugins.queue_sort.enabled.push_back({"PrioritySort", 0});
       },
       {"profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled"}},
      {"errors in order",
       [](KubeSchedulerConfiguration& c) {
         c.parallelism = -1;
         c.profiles[0].scheduler_name = "";
         c.profiles[1].scheduler_name = "";
         c.percentage_of_nodes_to_score = 200;
       },
       {"parallelism: Invalid value: -1: should be an integer value greater than zero",
        "profiles[0].schedulerName: Required value", "profiles[1].schedulerName: Required value",
        "profiles[1].schedulerName: Duplicate value: {}",
        "percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]"}},
  };
  for (const auto& t : cases) {
    KubeSchedulerConfiguration c = ValidConfig();
    t.mutate(c);
    EXPECT_EQ(Msgs(ValidateSchedulerConfiguration(c)), t.want) << t.name;
  }
}

TEST(ValidateSchedulerConfigurationTest, FitArgsInProfile) {
  KubeSchedulerConfiguration c = ValidConfig();
  c.profiles[0].plugin_config = {"DefaultPreemption", "NodeResourcesFit"};
  c.profiles[0].fit_args.resources = {{"cpu", 1}, {"nvidia.com/gpu", 101}};
  EXPECT_EQ(Msgs(ValidateSchedulerConfiguration(c)),
            std::vector<std::string>{"profiles[0].pluginConfig[1].args.scoringStrategy.resources[1].weight: Invalid "
                                     "value: 101: resource weight of nvidia.com/gpu not in valid range (0, 100]"});
}

TEST(ValidateSchedulerConfigurationTest, BalancedArgsInProfile) {
  KubeSchedulerConfiguration c = ValidConfig();
  c.profiles[1].plugin_config = {"NodeResourcesBalancedAllocation"};
  c.profiles[1].balanced_args.resources = {{"cpu", 1}, {"nvidia.com/gpu", 2}};
  EXPECT_EQ(Msgs(ValidateSchedulerConfiguration(c)),
            std::vector<std::string>{
                "profiles[1].pluginConfig[0].args.resources[1].weight: Invalid value: 2: must be 1"});
}

TEST(ValidatePluginArgsTest, NodeResourcesBalancedAllocationArgs) {
  struct Case {
    const char* name;
    std::vector<ResourceSpec> resources;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"valid config", {{"cpu", 1}, {"memory", 1}}, {}},
      {"invalid config", {{"cpu", 2}, {"memory", 1}}, {"resources[0].weight: Invalid value: 2: must be 1"}},
      {"repeated resources", {{"cpu", 1}, {"cpu", 1}}, {"resources[1].name: Duplicate value: \"cpu\""}},
  };
  for (const auto& t : cases) {
    NodeResourcesBalancedAllocationArgs args;
    args.resources = t.resources;
    EXPECT_EQ(Msgs(ValidateNodeResourcesBalancedAllocationArgs("", args)), t.want) << t.name;
  }
}

NodeResourcesFitArgs DefaultFit() {
  NodeResourcesFitArgs a;
  a.type = ScoringStrategyType::kLeastAllocated;
  a.resources = {{"cpu", 1}, {"memory", 1}};
  return a;
}

// metav1validation.ValidateLabelName: one error per IsQualifiedName message.
std::vector<std::string> LabelNameErrors(const std::string& path, const std::string& v) {
  std::vector<std::string> out;
  for (const auto& m : IsQualifiedName(v)) out.push_back(path + ": Invalid value: " + GoQuote(v) + ": " + m);
  return out;
}

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(ValidatePluginArgsTest, FitArgs) {
  struct Case {
    const char* name;
    std::vector<std::string> ignored_resources;
    std::vector<std::string> ignored_groups;
    std::string expect;  // upstream's substring
    std::vector<std::string> want;
  };
  const std::string too_long = "longvalue" + std::string(64, 'a');
  const std::string group_too_long(64, 'a');
  const std::string ir = "ignoredResources[0]";
  const std::string ig = "ignoredResourceGroups[0]";
  const std::string slash = ig + ": Invalid value: \"example.com/\": resource group name can't contain '/'";
  // Upstream's substrings; since v1.35 the label-key checks of
  // k8s.io/apimachinery/pkg/api/validate/content say "bytes" and "a valid
  // label key", so the length and regex ones are shortened to what both say.
  const std::vector<Case> cases = {
      {"IgnoredResources: too long value", {too_long}, {}, "name part must be no more than 63",
       LabelNameErrors(ir, too_long)},
      {"IgnoredResources: name is empty", {"example.com/"}, {}, "name part must be non-empty",
       LabelNameErrors(ir, "example.com/")},
      {"IgnoredResources: name has too many slash", {"example.com/aaa/bbb"}, {},
       "must consist of alphanumeric characters", LabelNameErrors(ir, "example.com/aaa/bbb")},
      {"IgnoredResources: valid args", {"example.com"}, {}, "", {}},
      {"IgnoredResourceGroups: valid args ", {}, {"example.com"}, "", {}},
      {"IgnoredResourceGroups: illegal args", {}, {"example.com/"}, "name part must be non-empty",
       Concat({slash}, LabelNameErrors(ig, "example.com/"))},
      {"IgnoredResourceGroups: name is too long", {}, {group_too_long}, "name part must be no more than 63",
       LabelNameErrors(ig, group_too_long)},
      {"IgnoredResourceGroups: name cannot be contain slash", {}, {"example.com/aa"},
       "resource group name can't contain '/'",
       {ig + ": Invalid value: \"example.com/aa\": resource group name can't contain '/'"}},
  };
  for (const auto& t : cases) {
    NodeResourcesFitArgs args = DefaultFit();
    args.ignored_resources = t.ignored_resources;
    args.ignored_resource_groups = t.ignored_groups;
    std::vector<std::string> got = Msgs(ValidateNodeResourcesFitArgs("", args));
    EXPECT_EQ(got, t.want) << t.name;
    EXPECT_EQ(got.empty(), t.expect.empty()) << t.name;
    if (!t.expect.empty()) {
      std::string all;
      for (const auto& m : got) all += m + "; ";
      EXPECT_NE(all.find(t.expect), std::string::npos) << t.name << ": " << all;
    }
  }
}

TEST(ValidatePluginArgsTest, LeastAndMostAllocatedScoringStrategy) {
  struct Case {
    const char* name;
    std::vector<ResourceSpec> resources;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"default config", {}, {}},
      {"multi valid resources", {{"cpu", 1}, {"memory", 10}}, {}},
      {"weight less than min",
       {{"cpu", 0}},
       {"scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]"}},
      {"weight greater than max",
       {{"cpu", 101}},
       {"scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, "
        "100]"}},
      {"multi invalid resources",
       {{"cpu", 0}, {"memory", 101}},
       {"scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]",
        "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of memory not in valid range (0, "
        "100]"}},
  };
  for (ScoringStrategyType type : {ScoringStrategyType::kLeastAllocated, ScoringStrategyType::kMostAllocated}) {
    for (const auto& t : cases) {
      NodeResourcesFitArgs args;
      args.type = type;
      args.resources = t.resources;
      EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)), t.want) << ScoringStrategyName(type) << " " << t.name;
    }
  }
}

TEST(ValidatePluginArgsTest, RequestedToCapacityRatioScoringStrategy) {
  const std::vector<UtilizationShapePoint> default_shape = {{30, 3}};
  struct Case {
    const char* name;
    std::vector<ResourceSpec> resources;
    std::vector<UtilizationShapePoint> shape;
    std::vector<std::string> want;
  };
  const std::string sp = "scoringStrategy.requestedToCapacityRatio.shape";
  const std::vector<Case> cases = {
      {"no shapes", {}, {}, {sp + ": Required value: at least one point must be specified"}},
      {"weight greater than max",
       {{"cpu", 101}},
       default_shape,
       {"scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, "
        "100]"}},
      {"weight less than min",
       {{"cpu", 0}},
       default_shape,
       {"scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]"}},
      {"valid shapes", {}, default_shape, {}},
      {"utilization less than min", {}, {{-1, 3}}, {sp + "[0].utilization: Invalid value: -1: not in valid range [0, 100]"}},
      {"utilization greater than max",
       {},
       {{101, 3}},
       {sp + "[0].utilization: Invalid value: 101: not in valid range [0, 100]"}},
      {"duplicated utilization values",
       {},
       {{10, 3}, {10, 3}},
       {sp + "[1].utilization: Invalid value: 10: values must be sorted in increasing order"}},
      {"increasing utilization values", {}, {{10, 3}, {20, 3}, {30, 3}}, {}},
      {"non-increasing utilization values",
       {},
       {{10, 3}, {20, 3}, {15, 3}},
       {sp + "[2].utilization: Invalid value: 15: values must be sorted in increasing order"}},
      {"score less than min", {}, {{10, -1}}, {sp + "[0].score: Invalid value: -1: not in valid range [0, 10]"}},
      {"score greater than max", {}, {{10, 11}}, {sp + "[0].score: Invalid value: 11: not in valid range [0, 10]"}},
  };
  for (const auto& t : cases) {
    NodeResourcesFitArgs args;
    args.type = ScoringStrategyType::kRequestedToCapacityRatio;
    args.resources = t.resources;
    args.has_requested_to_capacity_ratio = true;
    args.shape = t.shape;
    EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)), t.want) << t.name;
  }
}

// The remaining branches of ValidateNodeResourcesFitArgs, with messages
// from validation_pluginargs.go.
TEST(ValidatePluginArgsTest, ScoringStrategyTypeAndRequestedToCapacityRatio) {
  const std::string supported =
      "supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"";
  {
    NodeResourcesFitArgs args = DefaultFit();
    args.unsupported_type = "Foo";
    EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)),
              std::vector<std::string>{"scoringStrategy.type: Unsupported value: \"Foo\": " + supported});
  }
  {
    // A typed string is rendered with encoding/json, which escapes <, > and &.
    NodeResourcesFitArgs args = DefaultFit();
    args.unsupported_type = "a<b";
    EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)),
              std::vector<std::string>{"scoringStrategy.type: Unsupported value: \"a\\u003cb\": " + supported});
  }
  {
    // scoringStrategy given without a type: defaulting leaves "".
    NodeResourcesFitArgs args = DefaultFit();
    args.unsupported_type = "";
    EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)),
              std::vector<std::string>{"scoringStrategy.type: Unsupported value: \"\": " + supported});
  }
  {
    NodeResourcesFitArgs args = DefaultFit();
    args.type = ScoringStrategyType::kRequestedToCapacityRatio;
    EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)),
              std::vector<std::string>{"scoringStrategy.requestedToCapacityRatio: Required value: must be specified "
                                       "when type is RequestedToCapacityRatio"});
  }
  {
    NodeResourcesFitArgs args = DefaultFit();
    args.type = ScoringStrategyType::kMostAllocated;
    args.has_requested_to_capacity_ratio = true;
    args.shape = {{0, 0}, {100, 10}};
    EXPECT_EQ(Msgs(ValidateNodeResourcesFitArgs("", args)),
              std::vector<std::string>{"scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type "
                                       "is not RequestedToCapacityRatio"});
  }
}

}  // namespace
}  // namespace gpusched

// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as plain
// structs: profiles, plugin sets with weights, and the plugin args gpusched
// uses. Defaults follow pkg/scheduler/apis/config/v1/defaults.go and
// default_plugins.go; validation follows pkg/scheduler/apis/config/validation.
// No I/O here: src/io/scheduler_config_loader.* reads the YAML.
#ifndef GPUSCHED_CONFIG_SCHEDULER_CONFIG_H_
#define GPUSCHED_CONFIG_SCHEDULER_CONFIG_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/dra_features.h"
#include "gpusched/config/plugin_args.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// The score range every score plugin and the config's weights are checked
// against, defined once here (config is the lowest layer that needs them;
// sched/api/score_plugin.h uses these).
// pkg/scheduler/framework/interface.go
inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMinNodeScore = 0;
// pkg/scheduler/apis/config/types.go (RequestedToCapacityRatio shape scores)
inline constexpr int64_t kMaxCustomPriorityScore = 10;

struct ResourceSpec {
  std::string name;
  int64_t weight = 0;  // 0 (unset) defaults to 1
};

struct UtilizationShapePoint {
  int32_t utilization = 0;  // 0..100
  int32_t score = 0;        // 0..10 (MaxCustomPriorityScore)
};

enum class ScoringStrategyType { kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio };

struct NodeResourcesFitArgs {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategyType type = ScoringStrategyType::kLeastAllocated;
  std::vector<ResourceSpec> resources;        // empty -> [{cpu,1},{memory,1}] after defaulting
  std::vector<UtilizationShapePoint> shape;   // requestedToCapacityRatio.shape
  // scoringStrategy.requestedToCapacityRatio was given (validation requires
  // it for RequestedToCapacityRatio and forbids it for the other types).
  bool has_requested_to_capacity_ratio = false;
  // scoringStrategy.type as written when it is none of the three (including
  // "" for a scoringStrategy without a type, which upstream leaves empty);
  // validation reports it as "Unsupported value".
  std::optional<std::string> unsupported_type;
};

struct NodeResourcesBalancedAllocationArgs {
  std::vector<ResourceSpec> resources;  // empty -> [{cpu,1},{memory,1}] after defaulting
};

struct PluginRef {
  std::string name;
  int32_t weight = 0;  // score plugins only; 0 = the plugin's default weight
};

struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<PluginRef> disabled;  // name "*" disables all defaults of the set
};

// The extension points gpusched reads. Others in a config file are accepted
// and reported as ignored by the loader.
struct Plugins {
  PluginSet multi_point;
  PluginSet queue_sort;
  PluginSet pre_filter;
  PluginSet filter;
  PluginSet post_filter;
  PluginSet pre_score;
  PluginSet score;
  PluginSet reserve;
  PluginSet permit;  // GangScheduling, Coscheduling (sched/framework/gang_serving.h)
  PluginSet bind;
};

// scheduler-plugins' CoschedulingArgs (apis/config/v1/types.go), defaulted
// as its SetDefaults_CoschedulingArgs does (apis/config/v1/defaults.go).
struct CoschedulingArgs {
  int64_t permit_waiting_time_seconds = 60;
  int64_t pod_group_backoff_seconds = 0;
  int32_t pod_group_reject_percentage = 10;
};

struct SchedulerProfile {
  std::string scheduler_name = "default-scheduler";
  std::optional<int32_t> percentage_of_nodes_to_score;
  Plugins plugins;
  NodeResourcesFitArgs fit_args;
  NodeResourcesBalancedAllocationArgs balanced_args;
  CoschedulingArgs coscheduling_args;  // read when the profile names Coscheduling
  // Args of plugins the configuration has no field for, by plugin name, as
  // their own decoders stored them (plugin_args.h).
  std::map<std::string, std::shared_ptr<const PluginArgs>, std::less<>> plugin_args;
  // Names of profiles[].pluginConfig[] in order (the args gpusched reads are
  // in fit_args, balanced_args, coscheduling_args and plugin_args, from the
  // first entry of that name).
  // SetDefaults appends, as upstream does, one entry for every enabled
  // plugin that has an args type and no entry yet (in name order).
  std::vector<std::string> plugin_config;
  // schedulerName was present in the file. Upstream names a profile
  // "default-scheduler" only when it is the only one and has no name.
  bool scheduler_name_set = false;
};

// One entry of `extenders:` (KS config/v1/types.go Extender, through the
// internal config.Extender). gpusched's `schedule` and `simulate` do not call
// extenders; `gpusched serve` is one. The stanza is read and validated as
// kube-scheduler validates it (validateExtenders).
struct ExtenderManagedResource {
  std::string name;
  bool ignored_by_scheduler = false;
};

struct ExtenderTLSConfig {
  bool insecure = false;
  std::string server_name, cert_file, key_file, ca_file;
  std::string cert_data, key_data, ca_data;  // decoded bytes ([]byte is base64 in YAML/JSON)
};

struct Extender {
  std::string url_prefix;
  std::string filter_verb, preempt_verb, prioritize_verb, bind_verb;
  int64_t weight = 0;  // not defaulted: prioritizeVerb needs weight > 0
  bool enable_https = false;
  std::optional<ExtenderTLSConfig> tls_config;
  // httpTimeout; 0 (unset) means DefaultExtenderTimeout, 5 s, applied by
  // NewHTTPExtender (K8S pkg/scheduler/extender.go), not by defaulting.
  double http_timeout_seconds = 0;
  bool node_cache_capable = false;
  std::vector<ExtenderManagedResource> managed_resources;
  bool ignorable = false;
};

inline constexpr double kDefaultExtenderTimeoutSeconds = 5;

struct KubeSchedulerConfiguration {
  int32_t parallelism = 16;  // validated only: results do not depend on it
  std::optional<int32_t> percentage_of_nodes_to_score;  // global; 0 or unset = adaptive
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  std::vector<SchedulerProfile> profiles;  // empty -> one default profile after defaulting
  std::vector<Extender> extenders;
  bool defaulted = false;  // SetDefaults has run
};

// A score plugin with its final weight.
struct WeightedPlugin {
  std::string name;
  int32_t weight = 1;
};

// A profile with the plugin sets resolved the way the framework does it:
// the defaults of default_plugins.go (MultiPoint), then the profile's
// multiPoint and per-extension-point enabled/disabled lists applied
// (pkg/scheduler/framework/runtime/framework.go expandMultiPointPlugins).
struct ResolvedProfile {
  std::string scheduler_name;
  std::string queue_sort;                  // "PrioritySort"
  std::vector<std::string> filters;        // in run order
  std::vector<WeightedPlugin> scores;      // in run order
  std::vector<std::string> post_filters;   // e.g. "DefaultPreemption"
  std::vector<std::string> permit;         // e.g. "GangScheduling", "Coscheduling"
  CoschedulingArgs coscheduling_args;
  std::optional<int32_t> percentage_of_nodes_to_score;  // profile's, else the global one
  NodeResourcesFitArgs fit_args;           // defaulted
  NodeResourcesBalancedAllocationArgs balanced_args;  // defaulted
  std::map<std::string, std::shared_ptr<const PluginArgs>, std::less<>> plugin_args;  // the profile's
  // The run's DRA feature gates (--feature-gates), for DynamicResources.
  DraFeatures dra_features;
};

// The args a plugin's decoder stored for it in `profile` (nullptr when its
// pluginConfig entry has none), as the type it stored.
template <typename Args>
const Args* PluginArgsOf(const ResolvedProfile& profile, std::string_view plugin) {
  auto it = profile.plugin_args.find(plugin);
  return it == profile.plugin_args.end() ? nullptr : dynamic_cast<const Args*>(it->second.get());
}

// The configuration kube-scheduler runs with when given none.
KubeSchedulerConfiguration DefaultSchedulerConfiguration();

// Applies upstream defaulting in place (profiles, resource weights, args).
// The profile's plugins become the merge of the defaults and the profile's
// own sets (mergePlugins), as the v1 defaulting does.
void SetDefaults(KubeSchedulerConfiguration& config);

// SetDefaults_NodeResourcesFitArgs and SetDefaults_NodeResourcesBalancedAllocationArgs
// (pkg/scheduler/apis/config/v1/defaults.go): resources [{cpu,1},{memory,1}]
// when none are given, weight 1 where it is 0. Idempotent; SetDefaults runs
// them on every profile, the plugin registry on the args a plugin is made
// with.
void SetDefaultsNodeResourcesFitArgs(NodeResourcesFitArgs& args);
void SetDefaultsNodeResourcesBalancedAllocationArgs(NodeResourcesBalancedAllocationArgs& args);

// Upstream validation; field paths as upstream prints them
// (e.g. "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight").
// Expects a defaulted configuration, as upstream validates after decoding.
std::vector<FieldError> ValidateSchedulerConfiguration(const KubeSchedulerConfiguration& config);

// validateExtenders (pkg/scheduler/apis/config/validation/validation.go):
// prioritizeVerb needs a positive weight, managedResources names must be
// valid extended resource names given once across all extenders, and at most
// one extender may bind. Part of ValidateSchedulerConfiguration (last, as
// upstream appends them).
std::vector<FieldError> ValidateExtenders(const std::vector<Extender>& extenders);

// The plugin args validators of validation_pluginargs.go; `path` is the
// args' field path ("" for upstream's nil path).
std::vector<FieldError> ValidateNodeResourcesFitArgs(const std::string& path, const NodeResourcesFitArgs& args);
std::vector<FieldError> ValidateNodeResourcesBalancedAllocationArgs(const std::string& path,
                                                                    const NodeResourcesBalancedAllocationArgs& args);

struct InTreePlugin;

// Resolves a profile of a defaulted configuration (a configuration that was
// not defaulted is resolved as if SetDefaults had run) against `registry`
// (the plugin registry's catalog, sched/plugins/registry.h). Plugins that
// the framework would refuse (see FrameworkError) are left out.
ResolvedProfile ResolveProfile(const KubeSchedulerConfiguration& config, size_t profile_index,
                               const std::vector<InTreePlugin>& registry);

// What frameworkruntime.NewFramework refuses when kube-scheduler builds the
// profile (pkg/scheduler/framework/runtime/framework.go), with its messages:
// `FilterPlugin "Foo" does not exist`, `plugin "ImageLocality" does not
// extend FilterPlugin plugin`, `plugin "X" already registered as
// "ScorePlugin"`, `only one queue sort plugin required for profile with
// scheduler name "s", but got 2`, `at least one bind plugin is needed for
// profile with scheduler name "s"`. Empty when the profile would start. The
// first error stops upstream; this returns the first one as well.
std::optional<std::string> FrameworkError(const KubeSchedulerConfiguration& config, size_t profile_index,
                                          const std::vector<InTreePlugin>& registry);

const char* ScoringStrategyName(ScoringStrategyType t);
std::optional<ScoringStrategyType> ParseScoringStrategy(std::string_view name);

// --- What the configuration knows of plugins, and the default plugins -----

// Extension points a plugin implements (bit set).
enum ExtensionPoint : uint32_t {
  kPreEnqueue = 1u << 0,
  kQueueSort = 1u << 1,
  kPreFilter = 1u << 2,
  kFilter = 1u << 3,
  kPostFilter = 1u << 4,
  kPreScore = 1u << 5,
  kScore = 1u << 6,
  kReserve = 1u << 7,
  kPermit = 1u << 8,
  kPreBind = 1u << 9,
  kBind = 1u << 10,
  kPostBind = 1u << 11,
};

// What the configuration knows of a registered plugin: its name, the
// extension points it implements and how to read its args. The registry
// (sched/plugins/registry.h) owns the rows; the configuration and its loader
// are handed its catalog, as upstream's framework is handed its registry.
struct InTreePlugin {
  const char* name;
  uint32_t extension_points;  // ExtensionPoint bits
  // Reads profiles[].pluginConfig[].args of this plugin; nullptr: gpusched
  // does not read its args (the loader says they are ignored).
  ArgsDecoder decode_args = nullptr;
};

// The plugins of every extension point of one (defaulted) profile, as
// frameworkruntime.NewFramework builds them from `registry` (ListPlugins),
// and the first error NewFramework would return. Plugins it would refuse
// are left out. ResolveProfile and FrameworkError use it; tests give it fake
// plugins, as upstream's framework_test.go does.
struct FrameworkPlugins {
  std::vector<std::string> pre_enqueue, queue_sort, pre_filter, filter, post_filter, pre_score, reserve, permit,
      pre_bind, bind, post_bind;
  std::vector<WeightedPlugin> score;
  std::optional<std::string> error;
};
FrameworkPlugins BuildFramework(const SchedulerProfile& profile, const std::vector<InTreePlugin>& registry);

// getDefaultPlugins (pkg/scheduler/apis/config/v1/default_plugins.go): every
// default plugin in multiPoint, with the score weights.
Plugins DefaultPlugins();
// mergePluginSet / mergePlugins of default_plugins.go: custom enabled
// plugins replace a default of the same name in place, the others are
// appended; disabled defaults (or "*") are dropped; disabled lists are kept.
PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom);
Plugins MergePlugins(const Plugins& defaults, const Plugins& custom);

}  // namespace gpusched

#endif  // GPUSCHED_CONFIG_SCHEDULER_CONFIG_H_

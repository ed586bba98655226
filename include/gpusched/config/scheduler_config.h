// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as plain
// structs: profiles, plugin sets with weights, and the plugin args gpusched
// uses. Defaults follow pkg/scheduler/apis/config/v1/defaults.go and
// default_plugins.go; validation follows pkg/scheduler/apis/config/validation.
// No I/O here: src/io/scheduler_config_loader.* reads the YAML.
#ifndef GPUSCHED_CONFIG_SCHEDULER_CONFIG_H_
#define GPUSCHED_CONFIG_SCHEDULER_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/validation.h"

namespace gpusched {

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
  PluginSet bind;
};

struct SchedulerProfile {
  std::string scheduler_name = "default-scheduler";
  std::optional<int32_t> percentage_of_nodes_to_score;
  Plugins plugins;
  NodeResourcesFitArgs fit_args;
  NodeResourcesBalancedAllocationArgs balanced_args;
};

struct KubeSchedulerConfiguration {
  std::optional<int32_t> percentage_of_nodes_to_score;  // global; 0 or unset = adaptive
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  std::vector<SchedulerProfile> profiles;  // empty -> one default profile after defaulting
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
  std::optional<int32_t> percentage_of_nodes_to_score;  // profile's, else the global one
  NodeResourcesFitArgs fit_args;           // defaulted
  NodeResourcesBalancedAllocationArgs balanced_args;  // defaulted
};

// The configuration kube-scheduler runs with when given none.
KubeSchedulerConfiguration DefaultSchedulerConfiguration();

// Applies upstream defaulting in place (profiles, resource weights, args).
void SetDefaults(KubeSchedulerConfiguration& config);

// Upstream validation; field paths as upstream prints them
// (e.g. "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight").
std::vector<FieldError> ValidateSchedulerConfiguration(const KubeSchedulerConfiguration& config);

ResolvedProfile ResolveProfile(const KubeSchedulerConfiguration& config, size_t profile_index);

const char* ScoringStrategyName(ScoringStrategyType t);

}  // namespace gpusched

#endif  // GPUSCHED_CONFIG_SCHEDULER_CONFIG_H_

// Defaulting of KubeSchedulerConfiguration v1
// (pkg/scheduler/apis/config/v1/defaults.go).
#include <algorithm>
#include <set>

#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"

namespace gpusched {
namespace {

// defaultResourceSpec.
std::vector<ResourceSpec> DefaultResourceSpec() { return {{"cpu", 1}, {"memory", 1}}; }

// The plugins whose "<Name>Args" kind the v1 scheme registers: upstream
// appends a defaulted args object for each of them that is enabled.
bool HasArgsKind(const std::string& name) {
  static const std::set<std::string, std::less<>> kWithArgs = {
      names::kDefaultPreemption, names::kDynamicResources, names::kInterPodAffinity,
      names::kNodeAffinity,      names::kNodeResourcesBalancedAllocation, names::kNodeResourcesFit,
      names::kPodTopologySpread, names::kVolumeBinding};
  return kWithArgs.count(name) > 0;
}

// pluginsNames: the enabled plugins of every extension point, sorted.
std::set<std::string> EnabledNames(const Plugins& p) {
  std::set<std::string> names;
  for (const PluginSet* s : {&p.multi_point, &p.pre_filter, &p.filter, &p.post_filter, &p.reserve, &p.pre_score,
                             &p.score, &p.bind, &p.queue_sort})
    for (const auto& e : s->enabled) names.insert(e.name);
  return names;
}

// setDefaults_KubeSchedulerProfile.
void DefaultProfile(SchedulerProfile& prof) {
  prof.plugins = MergePlugins(DefaultPlugins(), prof.plugins);
  SetDefaultsNodeResourcesFitArgs(prof.fit_args);
  SetDefaultsNodeResourcesBalancedAllocationArgs(prof.balanced_args);
  std::set<std::string> existing(prof.plugin_config.begin(), prof.plugin_config.end());
  for (const auto& name : EnabledNames(prof.plugins)) {
    if (existing.count(name) || !HasArgsKind(name)) continue;
    prof.plugin_config.push_back(name);
  }
}

}  // namespace

// A missing scoringStrategy is {LeastAllocated, defaultResourceSpec}; its
// type is the struct's default. "If the weight is not set or it is
// explicitly set to 0, then apply the default weight(1) instead."
void SetDefaultsNodeResourcesFitArgs(NodeResourcesFitArgs& a) {
  if (a.resources.empty()) a.resources = DefaultResourceSpec();
  for (auto& r : a.resources)
    if (r.weight == 0) r.weight = 1;
}

void SetDefaultsNodeResourcesBalancedAllocationArgs(NodeResourcesBalancedAllocationArgs& a) {
  if (a.resources.empty()) {
    a.resources = DefaultResourceSpec();
    return;
  }
  for (auto& r : a.resources)
    if (r.weight == 0) r.weight = 1;
}

void SetDefaults(KubeSchedulerConfiguration& config) {
  // SetDefaults_KubeSchedulerConfiguration.
  if (config.profiles.empty()) config.profiles.emplace_back();
  // Only a single profile gets the default scheduler name; validation makes
  // every profile have a non-empty unique one.
  if (config.profiles.size() == 1 && !config.profiles[0].scheduler_name_set &&
      config.profiles[0].scheduler_name.empty())
    config.profiles[0].scheduler_name = "default-scheduler";
  if (!config.defaulted)
    for (auto& prof : config.profiles) DefaultProfile(prof);
  // config.DefaultPercentageOfNodesToScore = 0 (adaptive).
  if (!config.percentage_of_nodes_to_score) config.percentage_of_nodes_to_score = 0;
  // podInitialBackoffSeconds 1 and podMaxBackoffSeconds 10 are the struct's
  // defaults: a value the file sets, even 0, stays for validation to judge.
  config.defaulted = true;
}

}  // namespace gpusched

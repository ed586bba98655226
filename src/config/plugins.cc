// The default plugins and their merging with a profile's plugin sets
// (pkg/scheduler/apis/config/v1/default_plugins.go). Which plugins exist is
// the registry's (sched/plugins/registry.h).
#include <map>
#include <set>

#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"

namespace gpusched {

Plugins DefaultPlugins() {
  // getDefaultPlugins, with applyFeatureGates for the v1.35 defaults:
  // DynamicResourceAllocation is GA and on, so DynamicResources is inserted
  // before DefaultPreemption. The in-tree volume limit plugins (EBSLimits,
  // GCEPDLimits, AzureDiskLimits, CinderLimits) are gone from v1.
  Plugins p;
  p.multi_point.enabled = {
      {names::kSchedulingGates, 0},
      {names::kPrioritySort, 0},
      {names::kNodeUnschedulable, 0},
      {names::kNodeName, 0},
      {names::kTaintToleration, 3},
      {names::kNodeAffinity, 2},
      {names::kNodePorts, 0},
      {names::kNodeResourcesFit, 1},
      {names::kVolumeRestrictions, 0},
      {names::kNodeVolumeLimits, 0},
      {names::kVolumeBinding, 0},
      {names::kVolumeZone, 0},
      {names::kPodTopologySpread, 2},
      {names::kInterPodAffinity, 2},
      {names::kDynamicResources, 0},
      {names::kDefaultPreemption, 0},
      {names::kNodeResourcesBalancedAllocation, 1},
      {names::kImageLocality, 1},
      {names::kDefaultBinder, 0},
  };
  return p;
}

PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom) {
  std::set<std::string, std::less<>> disabled_names;
  PluginSet out;
  // Custom disabled first, then the default set's own disabled plugins; the
  // list is kept so that MultiPoint expansion knows what to skip.
  for (const auto& d : custom.disabled) {
    out.disabled.push_back(PluginRef{d.name, 0});
    disabled_names.insert(d.name);
  }
  for (const auto& d : defaults.disabled) {
    out.disabled.push_back(PluginRef{d.name, 0});
    disabled_names.insert(d.name);
  }
  // enabledCustomPlugins is a map: a name given twice keeps its last index.
  std::map<std::string, size_t, std::less<>> custom_index;
  for (size_t i = 0; i < custom.enabled.size(); ++i) custom_index[custom.enabled[i].name] = i;
  std::set<size_t> replaced;
  if (!disabled_names.count("*")) {
    for (const auto& d : defaults.enabled) {
      if (disabled_names.count(d.name)) continue;
      if (auto it = custom_index.find(d.name); it != custom_index.end()) {
        // The default plugin is explicitly re-configured: replaced in place.
        out.enabled.push_back(custom.enabled[it->second]);
        replaced.insert(it->second);
      } else {
        out.enabled.push_back(d);
      }
    }
  }
  // The custom plugins that replaced no default, duplicates included (the
  // framework rejects those later).
  for (size_t i = 0; i < custom.enabled.size(); ++i)
    if (!replaced.count(i)) out.enabled.push_back(custom.enabled[i]);
  return out;
}

Plugins MergePlugins(const Plugins& defaults, const Plugins& custom) {
  Plugins out;
  out.multi_point = MergePluginSet(defaults.multi_point, custom.multi_point);
  out.queue_sort = MergePluginSet(defaults.queue_sort, custom.queue_sort);
  out.pre_filter = MergePluginSet(defaults.pre_filter, custom.pre_filter);
  out.filter = MergePluginSet(defaults.filter, custom.filter);
  out.post_filter = MergePluginSet(defaults.post_filter, custom.post_filter);
  out.pre_score = MergePluginSet(defaults.pre_score, custom.pre_score);
  out.score = MergePluginSet(defaults.score, custom.score);
  out.reserve = MergePluginSet(defaults.reserve, custom.reserve);
  out.permit = MergePluginSet(defaults.permit, custom.permit);
  out.bind = MergePluginSet(defaults.bind, custom.bind);
  return out;
}

}  // namespace gpusched

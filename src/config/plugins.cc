// The in-tree plugin registry, the default plugins and their merging with a
// profile's plugin sets (pkg/scheduler/apis/config/v1/default_plugins.go).
#include <map>
#include <set>

#include "gpusched/config/scheduler_config.h"

namespace gpusched {

const std::vector<InTreePlugin>& InTreePlugins() {
  // pkg/scheduler/framework/plugins/registry.go (v1.35) and each plugin's
  // `var _ fwk.XPlugin = &P{}` assertions. NodeDeclaredFeatures and
  // GangScheduling are alpha in v1.35 (their feature gates are off, so they
  // are not default plugins); they are registered and can be enabled.
  static const std::vector<InTreePlugin> kPlugins = {
      {"SchedulingGates", kPreEnqueue},
      {"PrioritySort", kQueueSort},
      {"NodeUnschedulable", kFilter},
      {"NodeName", kFilter},
      {"TaintToleration", kFilter | kPreScore | kScore},
      {"NodeAffinity", kPreFilter | kFilter | kPreScore | kScore},
      {"NodePorts", kPreFilter | kFilter},
      {"NodeResourcesFit", kPreFilter | kFilter | kPreScore | kScore},
      {"VolumeRestrictions", kPreFilter | kFilter},
      {"NodeVolumeLimits", kPreFilter | kFilter},
      {"VolumeBinding", kPreFilter | kFilter | kReserve | kPreBind | kPreScore | kScore},
      {"VolumeZone", kPreFilter | kFilter},
      {"PodTopologySpread", kPreFilter | kFilter | kPreScore | kScore},
      {"InterPodAffinity", kPreFilter | kFilter | kPreScore | kScore},
      {"DynamicResources", kPreEnqueue | kPreFilter | kFilter | kPostFilter | kReserve | kPreBind},
      {"DefaultPreemption", kPostFilter},
      {"NodeResourcesBalancedAllocation", kPreScore | kScore},
      {"ImageLocality", kScore},
      {"DefaultBinder", kBind},
      {"NodeDeclaredFeatures", kPreFilter | kFilter},
      {"GangScheduling", kPreEnqueue | kReserve | kPermit},
      // Not in-tree: scheduler-plugins' Coscheduling (pkg/coscheduling/
      // coscheduling.go: QueueSort, PreFilter, PostFilter, Permit, Reserve).
      // A configuration naming it is one for a scheduler-plugins build of
      // kube-scheduler, whose registry is the in-tree one plus its plugins
      // (cmd/scheduler/main.go app.WithPlugin); gpusched reads it as such.
      {"Coscheduling", kQueueSort | kPreFilter | kPostFilter | kPermit | kReserve},
  };
  return kPlugins;
}

std::optional<uint32_t> PluginExtensionPoints(std::string_view name) {
  for (const auto& p : InTreePlugins())
    if (name == p.name) return p.extension_points;
  return std::nullopt;
}

Plugins DefaultPlugins() {
  // getDefaultPlugins, with applyFeatureGates for the v1.35 defaults:
  // DynamicResourceAllocation is GA and on, so DynamicResources is inserted
  // before DefaultPreemption. The in-tree volume limit plugins (EBSLimits,
  // GCEPDLimits, AzureDiskLimits, CinderLimits) are gone from v1.
  Plugins p;
  p.multi_point.enabled = {
      {"SchedulingGates", 0},
      {"PrioritySort", 0},
      {"NodeUnschedulable", 0},
      {"NodeName", 0},
      {"TaintToleration", 3},
      {"NodeAffinity", 2},
      {"NodePorts", 0},
      {"NodeResourcesFit", 1},
      {"VolumeRestrictions", 0},
      {"NodeVolumeLimits", 0},
      {"VolumeBinding", 0},
      {"VolumeZone", 0},
      {"PodTopologySpread", 2},
      {"InterPodAffinity", 2},
      {"DynamicResources", 0},
      {"DefaultPreemption", 0},
      {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},
      {"DefaultBinder", 0},
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

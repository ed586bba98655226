// The plugin registry: every scheduler plugin gpusched knows, one row each,
// mapping its name to what the configuration needs to know of it (its
// extension points, its args decoder) and to the factory that makes it for a
// profile. It is the only place the configuration (BuildFramework,
// ResolveProfile, the loader), the filter chain and the score plugins learn
// what exists (upstream: pkg/scheduler/framework/plugins/registry.go
// NewInTreeRegistry, and the out-of-tree plugins a build adds with
// app.WithPlugin).
//
// Adding a plugin: a folder under sched/plugins/ with one class deriving
// from the extension points it implements (filter_plugin.h, score_plugin.h),
// its name in config/plugin_names.h, and one row here. A test or an
// out-of-tree build adds its own with PluginRegistry::With.
#ifndef GPUSCHED_SCHED_PLUGINS_REGISTRY_H_
#define GPUSCHED_SCHED_PLUGINS_REGISTRY_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/plugin.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

struct PluginRegistration {
  // The name, the extension points the class implements and its args
  // decoder (nullptr: gpusched does not read its args), as the
  // configuration sees them.
  InTreePlugin plugin;
  // Makes the plugin for a profile, one object for every extension point
  // it has; its args come from `profile` (defaulted). nullptr for a plugin
  // gpusched does not run as an object: the framework implements it
  // (PrioritySort, SchedulingGates, DefaultBinder, DefaultPreemption,
  // DynamicResources' PreEnqueue and PreFilter, the gang Permit plugins) or
  // nothing does yet (the profile names it as unimplemented).
  std::unique_ptr<Plugin> (*make)(const ResolvedProfile& profile) = nullptr;
  // gpusched's own plugins that every profile gets (GpuShare): configurations
  // cannot name them.
  bool internal = false;
};

class PluginRegistry {
 public:
  explicit PluginRegistry(std::vector<PluginRegistration> rows);

  // kube-scheduler v1.35's in-tree plugins (registry.go order), then
  // scheduler-plugins' Coscheduling and gpusched's GpuShare.
  static const PluginRegistry& InTree();

  // A copy with `row` added after the others, or in place of the row of the
  // same name.
  PluginRegistry With(PluginRegistration row) const;

  const PluginRegistration* Find(std::string_view name) const;
  const std::vector<PluginRegistration>& rows() const { return rows_; }
  // What configurations may name: every row that is not internal, in order.
  const std::vector<InTreePlugin>& Catalog() const { return catalog_; }

  // The plugin `name` made for `profile`, as the extension point's
  // interface; nullptr when no row makes it or it does not implement that
  // extension point.
  std::unique_ptr<FilterPlugin> NewFilter(std::string_view name, const ResolvedProfile& profile) const;
  std::unique_ptr<ScorePlugin> NewScore(std::string_view name, const ResolvedProfile& profile) const;

 private:
  std::vector<PluginRegistration> rows_;
  std::vector<InTreePlugin> catalog_;
};

// The in-tree registry's catalog (config's BuildFramework, ResolveProfile,
// FrameworkError and the configuration loader take it as their registry).
const std::vector<InTreePlugin>& InTreePlugins();
// Extension points of a plugin of the in-tree catalog; nullopt when unknown.
std::optional<uint32_t> PluginExtensionPoints(std::string_view name);

// ResolveProfile and FrameworkError (config/scheduler_config.h) with the
// in-tree registry.
ResolvedProfile ResolveProfile(const KubeSchedulerConfiguration& config, size_t profile_index);
std::optional<std::string> FrameworkError(const KubeSchedulerConfiguration& config, size_t profile_index);

// The in-tree registry's filters and scores: a filter made with default args,
// a score configured from a profile's args (upstream's args defaulting
// applied).
std::unique_ptr<FilterPlugin> NewFilterPlugin(std::string_view name);
std::unique_ptr<ScorePlugin> NewScorePlugin(std::string_view name, const ResolvedProfile& profile);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_REGISTRY_H_

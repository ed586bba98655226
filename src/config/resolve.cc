// Resolving a profile into the plugins that run at each extension point, as
// frameworkruntime.NewFramework does (pkg/scheduler/framework/runtime/
// framework.go: updatePluginList, expandMultiPointPlugins, getScoreWeights).
#include <limits>
#include <map>
#include <set>

#include "gpusched/config/scheduler_config.h"

namespace gpusched {
namespace {

// getExtensionPoints order, with the Go interface names the errors print.
struct Point {
  ExtensionPoint bit;
  const char* type_name;
};
constexpr Point kPoints[] = {
    {kPreFilter, "PreFilterPlugin"}, {kFilter, "FilterPlugin"},         {kPostFilter, "PostFilterPlugin"},
    {kReserve, "ReservePlugin"},     {kPreScore, "PreScorePlugin"},     {kScore, "ScorePlugin"},
    {kPreBind, "PreBindPlugin"},     {kBind, "BindPlugin"},             {kPostBind, "PostBindPlugin"},
    {kPermit, "PermitPlugin"},       {kPreEnqueue, "PreEnqueuePlugin"}, {kQueueSort, "QueueSortPlugin"},
};

const PluginSet* SetFor(const Plugins& p, ExtensionPoint bit) {
  switch (bit) {
    case kQueueSort: return &p.queue_sort;
    case kPreFilter: return &p.pre_filter;
    case kFilter: return &p.filter;
    case kPostFilter: return &p.post_filter;
    case kPreScore: return &p.pre_score;
    case kScore: return &p.score;
    case kReserve: return &p.reserve;
    case kPermit: return &p.permit;
    case kBind: return &p.bind;
    default: return nullptr;  // preEnqueue, preBind, postBind: gpusched reads no explicit sets
  }
}

std::optional<uint32_t> Lookup(const std::vector<InTreePlugin>& registry, const std::string& name) {
  for (const auto& p : registry)
    if (name == p.name) return p.extension_points;
  return std::nullopt;
}

}  // namespace

FrameworkPlugins BuildFramework(const SchedulerProfile& prof, const std::vector<InTreePlugin>& registry) {
  const Plugins& plugins = prof.plugins;
  std::map<uint32_t, std::vector<std::string>> lists;
  std::optional<std::string> error;
  auto fail = [&](std::string e) {
    if (!error) error = std::move(e);
  };
  // updatePluginList for every extension point.
  for (const Point& pt : kPoints) {
    auto& list = lists[pt.bit];
    const PluginSet* set = SetFor(plugins, pt.bit);
    if (!set) continue;
    std::set<std::string> seen;
    for (const auto& e : set->enabled) {
      std::optional<uint32_t> eps = Lookup(registry, e.name);
      if (!eps) {
        fail(std::string(pt.type_name) + " " + GoQuote(e.name) + " does not exist");
      } else if (!(*eps & pt.bit)) {
        fail("plugin " + GoQuote(e.name) + " does not extend " + pt.type_name + " plugin");
      } else if (!seen.insert(e.name).second) {
        fail("plugin " + GoQuote(e.name) + " already registered as " + GoQuote(pt.type_name));
      } else {
        list.push_back(e.name);
      }
    }
  }
  // expandMultiPointPlugins.
  if (!plugins.multi_point.enabled.empty()) {
    static const PluginSet kEmpty;
    for (const Point& pt : kPoints) {
      auto& list = lists[pt.bit];
      const PluginSet* set = SetFor(plugins, pt.bit);
      if (!set) set = &kEmpty;
      std::set<std::string> disabled;
      for (const auto& d : set->disabled) disabled.insert(d.name);
      if (disabled.count("*")) continue;  // all defaults disabled at this extension point
      const std::set<std::string> enabled(list.begin(), list.end());
      std::set<std::string> overrides;
      std::vector<std::string> multi;
      std::set<std::string> multi_seen;
      for (const auto& e : plugins.multi_point.enabled) {
        std::optional<uint32_t> eps = Lookup(registry, e.name);
        if (!eps) {
          fail(std::string(pt.type_name) + " " + GoQuote(e.name) + " does not exist");
          continue;
        }
        if (!(*eps & pt.bit) || disabled.count(e.name)) continue;
        // Also enabled at this extension point: the explicit entry wins.
        if (enabled.count(e.name)) {
          overrides.insert(e.name);
          continue;
        }
        if (!multi_seen.insert(e.name).second) {
          fail("plugin " + GoQuote(e.name) + " already registered as " + GoQuote(pt.type_name));
          continue;
        }
        multi.push_back(e.name);
      }
      // The overridden plugins (in their explicit order), then the
      // multiPoint ones, then the rest of the explicit ones.
      std::vector<std::string> out;
      for (const auto& n : list)
        if (overrides.count(n)) out.push_back(n);
      out.insert(out.end(), multi.begin(), multi.end());
      for (const auto& n : list)
        if (!overrides.count(n)) out.push_back(n);
      list = std::move(out);
    }
  }
  if (lists[kQueueSort].size() != 1)
    fail("only one queue sort plugin required for profile with scheduler name " + GoQuote(prof.scheduler_name) +
         ", but got " + std::to_string(lists[kQueueSort].size()));
  if (lists[kBind].empty())
    fail("at least one bind plugin is needed for profile with scheduler name " + GoQuote(prof.scheduler_name));
  // getScoreWeights over Score.Enabled then MultiPoint.Enabled: the first
  // entry of a plugin gives its weight (so an explicit Score entry wins over
  // multiPoint), and 0 (unset) means 1.
  std::map<std::string, int32_t> weights;
  int64_t total = 0;
  for (const auto* refs : {&plugins.score.enabled, &plugins.multi_point.enabled}) {
    for (const auto& e : *refs) {
      std::optional<uint32_t> eps = Lookup(registry, e.name);
      if (!eps || !(*eps & kScore) || weights.count(e.name)) continue;
      const int32_t w = e.weight == 0 ? 1 : e.weight;
      weights[e.name] = w;
      // MaxTotalScore is math.MaxInt64
      if (static_cast<int64_t>(w) * kMaxNodeScore > std::numeric_limits<int64_t>::max() - total) {
        fail("total score of Score plugins could overflow");
        continue;
      }
      total += static_cast<int64_t>(w) * kMaxNodeScore;
    }
  }
  FrameworkPlugins f;
  f.pre_enqueue = lists[kPreEnqueue];
  f.queue_sort = lists[kQueueSort];
  f.pre_filter = lists[kPreFilter];
  f.filter = lists[kFilter];
  f.post_filter = lists[kPostFilter];
  f.pre_score = lists[kPreScore];
  for (const auto& n : lists[kScore]) f.score.push_back(WeightedPlugin{n, weights.count(n) ? weights[n] : 1});
  f.reserve = lists[kReserve];
  f.permit = lists[kPermit];
  f.pre_bind = lists[kPreBind];
  f.bind = lists[kBind];
  f.post_bind = lists[kPostBind];
  f.error = std::move(error);
  return f;
}

ResolvedProfile ResolveProfile(const KubeSchedulerConfiguration& config, size_t profile_index,
                               const std::vector<InTreePlugin>& registry) {
  if (!config.defaulted) {
    KubeSchedulerConfiguration copy = config;
    SetDefaults(copy);
    return ResolveProfile(copy, profile_index, registry);
  }
  ResolvedProfile r;
  if (profile_index >= config.profiles.size()) return r;
  const SchedulerProfile& prof = config.profiles[profile_index];
  FrameworkPlugins f = BuildFramework(prof, registry);
  r.scheduler_name = prof.scheduler_name;
  if (!f.queue_sort.empty()) r.queue_sort = f.queue_sort.front();
  r.filters = std::move(f.filter);
  r.scores = std::move(f.score);
  r.post_filters = std::move(f.post_filter);
  r.permit = std::move(f.permit);
  r.coscheduling_args = prof.coscheduling_args;
  // schedule_one.go: the profile's percentageOfNodesToScore, else the global one.
  r.percentage_of_nodes_to_score =
      prof.percentage_of_nodes_to_score ? prof.percentage_of_nodes_to_score : config.percentage_of_nodes_to_score;
  r.fit_args = prof.fit_args;
  r.balanced_args = prof.balanced_args;
  r.plugin_args = prof.plugin_args;
  return r;
}

std::optional<std::string> FrameworkError(const KubeSchedulerConfiguration& config, size_t profile_index,
                                          const std::vector<InTreePlugin>& registry) {
  if (!config.defaulted) {
    KubeSchedulerConfiguration copy = config;
    SetDefaults(copy);
    return FrameworkError(copy, profile_index, registry);
  }
  if (profile_index >= config.profiles.size()) return std::nullopt;
  return BuildFramework(config.profiles[profile_index], registry).error;
}

}  // namespace gpusched

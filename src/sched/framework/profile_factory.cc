#include "gpusched/sched/framework/profile_factory.h"

#include <algorithm>

#include "gpusched/config/plugin_names.h"

namespace gpusched {

namespace {

void Note(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

// One profile's Scheduler: its filters, then gpusched's GpuShare; the
// profile's scorers for "kube-default", else the simple policy.
std::unique_ptr<Scheduler> BuildOne(const ResolvedProfile& rp, std::string_view policy, uint64_t seed,
                                    const PolicyOptions& options, const PluginRegistry& registry,
                                    SchedulerSet& set);

// One scheduler per profile of `config`.
Result<SchedulerSet> BuildProfiles(const KubeSchedulerConfiguration& config, std::string_view policy, uint64_t seed,
                                   const PolicyOptions& options, const PluginRegistry& registry);

}  // namespace

Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options,
                                     const std::vector<ExtraProfile>& extra, const PluginRegistry& registry) {
  Result<SchedulerSet> set = BuildProfiles(config, policy, seed, options, registry);
  if (!set.ok()) return set;
  const KubeSchedulerConfiguration defaults = DefaultSchedulerConfiguration();
  for (const ExtraProfile& e : extra) {
    if (const PolicyEntry* pe = FindPolicy(e.policy); pe && pe->needs_workload && options.typical == nullptr)
      return Status::Usage("error: " + std::string(kFgdNeedsWorkload));
    ResolvedProfile rp = ResolveProfile(defaults, 0, registry.Catalog());
    rp.scheduler_name = e.scheduler_name;
    std::unique_ptr<Scheduler> s =
        BuildOne(rp, e.policy, seed + 0x9e3779b97f4a7c15ull * (set->profiles.size()), options, registry, *set);
    set->profiles.emplace_back(e.scheduler_name, s.get());
    set->owned.push_back(std::move(s));
  }
  return set;
}

namespace {

std::unique_ptr<Scheduler> BuildOne(const ResolvedProfile& profile, std::string_view policy, uint64_t seed,
                                    const PolicyOptions& options, const PluginRegistry& registry,
                                    SchedulerSet& set) {
  ResolvedProfile rp = profile;
  rp.dra_features = options.dra_features;
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  for (const auto& f : rp.filters) {
    if (auto p = registry.NewFilter(f, rp)) {
      filters.push_back(std::move(p));
    } else {
      Note(set.unimplemented, f);
    }
  }
  // gpusched's own filters (GpuShare: GPU devices, shares and models) come
  // last in every profile; each passes every pod that asks nothing of it.
  for (const PluginRegistration& r : registry.rows())
    if (r.internal)
      if (auto p = registry.NewFilter(r.plugin.name, rp)) filters.push_back(std::move(p));
  std::unique_ptr<Policy> pol;
  bool preemption = false;
  if (const PolicyEntry* e = FindPolicy(policy); e && e->from_profile) {
    std::vector<std::string> missing;
    pol = std::make_unique<ScoringPolicy>("kube-default", BuildScorePlugins(rp, &missing, registry),
                                          rp.percentage_of_nodes_to_score, !rp.scores.empty());
    for (const auto& m : missing) Note(set.unimplemented, m);
    preemption = std::find(rp.post_filters.begin(), rp.post_filters.end(), names::kDefaultPreemption) !=
                 rp.post_filters.end();
  } else {
    pol = NewSimplePolicy(policy, options);
  }
  return std::make_unique<Scheduler>(std::move(filters), std::move(pol), seed, preemption);
}

}  // namespace

Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options) {
  return BuildSchedulers(config, policy, seed, options, {}, PluginRegistry::InTree());
}

namespace {

Result<SchedulerSet> BuildProfiles(const KubeSchedulerConfiguration& config, std::string_view policy, uint64_t seed,
                                   const PolicyOptions& options, const PluginRegistry& registry) {
  const PolicyEntry* entry = FindPolicy(policy);
  if (entry == nullptr) return Status::Usage(UnknownPolicyMessage(policy));
  if (entry->needs_workload && options.typical == nullptr) return Status::Usage("error: " + std::string(kFgdNeedsWorkload));
  SchedulerSet set;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    ResolvedProfile rp = ResolveProfile(config, i, registry.Catalog());
    // Distinct, reproducible streams per profile.
    std::unique_ptr<Scheduler> s = BuildOne(rp, policy, seed + 0x9e3779b97f4a7c15ull * i, options, registry, set);
    set.profiles.emplace_back(rp.scheduler_name, s.get());
    set.owned.push_back(std::move(s));
  }
  return set;
}

}  // namespace

std::vector<WeightedScorePlugin> BuildScorePlugins(const ResolvedProfile& profile,
                                                   std::vector<std::string>* unimplemented,
                                                   const PluginRegistry& registry) {
  std::vector<WeightedScorePlugin> out;
  for (const auto& wp : profile.scores) {
    std::unique_ptr<ScorePlugin> p = registry.NewScore(wp.name, profile);
    if (!p) {
      if (unimplemented) unimplemented->push_back(wp.name);
      continue;
    }
    out.push_back(WeightedScorePlugin{std::move(p), wp.weight});
  }
  return out;
}

}  // namespace gpusched

#include "gpusched/sched/framework/profile_factory.h"

#include <algorithm>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/scoring_policy.h"

namespace gpusched {

namespace {

void Note(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

// One profile's Scheduler: its filters, then gpusched's GpuShare; the
// profile's scorers for "kube-default", else the simple policy.
std::unique_ptr<Scheduler> BuildOne(const ResolvedProfile& rp, std::string_view policy, uint64_t seed,
                                    const PolicyOptions& options, SchedulerSet& set);

}  // namespace

Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options,
                                     const std::vector<ExtraProfile>& extra) {
  Result<SchedulerSet> set = BuildSchedulers(config, policy, seed, options);
  if (!set.ok()) return set;
  const KubeSchedulerConfiguration defaults = DefaultSchedulerConfiguration();
  for (const ExtraProfile& e : extra) {
    if (const PolicyEntry* pe = FindPolicy(e.policy); pe && pe->needs_workload && options.typical == nullptr)
      return Status::Usage("error: " + std::string(kFgdNeedsWorkload));
    ResolvedProfile rp = ResolveProfile(defaults, 0);
    rp.scheduler_name = e.scheduler_name;
    std::unique_ptr<Scheduler> s =
        BuildOne(rp, e.policy, seed + 0x9e3779b97f4a7c15ull * (set->profiles.size()), options, *set);
    set->profiles.emplace_back(e.scheduler_name, s.get());
    set->owned.push_back(std::move(s));
  }
  return set;
}

namespace {

std::unique_ptr<Scheduler> BuildOne(const ResolvedProfile& rp, std::string_view policy, uint64_t seed,
                                    const PolicyOptions& options, SchedulerSet& set) {
  std::vector<std::unique_ptr<FilterPlugin>> filters;
  for (const auto& f : rp.filters) {
    if (auto p = NewFilterPlugin(f, rp)) {
      filters.push_back(std::move(p));
    } else {
      Note(set.unimplemented, f);
    }
  }
  // GPU devices (shares, models) are gpusched's addition to every profile;
  // it passes every pod that requests neither.
  filters.push_back(NewFilterPlugin("GpuShare"));
  std::unique_ptr<Policy> pol;
  bool preemption = false;
  if (const PolicyEntry* e = FindPolicy(policy); e && e->from_profile) {
    std::vector<std::string> missing;
    pol = std::make_unique<ScoringPolicy>("kube-default", BuildScorePlugins(rp, &missing),
                                          rp.percentage_of_nodes_to_score, !rp.scores.empty());
    for (const auto& m : missing) Note(set.unimplemented, m);
    preemption = std::find(rp.post_filters.begin(), rp.post_filters.end(), "DefaultPreemption") != rp.post_filters.end();
  } else {
    pol = NewSimplePolicy(policy, options);
  }
  return std::make_unique<Scheduler>(std::move(filters), std::move(pol), seed, preemption);
}

}  // namespace

Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options) {
  const PolicyEntry* entry = FindPolicy(policy);
  if (entry == nullptr) return Status::Usage(UnknownPolicyMessage(policy));
  if (entry->needs_workload && options.typical == nullptr) return Status::Usage("error: " + std::string(kFgdNeedsWorkload));
  SchedulerSet set;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    ResolvedProfile rp = ResolveProfile(config, i);
    // Distinct, reproducible streams per profile.
    std::unique_ptr<Scheduler> s = BuildOne(rp, policy, seed + 0x9e3779b97f4a7c15ull * i, options, set);
    set.profiles.emplace_back(rp.scheduler_name, s.get());
    set.owned.push_back(std::move(s));
  }
  return set;
}

}  // namespace gpusched

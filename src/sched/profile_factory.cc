#include "gpusched/sched/profile_factory.h"

#include <algorithm>

#include "gpusched/sched/filters.h"
#include "gpusched/sched/scoring_policy.h"

namespace gpusched {

namespace {

void Note(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

}  // namespace

Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options) {
  if (!IsKnownPolicy(policy)) return Status::Usage(UnknownPolicyMessage(policy));
  if (policy == "fgd" && options.typical == nullptr) return Status::Usage("error: " + std::string(kFgdNeedsWorkload));
  SchedulerSet set;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    ResolvedProfile rp = ResolveProfile(config, i);
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
    if (policy == "kube-default") {
      std::vector<std::string> missing;
      pol = std::make_unique<ScoringPolicy>("kube-default", BuildScorePlugins(rp, &missing),
                                            rp.percentage_of_nodes_to_score, !rp.scores.empty());
      for (const auto& m : missing) Note(set.unimplemented, m);
      preemption = std::find(rp.post_filters.begin(), rp.post_filters.end(), "DefaultPreemption") != rp.post_filters.end();
    } else {
      pol = NewSimplePolicy(policy, options);
    }
    // Distinct, reproducible streams per profile.
    auto s = std::make_unique<Scheduler>(std::move(filters), std::move(pol), seed + 0x9e3779b97f4a7c15ull * i,
                                         preemption);
    set.profiles.emplace_back(rp.scheduler_name, s.get());
    set.owned.push_back(std::move(s));
  }
  return set;
}

}  // namespace gpusched

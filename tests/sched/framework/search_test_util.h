// A scheduler's profile and run for the strategy tests: the filter chain of a
// profile (built as `gpusched` builds it), its policy, a PolicyState and an
// Rng of their own, and SearchContexts over them. Two Runs of one profile
// and seed start alike, so a strategy and the plain scan can each use one.
#ifndef GPUSCHED_TESTS_SCHED_FRAMEWORK_SEARCH_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_FRAMEWORK_SEARCH_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/node_search.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"

namespace gpusched::testing {

// A profile: a --policy name and the config's knobs the strategies depend on.
struct Profile {
  std::string policy = "first-fit";
  std::vector<std::string> ignored, ignored_groups;  // NodeResourcesFitArgs
  std::optional<int32_t> percentage;                 // percentageOfNodesToScore
};

// FGD's target workload for the paper policies.
inline const TypicalPods& Typical() {
  static const TypicalPods t{{{PodShape{1000, 500, 1, ""}, .4}, {PodShape{4000, 1000, 1, ""}, .3},
                              {PodShape{8000, 1000, 2, ""}, .2}, {PodShape{2000, 0, 0, ""}, .1}}};
  return t;
}

class ProfileRun {
 public:
  ProfileRun(const Profile& profile, uint64_t seed) : rng_(seed) {
    KubeSchedulerConfiguration cfg = DefaultSchedulerConfiguration();
    cfg.percentage_of_nodes_to_score = profile.percentage;
    cfg.profiles[0].fit_args.ignored_resources = profile.ignored;
    cfg.profiles[0].fit_args.ignored_resource_groups = profile.ignored_groups;
    Result<SchedulerSet> set = BuildSchedulers(cfg, profile.policy, seed, PolicyOptions{&Typical()});
    EXPECT_TRUE(set.ok()) << set.status().message();
    scheduler_ = std::move(set->owned.front());
    state_ = scheduler_->policy().NewState();
  }

  const std::vector<std::unique_ptr<FilterPlugin>>& filters() const { return scheduler_->filters(); }
  const Policy& policy() const { return scheduler_->policy(); }
  PolicyState& state() { return *state_; }
  Rng& rng() { return rng_; }
  bool preemption() const { return scheduler_->preemption(); }
  ChainTraits chain() const { return ChainTraits::Of(filters()); }

  SearchContext Context(const PodInfo& pod, const ClusterState& cluster, size_t start, int64_t to_find) {
    return SearchContext{pod, cluster, filters(), policy(), *state_, rng_, start, to_find};
  }

 private:
  std::unique_ptr<Scheduler> scheduler_;  // owns the filters and the policy
  std::unique_ptr<PolicyState> state_;    // this run's, not the scheduler's
  Rng rng_;
};

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_FRAMEWORK_SEARCH_TEST_UTIL_H_

// Builds the Schedulers of a KubeSchedulerConfiguration: one per profile,
// with the profile's filters, and either its score plugins (policy
// "kube-default": kube-scheduler's behaviour, with DefaultPreemption's
// message when the profile has it) or one of gpusched's simple policies
// (policy_registry.h: first-fit, best-fit, worst-fit and the FGD paper's
// policies) choosing among the feasible nodes.
#ifndef GPUSCHED_SCHED_FRAMEWORK_PROFILE_FACTORY_H_
#define GPUSCHED_SCHED_FRAMEWORK_PROFILE_FACTORY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/policies/scoring_policy.h"
#include "gpusched/util/status.h"

namespace gpusched {

struct SchedulerSet {
  std::vector<std::unique_ptr<Scheduler>> owned;
  ProfileSchedulers profiles;  // schedulerName -> scheduler, in profile order
  // Plugins the configuration enables that gpusched does not implement (they
  // matter only for inputs gpusched does not model: volumes, ports, ...).
  std::vector<std::string> unimplemented;
};

// `policy` is one of PolicyNames(). Each profile's scheduler gets its own
// generator seeded from `seed` and the profile index. "fgd" needs
// options.typical (else a Usage error, kFgdNeedsWorkload). The plugins are
// the in-tree registry's.
Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options = {});

// Pods whose spec.schedulerName is `scheduler_name` (a scheduler gpusched
// does not run: kai-scheduler, volcano, ...) served by gpusched's `policy`
// with kube-scheduler's default plugins (run/scheduler_names.h reads them).
struct ExtraProfile {
  std::string scheduler_name;
  std::string policy;
};

// BuildSchedulers, then one more profile per `extra`, after the
// configuration's (with their own generators). Each extra policy must be
// known and each name new: neither given twice nor one of the
// configuration's profiles (the caller checks: ParseSchedulerNames in
// run/scheduler_names.h). The plugins are made by `registry` (the in-tree
// one unless a caller adds plugins).
Result<SchedulerSet> BuildSchedulers(const KubeSchedulerConfiguration& config, std::string_view policy,
                                     uint64_t seed, const PolicyOptions& options,
                                     const std::vector<ExtraProfile>& extra,
                                     const PluginRegistry& registry = PluginRegistry::InTree());

// The score plugins of a resolved profile, made by `registry`, with their
// weights. Names it does not make are appended to `unimplemented` (if
// given) and skipped.
std::vector<WeightedScorePlugin> BuildScorePlugins(const ResolvedProfile& profile,
                                                   std::vector<std::string>* unimplemented,
                                                   const PluginRegistry& registry = PluginRegistry::InTree());

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_PROFILE_FACTORY_H_

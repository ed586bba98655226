// The scheduler names a run serves besides its configuration's profiles:
// each value "NAME=POLICY" says that pods whose spec.schedulerName is NAME (a
// scheduler gpusched does not run: kai-scheduler, volcano, ...) are served by
// gpusched's POLICY with kube-scheduler's default plugins (BuildSchedulers'
// extra profiles, sched/framework/profile_factory.h).
#ifndef GPUSCHED_RUN_SCHEDULER_NAMES_H_
#define GPUSCHED_RUN_SCHEDULER_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/run/run_error.h"
#include "gpusched/sched/framework/profile_factory.h"

namespace gpusched {

// Every value, in order. The first value of the wrong form (kInvalidValue)
// or with an unknown policy (kUnknownName) is the error; then a name given
// twice, or one that a profile of `config` already serves, is a kConflict.
RunResult<std::vector<ExtraProfile>> ParseSchedulerNames(const std::vector<std::string>& values,
                                                         const KubeSchedulerConfiguration& config);

// "unknown <what> \"name\" (known: first-fit, best-fit, ...)", with "did you
// mean best-fit? " when a name is near (UnknownNameText), for a policy name
// given as the policy setting or inside another setting's value.
SettingText UnknownPolicyText(const SettingText& what, std::string_view name);

}  // namespace gpusched

#endif  // GPUSCHED_RUN_SCHEDULER_NAMES_H_

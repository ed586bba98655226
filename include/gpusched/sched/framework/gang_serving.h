// Which scheduler enforces which gangs (sched/framework/gang_batch.h), read off the
// KubeSchedulerConfiguration, the feature gates and the extra profiles of
// other schedulers (profile_factory.h).
#ifndef GPUSCHED_SCHED_GANG_SERVING_H_
#define GPUSCHED_SCHED_GANG_SERVING_H_

#include <optional>
#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/util/status.h"

namespace gpusched {

// The feature gates that decide gangs (run/feature_gates.h reads them).
struct ScheduleFeatureGates {
  bool gang_scheduling = false;   // alpha in v1.35, off by default
  bool generic_workload = false;  // alpha in v1.35, off by default
};

// The first profile whose permit plugins include GangScheduling while its
// gate is off — kube-scheduler would not start — or nullopt.
// The profiles are resolved against `registry`'s plugins.
std::optional<std::string> GangSchedulingWithoutGate(const KubeSchedulerConfiguration& config,
                                                     const ScheduleFeatureGates& gates,
                                                     const PluginRegistry& registry = PluginRegistry::InTree());

// Each profile whose permit plugins include GangScheduling (which needs the
// GangScheduling gate: a usage error naming the profile otherwise, see
// GangSchedulingWithoutGate) or Coscheduling, and each extra profile named
// "volcano" or "kai-scheduler".
Result<GangServing> BuildGangServing(const KubeSchedulerConfiguration& config, const std::vector<ExtraProfile>& extra,
                                     const ScheduleFeatureGates& gates,
                                     const PluginRegistry& registry = PluginRegistry::InTree());

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_GANG_SERVING_H_

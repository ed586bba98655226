// Which scheduler enforces which gangs (sched/gang_batch.h), read off the
// KubeSchedulerConfiguration, the feature gates and --scheduler-name.
#ifndef GPUSCHED_SCHED_GANG_SERVING_H_
#define GPUSCHED_SCHED_GANG_SERVING_H_

#include <string>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/util/status.h"

namespace gpusched {

// The feature gates `schedule` reads ("GangScheduling=true,GenericWorkload=true").
struct ScheduleFeatureGates {
  bool gang_scheduling = false;   // alpha in v1.35, off by default
  bool generic_workload = false;  // alpha in v1.35, off by default
};
// Errors (Usage) name the entry and the gates gpusched reads.
Result<ScheduleFeatureGates> ParseScheduleFeatureGates(const std::string& flag);

// Each profile whose permit plugins include GangScheduling (which needs the
// GangScheduling gate: a usage error otherwise) or Coscheduling, and each
// extra profile named "volcano" or "kai-scheduler".
Result<GangServing> BuildGangServing(const KubeSchedulerConfiguration& config, const std::vector<ExtraProfile>& extra,
                                     const ScheduleFeatureGates& gates);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_GANG_SERVING_H_

// The kube-scheduler feature gates a run reads, in kube-scheduler's own syntax
// ("GangScheduling=true,SchedulerQueueingHints=false"), each defaulting as in
// v1.35 (pkg/features/kube_features.go). A command reads only the gates that
// change what it does: schedule and explain the gang and DRA gates, simulate
// the queue's too (SchedulerPopFromBackoffQ, SchedulerQueueingHints); any
// other entry is refused, never ignored (DRAExtendedResource among them:
// gpusched does not model extended resources served by DRA yet).
#ifndef GPUSCHED_RUN_FEATURE_GATES_H_
#define GPUSCHED_RUN_FEATURE_GATES_H_

#include <string_view>

#include "gpusched/config/dra_features.h"
#include "gpusched/run/run_error.h"
#include "gpusched/run/setting.h"
#include "gpusched/sched/framework/gang_serving.h"

namespace gpusched {

struct FeatureGates {
  ScheduleFeatureGates gang;        // GangScheduling, GenericWorkload: alpha in v1.35, off
  bool pop_from_backoff_q = true;   // SchedulerPopFromBackoffQ: beta, on since v1.33
  bool queueing_hints = true;       // SchedulerQueueingHints: on since v1.32
  DraFeatures dra;                  // DRAAdminAccess ... DRAPrioritizedList (config/dra_features.h)
};

// Empty entries are skipped; a later entry for a gate wins. Errors
// (kUnknownName, kInvalidValue) quote the entry and list the gates the
// command reads.
RunResult<FeatureGates> ParseFeatureGates(std::string_view text, Command command);

// The gates `command` reads with their defaults: "GangScheduling=false,
// GenericWorkload=false" for schedule; empty for serve.
SettingText GateDefaults(Command command);

}  // namespace gpusched

#endif  // GPUSCHED_RUN_FEATURE_GATES_H_

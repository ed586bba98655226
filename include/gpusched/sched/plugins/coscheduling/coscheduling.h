// scheduler-plugins' Coscheduling (pkg/coscheduling): what of it is a plugin
// here, its args. Its Permit (wait for the PodGroup's minMember, then bind
// all) is the framework's gang serving (sched/framework/gang_serving.h) and
// the simulator's (sim/gang_permit.h), shared with GangScheduling, Volcano
// and KAI.
#ifndef GPUSCHED_SCHED_PLUGINS_COSCHEDULING_COSCHEDULING_H_
#define GPUSCHED_SCHED_PLUGINS_COSCHEDULING_COSCHEDULING_H_

#include <string>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/scheduler_config.h"

namespace gpusched {

// profiles[].pluginConfig[].args of Coscheduling into
// profile.coscheduling_args: decoded, defaulted (its SetDefaults_CoschedulingArgs,
// apis/config/v1/defaults.go) and checked as ValidateCoschedulingArgs
// (apis/config/validation/validation_pluginargs.go) checks them when the
// plugin is created.
void DecodeCoschedulingArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                            SchedulerProfile& profile);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_COSCHEDULING_COSCHEDULING_H_

#include "gpusched/sched/framework/gang_serving.h"

#include <algorithm>
#include <sstream>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {

Result<ScheduleFeatureGates> ParseScheduleFeatureGates(const std::string& flag) {
  ScheduleFeatureGates g;
  std::stringstream in(flag);
  for (std::string entry; std::getline(in, entry, ',');) {
    if (entry.empty()) continue;
    const size_t eq = entry.find('=');
    const std::string name = entry.substr(0, eq), value = eq == std::string::npos ? "" : entry.substr(eq + 1);
    bool* gate = name == "GangScheduling" ? &g.gang_scheduling : name == "GenericWorkload" ? &g.generic_workload : nullptr;
    if (!gate || (value != "true" && value != "false"))
      return Status::Usage("error: unsupported --feature-gates entry \"" + entry +
                           "\" (schedule reads GangScheduling=true|false and GenericWorkload=true|false)");
    *gate = value == "true";
  }
  return g;
}

Result<GangServing> BuildGangServing(const KubeSchedulerConfiguration& config, const std::vector<ExtraProfile>& extra,
                                     const ScheduleFeatureGates& gates) {
  GangServing s;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    const ResolvedProfile rp = ResolveProfile(config, i);
    auto has = [&](const char* name) { return std::find(rp.permit.begin(), rp.permit.end(), name) != rp.permit.end(); };
    if (has(names::kGangScheduling)) {
      // pkg/features/kube_features.go (v1.35): GangScheduling is alpha, off.
      if (!gates.gang_scheduling)
        return Status::Usage("error: profile \"" + rp.scheduler_name +
                             "\" enables GangScheduling, alpha in v1.35 and off by default: add --feature-gates "
                             "GangScheduling=true");
      s[rp.scheduler_name] = GangEnforcement{{GangApi::kWorkloadV1alpha1, GangApi::kPodGroupV1alpha2},
                                             names::kGangScheduling, kWorkloadGangTimeoutSeconds};
    } else if (has(names::kCoscheduling)) {
      const CoschedulingArgs& a = rp.coscheduling_args;
      s[rp.scheduler_name] =
          GangEnforcement{{GangApi::kCoscheduling}, names::kCoscheduling, static_cast<double>(a.permit_waiting_time_seconds),
                          a.pod_group_reject_percentage / 100.0};
    }
  }
  for (const ExtraProfile& e : extra) {
    if (e.scheduler_name == "volcano") s[e.scheduler_name] = GangEnforcement{{GangApi::kVolcano}, "Volcano", 0};
    if (e.scheduler_name == "kai-scheduler") s[e.scheduler_name] = GangEnforcement{{GangApi::kKai}, "KAI", 0};
  }
  return s;
}

}  // namespace gpusched

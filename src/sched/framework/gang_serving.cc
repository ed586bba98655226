#include "gpusched/sched/framework/gang_serving.h"

#include <algorithm>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {

std::optional<std::string> GangSchedulingWithoutGate(const KubeSchedulerConfiguration& config,
                                                     const ScheduleFeatureGates& gates,
                                                     const PluginRegistry& registry) {
  if (gates.gang_scheduling) return std::nullopt;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    const ResolvedProfile rp = ResolveProfile(config, i, registry.Catalog());
    // pkg/features/kube_features.go (v1.35): GangScheduling is alpha, off.
    if (std::find(rp.permit.begin(), rp.permit.end(), names::kGangScheduling) != rp.permit.end())
      return rp.scheduler_name;
  }
  return std::nullopt;
}

Result<GangServing> BuildGangServing(const KubeSchedulerConfiguration& config, const std::vector<ExtraProfile>& extra,
                                     const ScheduleFeatureGates& gates, const PluginRegistry& registry) {
  if (std::optional<std::string> profile = GangSchedulingWithoutGate(config, gates, registry))
    return Status::Usage("error: profile \"" + *profile +
                         "\" enables GangScheduling, alpha in v1.35 and off by default: turn on its feature gate, "
                         "GangScheduling");
  GangServing s;
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    const ResolvedProfile rp = ResolveProfile(config, i, registry.Catalog());
    auto has = [&](const char* name) { return std::find(rp.permit.begin(), rp.permit.end(), name) != rp.permit.end(); };
    if (has(names::kGangScheduling)) {
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

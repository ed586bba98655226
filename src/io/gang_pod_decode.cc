#include "gang_pod_decode.h"

#include "gpusched/model/eviction.h"

namespace gpusched {

void DecodeGangPodFields(DecodeContext& ctx, const DocNode& spec, const std::string& path, PodSpecExtras& extras) {
  if (auto grace = ctx.Int(spec, "terminationGracePeriodSeconds", path + ".terminationGracePeriodSeconds")) {
    int64_t g = *grace;
    if (g < 0) {
      ctx.Warn(spec["terminationGracePeriodSeconds"],
               path + ".terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated "
                      "as 1");
      g = 1;
    }
    if (g != kDefaultTerminationGracePeriodSeconds) extras.termination_grace_period_seconds = g;
  }
  const DocNode ref = ctx.Map(spec, "workloadRef", path + ".workloadRef");
  if (ref.IsDefined()) {
    WorkloadReference w;
    w.name = ctx.Str(ref, "name", path + ".workloadRef.name");
    w.pod_group = ctx.Str(ref, "podGroup", path + ".workloadRef.podGroup");
    w.pod_group_replica_key = ctx.Str(ref, "podGroupReplicaKey", path + ".workloadRef.podGroupReplicaKey");
    extras.workload_ref = std::move(w);
  }
  const DocNode group = ctx.Map(spec, "schedulingGroup", path + ".schedulingGroup");
  if (group.IsDefined()) extras.scheduling_group = ctx.Str(group, "podGroupName", path + ".schedulingGroup.podGroupName");
}

}  // namespace gpusched

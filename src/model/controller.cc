#include "gpusched/model/controller.h"

namespace gpusched {

std::string_view KindName(ControllerKind kind) {
  switch (kind) {
    case ControllerKind::kDeployment: return "Deployment";
    case ControllerKind::kReplicaSet: return "ReplicaSet";
    case ControllerKind::kStatefulSet: return "StatefulSet";
    case ControllerKind::kJob: return "Job";
    case ControllerKind::kDaemonSet: return "DaemonSet";
    case ControllerKind::kCronJob: return "CronJob";
  }
  return "";
}

std::string_view ResourceName(ControllerKind kind) {
  switch (kind) {
    case ControllerKind::kDeployment: return "deployments.apps";
    case ControllerKind::kReplicaSet: return "replicasets.apps";
    case ControllerKind::kStatefulSet: return "statefulsets.apps";
    case ControllerKind::kJob: return "jobs.batch";
    case ControllerKind::kDaemonSet: return "daemonsets.apps";
    case ControllerKind::kCronJob: return "cronjobs.batch";
  }
  return "";
}

std::string_view KindGroup(ControllerKind kind) {
  return kind == ControllerKind::kJob || kind == ControllerKind::kCronJob ? "batch" : "apps";
}

std::optional<ControllerKind> ParseControllerKind(std::string_view kind) {
  for (ControllerKind k : {ControllerKind::kDeployment, ControllerKind::kReplicaSet, ControllerKind::kStatefulSet,
                           ControllerKind::kJob, ControllerKind::kDaemonSet, ControllerKind::kCronJob})
    if (KindName(k) == kind) return k;
  return std::nullopt;
}

int64_t ScaledValue(const IntOrPercent& v, int64_t total, bool round_up) {
  if (!v.percent) return v.value;
  // math.Ceil / math.Floor of value * total / 100, without floating point.
  const __int128 product = static_cast<__int128>(v.value) * total;
  __int128 q = product / 100;
  const __int128 r = product % 100;
  if (r != 0 && round_up && product > 0) ++q;
  if (r != 0 && !round_up && product < 0) --q;
  return static_cast<int64_t>(q);
}

}  // namespace gpusched

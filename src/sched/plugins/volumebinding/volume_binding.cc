// VolumeBinding's PreFilter and Filter: pkg/scheduler/framework/plugins/
// volumebinding/volume_binding.go (v1.35).
#include "gpusched/sched/plugins/volumebinding/volume_binding.h"

namespace gpusched {

std::unique_ptr<PreFilterData> VolumeBinding::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                        SchedStatus& reject) const {
  // A pod without volumes a plugin reads skips in O(1).
  if (!pod.pod->HasVolumes() || !cluster.has_objects()) return nullptr;
  auto state = std::make_unique<State>();
  state->objects = &cluster.objects().volumes;
  bool has_claims = false;
  std::string err = GetPodVolumeClaims(*pod.pod, *state->objects, state->claims, has_claims);
  if (!err.empty()) {
    reject = SchedStatus::Unresolvable(std::move(err));
    return nullptr;
  }
  if (!has_claims) return nullptr;  // Skip
  assumed_.Sync(cluster);
  assumed_.Apply(state->claims, state->claim_copies, state->pv_copies);
  if (!state->claims.unbound_immediate.empty()) {
    // The PV controller binds them; the pod waits for that.
    reject = SchedStatus::Unresolvable(kReasonUnboundImmediateClaims);
    return nullptr;
  }
  return state;
}

bool VolumeBinding::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return true;  // PreFilter skipped the pod
  const FindResult r = FindPodVolumes(s->claims, *s->objects, node);
  if (r.ok()) return true;
  if (why) {
    constexpr auto kCode = SchedStatus::Code::kUnschedulableAndUnresolvable;
    if (!r.bound_satisfied) why->Fail(kCode, kErrReasonNodeConflict);
    if (!r.unbound_satisfied) why->Fail(kCode, kErrReasonBindConflict);
    if (!r.sufficient_storage) why->Fail(kCode, kErrReasonNotEnoughSpace);
    if (!r.bound_pvs_found) why->Fail(kCode, kErrReasonPVNotExist);
  }
  return false;
}

int VolumeBinding::NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const {
  // 1: a PV's node affinity or the claims' classes exclude the node; the
  // pods running there play no part.
  return Check(pod, node, state, nullptr) ? 0 : 1;
}

std::string VolumeBinding::ExclusionPhrase(const PodInfo&, const ClusterState&, int) const {
  return "where the pod's PersistentVolumeClaims cannot be used (a bound PersistentVolume's node affinity, or "
         "no available PersistentVolume or provisioner for a WaitForFirstConsumer claim)";
}

}  // namespace gpusched

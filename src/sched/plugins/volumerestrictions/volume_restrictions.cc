// VolumeRestrictions: pkg/scheduler/framework/plugins/volumerestrictions/
// volume_restrictions.go (v1.35).
#include "gpusched/sched/plugins/volumerestrictions/volume_restrictions.h"

#include <algorithm>

namespace gpusched {
namespace {

// needsRestrictionsCheck
bool NeedsRestrictionsCheck(const PodVolume& v) {
  const std::string& k = v.source.kind;
  return v.kind == PodVolume::Kind::kInline &&
         (k == "gcePersistentDisk" || k == "awsElasticBlockStore" || k == "rbd" || k == "iscsi");
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

// References of `pod`'s persistentVolumeClaim volumes to `keys`
// (conflictingPVCRefCountForPod).
int RefsTo(const Pod& pod, const std::vector<std::string>& keys) {
  if (!pod.HasVolumes()) return 0;
  int n = 0;
  for (const PodVolume& v : pod.extras->volumes) {
    if (v.kind != PodVolume::Kind::kClaim) continue;
    const std::string key = pod.ns() + "/" + v.claim_name;
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) ++n;
  }
  return n;
}

}  // namespace

bool IsVolumeConflict(const PodVolume& v, const Pod& existing) {
  if (!existing.HasVolumes()) return false;
  const VolumeSource& s = v.source;
  for (const PodVolume& ev : existing.extras->volumes) {
    if (ev.kind != PodVolume::Kind::kInline || ev.source.kind != s.kind) continue;
    const VolumeSource& e = ev.source;
    // The same GCE disk, iSCSI target or RBD image, unless all mounts are
    // read-only; the same EBS volume always.
    if (s.kind == "gcePersistentDisk" && s.id == e.id && !(s.read_only && e.read_only)) return true;
    if (s.kind == "awsElasticBlockStore" && s.id == e.id) return true;
    if (s.kind == "iscsi" && s.id == e.id && !(s.read_only && e.read_only)) return true;
    if (s.kind == "rbd" && HaveOverlap(s.rbd_monitors, e.rbd_monitors) && s.rbd_pool == e.rbd_pool && s.id == e.id &&
        !(s.read_only && e.read_only))
      return true;
  }
  return false;
}

std::unique_ptr<PreFilterData> VolumeRestrictions::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                             SchedStatus& reject) const {
  const Pod& p = *pod.pod;
  if (!p.HasVolumes() || !cluster.has_objects()) return nullptr;  // O(1) skip
  auto state = std::make_unique<State>();
  const VolumeObjects& objects = cluster.objects().volumes;
  for (const PodVolume& v : p.extras->volumes) {
    state->needs_disk_check = state->needs_disk_check || NeedsRestrictionsCheck(v);
    // readWriteOncePodPVCsForPod: persistentVolumeClaim volumes only.
    if (v.kind != PodVolume::Kind::kClaim) continue;
    const PersistentVolumeClaim* pvc = objects.FindPvc(p.ns(), v.claim_name);
    if (pvc == nullptr) {
      reject = SchedStatus::Unresolvable("persistentvolumeclaim \"" + v.claim_name + "\" not found");
      return nullptr;
    }
    if (std::find(pvc->access_modes.begin(), pvc->access_modes.end(), "ReadWriteOncePod") == pvc->access_modes.end())
      continue;
    std::string key = p.ns() + "/" + v.claim_name;
    if (std::find(state->read_write_once_pod.begin(), state->read_write_once_pod.end(), key) ==
        state->read_write_once_pod.end())
      state->read_write_once_pod.push_back(std::move(key));
  }
  if (!state->read_write_once_pod.empty()) {
    // calPreFilterState: the claims some running pod uses (the snapshot's
    // usedPVCSet), and each node's references for the dry runs.
    std::vector<bool> used(state->read_write_once_pod.size(), false);
    for (size_t i = 0; i < cluster.size(); ++i) {
      if (!cluster.present(i)) continue;
      int refs = 0;
      for (const BoundPod& b : cluster.state(i).pods) {
        if (b.pod == nullptr || !b.pod->HasVolumes()) continue;
        for (const PodVolume& v : b.pod->extras->volumes) {
          if (v.kind != PodVolume::Kind::kClaim) continue;
          const std::string key = b.pod->ns() + "/" + v.claim_name;
          const auto& keys = state->read_write_once_pod;
          const auto at = std::find(keys.begin(), keys.end(), key);
          if (at == keys.end()) continue;
          used[static_cast<size_t>(at - keys.begin())] = true;
          ++refs;
        }
      }
      if (refs > 0) state->node_refs[cluster.node(i).name()] = refs;
    }
    state->conflicting = static_cast<int>(std::count(used.begin(), used.end(), true));
  }
  if (!state->needs_disk_check && state->conflicting == 0) return nullptr;  // Skip
  return state;
}

bool VolumeRestrictions::Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const {
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return true;
  if (s->needs_disk_check) {
    // satisfyVolumeConflicts, over the pods the node state holds.
    for (const PodVolume& v : pod.pod->extras->volumes) {
      if (!NeedsRestrictionsCheck(v)) continue;
      for (const BoundPod& b : state.pods) {
        if (b.pod == nullptr || !IsVolumeConflict(v, *b.pod)) continue;
        if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonDiskConflict);
        return false;
      }
    }
  }
  if (s->read_write_once_pod.empty()) return true;
  // satisfyReadWriteOncePod with this node's pods as the state holds them:
  // what PreFilter counted for the node off, what runs there now on
  // (AddPod/RemovePod's updateWithPod).
  int conflicting = s->conflicting;
  if (auto it = s->node_refs.find(node.name()); it != s->node_refs.end()) conflicting -= it->second;
  for (const BoundPod& b : state.pods)
    if (b.pod != nullptr) conflicting += RefsTo(*b.pod, s->read_write_once_pod);
  if (conflicting > 0) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonReadWriteOncePodConflict);
    return false;
  }
  return true;
}

}  // namespace gpusched

// VolumeZone: pkg/scheduler/framework/plugins/volumezone/volume_zone.go (v1.35).
#include "gpusched/sched/plugins/volumezone/volume_zone.h"

#include <algorithm>

namespace gpusched {
namespace {

constexpr std::string_view kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr std::string_view kZone = "topology.kubernetes.io/zone";
constexpr std::string_view kRegion = "topology.kubernetes.io/region";
// topologyLabels, in upstream's order.
constexpr std::string_view kTopologyLabels[] = {kBetaZone, kBetaRegion, kZone, kRegion};

std::string_view TranslateToGaLabel(std::string_view label) {
  if (label == kBetaRegion) return kRegion;
  if (label == kBetaZone) return kZone;
  return label;
}

// volumehelpers.LabelZonesToSet: "a__b" is {a, b}, each trimmed; an empty
// entry makes the whole label unusable (false: the label is ignored).
bool LabelZonesToSet(const std::string& value, std::vector<std::string>& out) {
  size_t start = 0;
  while (true) {
    const size_t end = value.find("__", start);
    std::string zone = value.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const size_t b = zone.find_first_not_of(" \t\n\v\f\r");
    const size_t e = zone.find_last_not_of(" \t\n\v\f\r");
    if (b == std::string::npos) {
      out.clear();
      return false;
    }
    zone = zone.substr(b, e - b + 1);
    if (std::find(out.begin(), out.end(), zone) == out.end()) out.push_back(std::move(zone));
    if (end == std::string::npos) return true;
    start = end + 2;
  }
}

}  // namespace

std::unique_ptr<PreFilterData> VolumeZone::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                     SchedStatus& reject) const {
  if (!pod.pod->HasVolumes() || !cluster.has_objects()) return nullptr;  // O(1) skip
  const VolumeObjects& objects = cluster.objects().volumes;
  auto state = std::make_unique<State>();
  // getPVbyPod: persistentVolumeClaim volumes only (not ephemeral ones).
  for (const PodVolume& vol : pod.pod->extras->volumes) {
    if (vol.kind != PodVolume::Kind::kClaim) continue;
    if (vol.claim_name.empty()) {
      reject = SchedStatus::Unresolvable("PersistentVolumeClaim had no name");
      return nullptr;
    }
    // The listers' NotFound errors, as client-go words them.
    const PersistentVolumeClaim* pvc = objects.FindPvc(pod.pod->ns(), vol.claim_name);
    if (pvc == nullptr) {
      reject = SchedStatus::Unresolvable("persistentvolumeclaim \"" + vol.claim_name + "\" not found");
      return nullptr;
    }
    if (pvc->volume_name.empty()) {
      const std::string cls = pvc->Class();
      if (cls.empty()) {
        reject = SchedStatus::Unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
        return nullptr;
      }
      const StorageClass* sc = objects.FindClass(cls);
      if (sc == nullptr) {
        reject = SchedStatus::Unresolvable("storageclass.storage.k8s.io \"" + cls + "\" not found");
        return nullptr;
      }
      // (The API server defaults volumeBindingMode, so "VolumeBindingMode
      // not set" cannot happen.)
      if (sc->WaitForFirstConsumer()) continue;  // unbound volumes are skipped
      reject = SchedStatus::Unresolvable("PersistentVolume had no name");
      return nullptr;
    }
    const PersistentVolume* pv = objects.FindPv(pvc->volume_name);
    if (pv == nullptr) {
      reject = SchedStatus::Unresolvable("persistentvolume \"" + pvc->volume_name + "\" not found");
      return nullptr;
    }
    // getPVTopologies
    for (std::string_view key : kTopologyLabels) {
      auto it = pv->meta.labels.find(key);
      if (it == pv->meta.labels.end()) continue;
      PvTopology t{pv->name(), std::string(key), {}};
      if (!LabelZonesToSet(it->second, t.values)) continue;  // unparsable: ignored
      state->topologies.push_back(std::move(t));
    }
  }
  if (state->topologies.empty()) return nullptr;  // Skip
  return state;
}

bool VolumeZone::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return true;
  // A node without any zone or region label passes (a single-zone cluster).
  bool constrained = false;
  for (std::string_view key : kTopologyLabels) constrained = constrained || node.meta.labels.count(key) > 0;
  if (!constrained) return true;
  for (const PvTopology& t : s->topologies) {
    auto it = node.meta.labels.find(t.key);
    if (it == node.meta.labels.end()) it = node.meta.labels.find(TranslateToGaLabel(t.key));
    if (it == node.meta.labels.end() || std::find(t.values.begin(), t.values.end(), it->second) == t.values.end()) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonVolumeZoneConflict);
      return false;
    }
  }
  return true;
}

std::string VolumeZone::ExclusionPhrase(const PodInfo&, const ClusterState&, int) const {
  return "outside the zone or region of a PersistentVolume the pod's claims are bound to";
}

}  // namespace gpusched

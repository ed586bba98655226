// NodeVolumeLimits: pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (v1.35).
#include "gpusched/sched/plugins/nodevolumelimits/csi.h"

namespace gpusched {
namespace {

// getCSIDriverInfoFromSC: an unbound claim counts for its class's
// provisioner, under a handle made of its namespace and name (upstream
// prefixes a random string so that it never equals a real handle).
void DriverFromClass(const PersistentVolumeClaim& pvc, const VolumeObjects& objects, std::string& driver,
                     std::string& handle) {
  const std::string cls = pvc.Class();
  if (cls.empty()) return;
  const StorageClass* sc = objects.FindClass(cls);
  if (sc == nullptr) return;
  driver = sc->provisioner;
  handle = "\x01unbound-" + pvc.ns() + "/" + pvc.name();
}

}  // namespace

std::string CSILimits::AttachableVolumes(const Pod& pod, const VolumeObjects& objects, bool new_pod,
                                         std::map<std::string, std::string>& out) {
  if (!pod.HasVolumes()) return "";
  for (const PodVolume& v : pod.extras->volumes) {
    if (!v.UsesClaim()) continue;  // inline: counted only when migrated to CSI (not modelled)
    const std::string name = v.ClaimName(pod.name());
    if (name.empty()) return "PersistentVolumeClaim had no name";
    const PersistentVolumeClaim* pvc = objects.FindPvc(pod.ns(), name);
    if (pvc == nullptr) {
      if (new_pod)
        return "looking up PVC " + pod.ns() + "/" + name + ": persistentvolumeclaim \"" + name + "\" not found";
      continue;  // no guarantee it belongs to the running pod: not counted
    }
    if (v.kind == PodVolume::Kind::kEphemeral && (!pvc->has_controller || pvc->controller_uid != pod.meta.uid))
      return "PVC " + pvc->ns() + "/" + pvc->name() + " was not created for pod " + pod.ns() + "/" + pod.name() +
             " (pod is not owner)";
    // getCSIDriverInfo
    std::string driver, handle;
    if (pvc->volume_name.empty()) {
      DriverFromClass(*pvc, objects, driver, handle);
    } else if (const PersistentVolume* pv = objects.FindPv(pvc->volume_name); pv == nullptr) {
      DriverFromClass(*pvc, objects, driver, handle);
    } else if (pv->source.kind == "csi") {
      driver = pv->source.csi_driver;
      handle = pv->source.id;
    }
    if (driver.empty() || handle.empty()) continue;
    out[driver + "/" + handle] = driver;
  }
  return "";
}

std::unique_ptr<PreFilterData> CSILimits::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                    SchedStatus& reject) const {
  if (!pod.pod->HasVolumes() || !cluster.has_objects()) return nullptr;  // O(1) skip
  bool any = false;
  for (const PodVolume& v : pod.pod->extras->volumes) any = any || v.UsesClaim();
  if (!any) return nullptr;
  auto state = std::make_unique<State>();
  state->objects = &cluster.objects().volumes;
  (void)reject;  // upstream's PreFilter never rejects
  state->error = AttachableVolumes(*pod.pod, *state->objects, true, state->new_volumes);
  // No CSI volume of its own: the predicate always holds.
  if (state->error.empty() && state->new_volumes.empty()) return nullptr;
  return state;
}

bool CSILimits::Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const {
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return true;
  if (!s->error.empty()) {
    // A claim not found is UnschedulableAndUnresolvable upstream; a claim
    // not created for the pod is the framework's Error there, which
    // gpusched reports the same way (the state outlives the attempt's
    // reasons).
    if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, s->error);
    return false;
  }
  const CSINode* csi = s->objects->FindCsiNode(node.name());
  if (csi == nullptr) return true;  // no CSINode: no limits
  // getVolumeLimits
  std::map<std::string, int32_t> limits;
  for (const CSINodeDriver& d : csi->drivers)
    if (d.allocatable_count) limits[d.name] = *d.allocatable_count;
  if (limits.empty()) return true;
  std::map<std::string, std::string> attached;
  for (const BoundPod& b : state.pods)
    if (b.pod != nullptr) AttachableVolumes(*b.pod, *s->objects, false, attached);
  std::map<std::string, std::string> new_volumes = s->new_volumes;
  std::map<std::string, int> attached_count;
  for (const auto& [unique, driver] : attached) {
    new_volumes.erase(unique);  // a volume several pods use counts once
    ++attached_count[driver];
  }
  std::map<std::string, int> new_count;
  for (const auto& [unique, driver] : new_volumes) ++new_count[driver];
  for (const auto& [driver, count] : new_count) {
    auto it = limits.find(driver);
    if (it == limits.end()) continue;
    if (attached_count[driver] + count > it->second) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonMaxVolumeCountExceeded);
      return false;
    }
  }
  return true;
}

}  // namespace gpusched

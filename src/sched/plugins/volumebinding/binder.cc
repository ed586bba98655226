// Upstream: pkg/scheduler/framework/plugins/volumebinding/binder.go
// (GetPodVolumeClaims, FindPodVolumes, checkBoundClaims, findMatchingVolumes,
// checkVolumeProvisions), volume_binding.go (podHasPVCs) and
// k8s.io/component-helpers/storage/volume/pv_helpers.go (FindMatchingVolume,
// IsDelayBindingMode), v1.35.
#include "gpusched/sched/plugins/volumebinding/binder.h"

#include <algorithm>

namespace gpusched {

std::string GetPodVolumeClaims(const Pod& pod, const VolumeObjects& objects, PodVolumeClaims& out, bool& has_claims) {
  has_claims = false;
  if (!pod.HasVolumes()) return "";
  for (const PodVolume& vol : pod.extras->volumes) {
    if (!vol.UsesClaim()) continue;
    has_claims = true;
    const std::string name = vol.ClaimName(pod.name());
    const PersistentVolumeClaim* pvc = objects.FindPvc(pod.ns(), name);
    if (pvc == nullptr) {
      // The lister's NotFound, or for a generic ephemeral volume (normal
      // right after the pod is created) what podHasPVCs says instead.
      if (vol.kind == PodVolume::Kind::kEphemeral)
        return "waiting for ephemeral volume controller to create the persistentvolumeclaim \"" + name + "\"";
      return "persistentvolumeclaim \"" + name + "\" not found";
    }
    if (pvc->phase == "Lost")
      return "persistentvolumeclaim \"" + pvc->name() + "\" bound to non-existent persistentvolume \"" +
             pvc->volume_name + "\"";
    if (pvc->deleting) return "persistentvolumeclaim \"" + pvc->name() + "\" is being deleted";
    // ephemeral.VolumeIsForPod: the pod must be the claim's controller.
    if (vol.kind == PodVolume::Kind::kEphemeral && (!pvc->has_controller || pvc->controller_uid != pod.meta.uid))
      return "PVC " + pvc->ns() + "/" + pvc->name() + " was not created for pod " + pod.ns() + "/" + pod.name() +
             " (pod is not owner)";
    if (pvc->FullyBound()) {
      out.bound.push_back(pvc);
      continue;
    }
    // volume.IsDelayBindingMode: a class that exists and waits for the
    // first consumer; a claim without class or with a missing one is
    // immediate. Prebound claims (volumeName set) count as immediate.
    const std::string cls = pvc->Class();
    const StorageClass* sc = cls.empty() ? nullptr : objects.FindClass(cls);
    if (sc != nullptr && sc->WaitForFirstConsumer() && pvc->volume_name.empty()) {
      out.unbound_delay_binding.push_back(pvc);
    } else {
      out.unbound_immediate.push_back(pvc);
    }
  }
  // byPVCSize (findMatchingVolumes sorts the claims it matches; the claims
  // with a selected node keep their relative order, so sorting all of them
  // once gives the same sequence). Stable where sort.Sort is not: equal
  // sizes keep the pod's order.
  std::stable_sort(out.unbound_delay_binding.begin(), out.unbound_delay_binding.end(),
                   [](const PersistentVolumeClaim* a, const PersistentVolumeClaim* b) {
                     return a->request.value_or(Quantity()) < b->request.value_or(Quantity());
                   });
  for (const PersistentVolumeClaim* pvc : out.unbound_delay_binding)
    out.delay_binding_pvs.push_back(objects.PvsOfClass(pvc->Class()));
  return "";
}

std::string ExplainUnboundImmediateClaim(const Pod& pod, const VolumeObjects& objects) {
  PodVolumeClaims claims;
  bool has_claims = false;
  if (!GetPodVolumeClaims(pod, objects, claims, has_claims).empty() || claims.unbound_immediate.empty()) return "";
  const PersistentVolumeClaim& pvc = *claims.unbound_immediate.front();
  const std::string claim = "claim " + pvc.ns() + "/" + pvc.name();
  // The PV controller binds an Immediate claim on its own, before any pod
  // is scheduled; kube-scheduler waits for it (IsDelayBindingMode).
  if (!pvc.volume_name.empty())
    return claim + " names PersistentVolume " + pvc.volume_name +
           ", which it is not bound to yet (the PV controller binds it; is the PV in the input?)";
  const std::string cls = pvc.Class();
  if (cls.empty())
    return claim + " has no StorageClass and none is marked default, so it waits for the PV controller to bind it "
                   "to a PersistentVolume: create one that matches it, or give the claim a class";
  if (objects.FindClass(cls) == nullptr)
    return claim + " asks for StorageClass " + cls +
           ", which is not in the input: kube-scheduler then waits for the claim to be bound before placing the "
           "pod; add storageclasses to `kubectl get`, or create the class";
  return claim + " has StorageClass " + cls +
         " (volumeBindingMode Immediate): its volume is bound or provisioned before the pod is placed, and it is "
         "not yet";
}

const PersistentVolume* FindMatchingVolume(const PersistentVolumeClaim& claim,
                                           const std::vector<const PersistentVolume*>& pvs, const Node& node,
                                           const std::vector<const PersistentVolume*>& excluded) {
  const PersistentVolume* smallest = nullptr;
  const Quantity requested = claim.request.value_or(Quantity());
  const std::string requested_class = claim.Class();
  for (const PersistentVolume* pv : pvs) {
    if (std::find(excluded.begin(), excluded.end(), pv) != excluded.end()) continue;
    if (pv->has_claim_ref && !IsVolumeBoundToClaim(*pv, claim)) continue;
    const Quantity capacity = pv->capacity.value_or(Quantity());
    if (capacity < requested) continue;
    if (pv->volume_mode != claim.volume_mode) continue;  // CheckVolumeModeMismatches
    // VolumeAttributesClass is GA (on) in v1.35: the names must agree.
    if (pv->volume_attributes_class != claim.volume_attributes_class) continue;
    if (pv->deleting) continue;
    const bool affinity_ok = PvNodeAffinityMatches(*pv, node.meta.labels);
    if (IsVolumeBoundToClaim(*pv, claim)) return affinity_ok ? pv : nullptr;  // prebound to this claim
    if (pv->phase != "Available") continue;
    if (claim.selector && !SelectorMatches(*claim.selector, pv->meta.labels)) continue;
    if (pv->storage_class != requested_class) continue;
    if (!affinity_ok) continue;
    if (!CheckAccessModes(claim, *pv)) continue;
    if (smallest == nullptr || capacity < smallest->capacity.value_or(Quantity())) smallest = pv;
  }
  return smallest;
}

FindResult FindPodVolumes(const PodVolumeClaims& claims, const VolumeObjects& objects, const Node& node,
                          PodVolumes* volumes) {
  FindResult r;
  // checkBoundClaims: the first claim whose PV is missing or does not
  // accept the node decides.
  for (const PersistentVolumeClaim* pvc : claims.bound) {
    const PersistentVolume* pv = objects.FindPv(pvc->volume_name);
    if (pv == nullptr) {
      r.bound_pvs_found = false;
      break;
    }
    // tryTranslatePVToCSI is not modelled: an in-tree PV keeps its own
    // node affinity.
    if (!PvNodeAffinityMatches(*pv, node.meta.labels)) {
      r.bound_satisfied = false;
      break;
    }
  }
  if (claims.unbound_delay_binding.empty()) return r;
  // Claims with a selected node are provisioned there (fast path: any other
  // node fails); the rest look for an available PV first.
  std::vector<const PersistentVolumeClaim*> to_provision;
  std::vector<size_t> to_match;
  for (size_t k = 0; k < claims.unbound_delay_binding.size(); ++k) {
    const PersistentVolumeClaim* claim = claims.unbound_delay_binding[k];
    if (const std::string* selected = claim->SelectedNode()) {
      if (*selected != node.name()) {
        r.unbound_satisfied = false;
        return r;
      }
      to_provision.push_back(claim);
    } else {
      to_match.push_back(k);
    }
  }
  if (!to_match.empty()) {
    // findMatchingVolumes: each claim takes the smallest PV that fits, and
    // that PV is not chosen again for the pod's other claims.
    std::vector<const PersistentVolume*> chosen;
    bool found_all = true;
    for (size_t k : to_match) {
      const PersistentVolumeClaim* claim = claims.unbound_delay_binding[k];
      const PersistentVolume* pv = FindMatchingVolume(*claim, claims.delay_binding_pvs[k], node, chosen);
      if (pv == nullptr) {
        to_provision.push_back(claim);
        found_all = false;
        continue;
      }
      chosen.push_back(pv);
      if (volumes) volumes->static_bindings.emplace_back(pv, claim);
    }
    r.unbound_satisfied = found_all;
  }
  if (!to_provision.empty()) {
    // checkVolumeProvisions: every remaining claim's class must provision
    // dynamically, on a node its allowedTopologies admit. Storage capacity
    // (CSIStorageCapacity of CSIDrivers with storageCapacity: true) is not
    // read: as upstream without such objects, capacity always suffices.
    r.unbound_satisfied = true;
    for (const PersistentVolumeClaim* claim : to_provision) {
      const StorageClass* sc = objects.FindClass(claim->Class());
      // Delayed claims have a class that exists (GetPodVolumeClaims).
      if (sc == nullptr || sc->provisioner.empty() || sc->provisioner == kNotSupportedProvisioner ||
          !MatchTopologySelectorTerms(sc->allowed_topologies, node.meta.labels)) {
        r.unbound_satisfied = false;
        break;
      }
    }
    if (volumes && r.unbound_satisfied) volumes->dynamic_provisions = to_provision;
  }
  return r;
}

}  // namespace gpusched

#include "gpusched/model/volume_objects.h"

#include <algorithm>

#include "gpusched/model/volume_claims_warning.h"

namespace gpusched {
namespace {

template <typename T>
bool AddTo(std::vector<T>& list, std::unordered_map<std::string, size_t>& index, std::string key, T object) {
  if (!index.emplace(std::move(key), list.size()).second) return false;
  list.push_back(std::move(object));
  return true;
}

template <typename T>
const T* FindIn(const std::vector<T>& list, const std::unordered_map<std::string, size_t>& index,
                const std::string& key) {
  auto it = index.find(key);
  return it == index.end() ? nullptr : &list[it->second];
}

}  // namespace

std::string PersistentVolumeClaim::Class() const {
  // component-helpers/storage/volume GetPersistentVolumeClaimClass: the
  // beta annotation wins over the field.
  if (auto it = meta.annotations.find(kAnnBetaStorageClass); it != meta.annotations.end()) return it->second;
  return storage_class_name.value_or("");
}

bool StorageClass::IsDefault() const {
  for (const char* a : {kAnnDefaultStorageClass, kAnnBetaDefaultStorageClass})
    if (auto it = meta.annotations.find(a); it != meta.annotations.end() && it->second == "true") return true;
  return false;
}

const StorageClass* VolumeObjects::DefaultClass() const {
  const StorageClass* best = nullptr;
  for (const StorageClass& sc : classes_) {
    if (!sc.IsDefault()) continue;
    // Newest first (RFC 3339 UTC timestamps of one format compare as
    // strings; a class without one is the oldest), then the name.
    if (best == nullptr || sc.creation_timestamp > best->creation_timestamp ||
        (sc.creation_timestamp == best->creation_timestamp && sc.name() < best->name()))
      best = &sc;
  }
  return best;
}

void VolumeObjects::AssignDefaultClass() {
  const StorageClass* def = DefaultClass();
  if (def == nullptr) return;
  for (PersistentVolumeClaim& pvc : pvcs_)
    if (!pvc.storage_class_name && !pvc.meta.annotations.count(kAnnBetaStorageClass) && pvc.volume_name.empty())
      pvc.storage_class_name = def->name();
}

bool VolumeObjects::Add(PersistentVolume pv) {
  std::string key = pv.name();
  return AddTo(pvs_, pv_index_, std::move(key), std::move(pv));
}
bool VolumeObjects::Add(PersistentVolumeClaim pvc) {
  std::string key = pvc.ns() + "/" + pvc.name();
  return AddTo(pvcs_, pvc_index_, std::move(key), std::move(pvc));
}
bool VolumeObjects::Add(StorageClass sc) {
  std::string key = sc.name();
  return AddTo(classes_, class_index_, std::move(key), std::move(sc));
}
bool VolumeObjects::Add(CSINode csi_node) {
  std::string key = csi_node.name();
  return AddTo(csi_nodes_, csi_node_index_, std::move(key), std::move(csi_node));
}

void VolumeObjects::Merge(VolumeObjects&& other) {
  for (PersistentVolume& v : other.pvs_) Add(std::move(v));
  for (PersistentVolumeClaim& c : other.pvcs_) Add(std::move(c));
  for (StorageClass& s : other.classes_) Add(std::move(s));
  for (CSINode& n : other.csi_nodes_) Add(std::move(n));
  other = VolumeObjects();
}

const PersistentVolume* VolumeObjects::FindPv(std::string_view name) const {
  return FindIn(pvs_, pv_index_, std::string(name));
}
const PersistentVolumeClaim* VolumeObjects::FindPvc(std::string_view ns, std::string_view name) const {
  std::string key;
  key.reserve(ns.size() + name.size() + 1);
  key.append(ns).append("/").append(name);
  return FindIn(pvcs_, pvc_index_, key);
}
const StorageClass* VolumeObjects::FindClass(std::string_view name) const {
  return FindIn(classes_, class_index_, std::string(name));
}
const CSINode* VolumeObjects::FindCsiNode(std::string_view name) const {
  return FindIn(csi_nodes_, csi_node_index_, std::string(name));
}

std::vector<const PersistentVolume*> VolumeObjects::PvsOfClass(std::string_view storage_class) const {
  std::vector<const PersistentVolume*> out;
  for (const PersistentVolume& pv : pvs_)
    if (pv.storage_class == storage_class) out.push_back(&pv);
  return out;
}

void VolumeObjects::CompleteHandWritten() {
  // syncClaim -> syncBoundClaim / bind for a claim that names its volume:
  // the controller sets the PV's claimRef and the claim's bind-completed
  // annotation, and both become Bound.
  for (PersistentVolumeClaim& pvc : pvcs_) {
    if (pvc.has_status || pvc.volume_name.empty() || pvc.FullyBound()) continue;
    auto it = pv_index_.find(pvc.volume_name);
    if (it == pv_index_.end()) continue;
    PersistentVolume& pv = pvs_[it->second];
    if (pv.has_claim_ref && !IsVolumeBoundToClaim(pv, pvc)) continue;
    pv.has_claim_ref = true;
    pv.claim_namespace = pvc.ns();
    pv.claim_name = pvc.name();
    pv.claim_uid = pvc.meta.uid;
    pv.phase = "Bound";
    pv.has_status = true;
    pvc.meta.annotations[kAnnBindCompleted] = "yes";
    pvc.phase = "Bound";
    pvc.has_status = true;
  }
  // syncVolume: a volume no claim holds is Available.
  for (PersistentVolume& pv : pvs_) {
    if (pv.has_status || pv.has_claim_ref) continue;
    pv.phase = "Available";
    pv.has_status = true;
  }
}

std::string ClaimsWithoutObjectsWarning(const std::vector<const Pod*>& pods, const VolumeObjects& objects) {
  if (!objects.pvcs().empty()) return "";
  size_t with_claims = 0;
  const Pod* first = nullptr;
  for (const Pod* p : pods) {
    if (!p->HasVolumes()) continue;
    for (const PodVolume& vol : p->extras->volumes) {
      if (!vol.UsesClaim()) continue;
      if (with_claims++ == 0) first = p;
      break;
    }
  }
  if (with_claims == 0) return "";
  // Every such pod stays pending as kube-scheduler keeps it.
  return std::to_string(with_claims) + (with_claims == 1 ? " pod" : " pods") + " (the first " + first->ns() + "/" +
         first->name() +
         ") mount PersistentVolumeClaims, but the input holds none: kube-scheduler keeps such pods pending "
         "(\"persistentvolumeclaim ... not found\"); add pv,pvc,storageclasses,csinodes to `kubectl get`";
}

bool PvNodeAffinityMatches(const PersistentVolume& pv, const LabelMap& node_labels) {
  if (!pv.has_node_affinity) return true;
  static const std::string kNoName;
  return MatchesAnyNodeSelectorTerm(pv.node_affinity, node_labels, kNoName);
}

bool MatchTopologySelectorTerms(const std::vector<TopologySelectorTerm>& terms, const LabelMap& labels) {
  if (terms.empty()) return true;  // an empty term list matches all objects
  for (const TopologySelectorTerm& t : terms) {
    if (t.match_label_expressions.empty()) continue;  // a nil or empty term selects no objects
    bool all = true;
    for (const auto& [key, values] : t.match_label_expressions) {
      auto it = labels.find(key);
      // labels.NewRequirement refuses In without values: the term is skipped.
      if (values.empty() || it == labels.end() || std::find(values.begin(), values.end(), it->second) == values.end()) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

bool IsVolumeBoundToClaim(const PersistentVolume& pv, const PersistentVolumeClaim& claim) {
  if (!pv.has_claim_ref) return false;
  if (claim.name() != pv.claim_name || claim.ns() != pv.claim_namespace) return false;
  return pv.claim_uid.empty() || claim.meta.uid == pv.claim_uid;
}

bool CheckAccessModes(const PersistentVolumeClaim& claim, const PersistentVolume& pv) {
  for (const std::string& mode : claim.access_modes)
    if (std::find(pv.access_modes.begin(), pv.access_modes.end(), mode) == pv.access_modes.end()) return false;
  return true;
}

}  // namespace gpusched

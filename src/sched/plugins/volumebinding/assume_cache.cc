#include "gpusched/sched/plugins/volumebinding/assume_cache.h"

namespace gpusched {
namespace {

bool HasDelayBinding(const VolumeObjects& objects) {
  for (const StorageClass& sc : objects.classes())
    if (sc.WaitForFirstConsumer()) return true;
  return false;
}

}  // namespace

void AssumeCache::Reset(const ClusterState& cluster) {
  pv_claim_.clear();
  selected_.clear();
  done_.clear();
  serial_ = cluster.serial();
  synced_ = true;
}

void AssumeCache::Sync(const ClusterState& cluster) {
  if (!HasDelayBinding(cluster.objects().volumes)) return;
  const ChangeLog& log = cluster.change_log();
  if (!synced_ || serial_ != cluster.serial()) Reset(cluster);
  if (pos_ == 0 || !log.Holds(pos_)) {
    // First sync, or too far behind: every node, in index order (the pods
    // already replayed are skipped).
    for (size_t i = 0; i < cluster.size(); ++i) ScanNode(cluster, i);
  } else {
    for (uint64_t p = pos_; p < log.end(); ++p) ScanNode(cluster, log[p]);
  }
  pos_ = log.end();
}

void AssumeCache::ScanNode(const ClusterState& cluster, size_t i) {
  if (i >= cluster.size() || !cluster.present(i)) return;
  for (const BoundPod& b : cluster.state(i).pods)
    if (b.pod != nullptr && b.pod->HasVolumes() && done_.insert(b.bind_seq).second)
      Assume(*b.pod, cluster.node(i), cluster.objects().volumes);
}

void AssumeCache::Assume(const Pod& pod, const Node& node, const VolumeObjects& objects) {
  PodVolumeClaims claims;
  bool has_claims = false;
  if (!GetPodVolumeClaims(pod, objects, claims, has_claims).empty() || claims.unbound_delay_binding.empty()) return;
  std::deque<PersistentVolumeClaim> claim_copies;
  std::deque<PersistentVolume> pv_copies;
  Apply(claims, claim_copies, pv_copies);
  PodVolumes volumes;
  // A pod bound where its volumes do not fit (given in the input so) assumes nothing.
  if (!FindPodVolumes(claims, objects, node, &volumes).ok()) return;
  // The originals, by name (the bindings may point at copies).
  for (const auto& [pv, claim] : volumes.static_bindings)
    if (const PersistentVolume* p = objects.FindPv(pv->name()))
      if (const PersistentVolumeClaim* c = objects.FindPvc(claim->ns(), claim->name())) pv_claim_[p] = c;
  for (const PersistentVolumeClaim* claim : volumes.dynamic_provisions)
    if (const PersistentVolumeClaim* c = objects.FindPvc(claim->ns(), claim->name())) selected_[c] = node.name();
}

void AssumeCache::Apply(PodVolumeClaims& claims, std::deque<PersistentVolumeClaim>& claim_copies,
                        std::deque<PersistentVolume>& pv_copies) const {
  if (pv_claim_.empty() && selected_.empty()) return;
  for (const PersistentVolumeClaim*& c : claims.unbound_delay_binding) {
    auto it = selected_.find(c);
    if (it == selected_.end()) continue;
    claim_copies.push_back(*c);
    claim_copies.back().meta.annotations[kAnnSelectedNode] = it->second;
    c = &claim_copies.back();
  }
  for (std::vector<const PersistentVolume*>& pvs : claims.delay_binding_pvs) {
    for (const PersistentVolume*& pv : pvs) {
      auto it = pv_claim_.find(pv);
      if (it == pv_claim_.end()) continue;
      pv_copies.push_back(*pv);
      PersistentVolume& copy = pv_copies.back();
      copy.has_claim_ref = true;
      copy.claim_namespace = it->second->ns();
      copy.claim_name = it->second->name();
      copy.claim_uid = it->second->meta.uid;
      pv = &copy;
    }
  }
}

}  // namespace gpusched

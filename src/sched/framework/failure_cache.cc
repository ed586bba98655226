#include "gpusched/sched/framework/failure_cache.h"

namespace gpusched {

void FailureCache::Sync(const ClusterState& cluster) {
  // A failure stands while the cluster is unchanged since it was met.
  if (serial_ != cluster.serial() || version_ != cluster.version()) {
    if (!failures_.empty()) failures_.clear();
    serial_ = cluster.serial();
    version_ = cluster.version();
  }
}

const std::shared_ptr<const Failure>* FailureCache::Find(const PodInfo& pod, size_t hash) const {
  auto [lo, hi] = failures_.equal_range(hash);
  for (auto it = lo; it != hi; ++it)
    if (it->second.key.Matches(pod)) return &it->second.failure;
  return nullptr;
}

std::shared_ptr<const Failure> FailureCache::Keep(const PodInfo& pod, size_t hash,
                                                  std::shared_ptr<const Failure> failure) {
  // Bounded: on a full cluster every pending pod of a new class adds one.
  if (failures_.size() >= kMaxFailures) failures_.clear();
  failures_.emplace(hash, Kept{PodClassKey(pod), failure});
  return failure;
}

}  // namespace gpusched

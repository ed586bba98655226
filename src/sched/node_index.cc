#include "gpusched/sched/node_index.h"

#include <algorithm>

namespace gpusched {
namespace {

constexpr int64_t kNoNeed = std::numeric_limits<int64_t>::min();

bool Meets(const NodeFitIndex::Need& have, const NodeFitIndex::Need& need) {
  for (size_t d = 0; d < have.size(); ++d)
    if (have[d] < need[d]) return false;
  return true;
}

}  // namespace

NodeFitIndex::Need NodeFitIndex::NeedOf(const PodInfo& pod, bool gpu_checked) {
  // Mirrors fitsRequest: a resource is checked only when requested (> 0);
  // an unrequested one must not prune, since a node may be overcommitted
  // (free < 0) by pods bound through spec.nodeName.
  const Resources& r = pod.requests;
  Need n;
  n.fill(kNoNeed);
  const int64_t gpus = r.Scalar(kResourceGPU);
  if (gpu_checked && gpus > 0) n[kGpus] = gpus;
  if (pod.gpu.from_annotations && pod.gpu.any()) n[kDeviceMilli] = pod.gpu.milli;
  if (r.milli_cpu > 0) n[kCpu] = r.milli_cpu;
  if (r.memory > 0) n[kMemory] = r.memory;
  if (r.ephemeral_storage > 0) n[kEphemeral] = r.ephemeral_storage;
  n[kPodSlots] = 1;  // "Too many pods" is always checked
  return n;
}

NodeFitIndex::Need NodeFitIndex::FreeOf(const NodeState& s) {
  Need v;
  if (!s.present) {
    v.fill(kNoNeed);
    return v;
  }
  v[kGpus] = SatSub(s.GpuAllocatable(), s.GpuRequested());
  int32_t best = -1;
  for (int32_t f : s.gpu_free_milli) best = std::max(best, f);
  v[kDeviceMilli] = best;
  v[kCpu] = SatSub(s.allocatable.milli_cpu, s.requested.milli_cpu);
  v[kMemory] = SatSub(s.allocatable.memory, s.requested.memory);
  v[kEphemeral] = SatSub(s.allocatable.ephemeral_storage, s.requested.ephemeral_storage);
  v[kPodSlots] = SatSub(s.allocatable.allowed_pods, s.num_pods);
  return v;
}

void NodeFitIndex::Set(size_t i, const Need& v) {
  size_t p = leaves_ + i;
  max_[p] = v;
  for (p /= 2; p >= 1; p /= 2) {
    for (size_t d = 0; d < kDims; ++d) max_[p][d] = std::max(max_[2 * p][d], max_[2 * p + 1][d]);
  }
}

void NodeFitIndex::Sync(const ClusterState& cluster) {
  const auto& log = cluster.change_log();
  if (cluster_ != &cluster || cluster.size() != n_ || log.size() < log_pos_) {
    cluster_ = &cluster;
    n_ = cluster.size();
    leaves_ = 1;
    while (leaves_ < n_) leaves_ *= 2;
    Need none;
    none.fill(kNoNeed);
    max_.assign(2 * leaves_, none);
    for (size_t i = 0; i < n_; ++i) max_[leaves_ + i] = FreeOf(cluster.state(i));
    for (size_t p = leaves_ - 1; p >= 1; --p)
      for (size_t d = 0; d < kDims; ++d) max_[p][d] = std::max(max_[2 * p][d], max_[2 * p + 1][d]);
    log_pos_ = log.size();
    return;
  }
  // Catch up; a node that changed several times is recomputed once per entry,
  // which is cheap (O(log n)) and keeps this simple.
  for (; log_pos_ < log.size(); ++log_pos_) Set(log[log_pos_], FreeOf(cluster.state(log[log_pos_])));
}

size_t NodeFitIndex::FindIn(size_t node, size_t lo, size_t hi, size_t from, size_t to, const Need& need) const {
  if (hi <= from || lo >= to || !Meets(max_[node], need)) return kNone;
  if (hi - lo == 1) return lo;
  size_t mid = lo + (hi - lo) / 2;
  size_t r = FindIn(2 * node, lo, mid, from, to, need);
  return r != kNone ? r : FindIn(2 * node + 1, mid, hi, from, to, need);
}

size_t NodeFitIndex::FindFirst(size_t from, size_t to, const Need& need) const {
  if (from >= to || n_ == 0) return kNone;
  return FindIn(1, 0, leaves_, from, std::min(to, n_), need);
}

}  // namespace gpusched

#include "gpusched/sched/index/node_index.h"

#include <algorithm>

namespace gpusched {
namespace {

constexpr int64_t kNoNeed = std::numeric_limits<int64_t>::min();

}  // namespace

NodeFitIndex::Need NodeFitIndex::NeedOf(const PodInfo& pod, bool gpu_checked) {
  // Mirrors fitsRequest: a resource is checked only when requested (> 0);
  // an unrequested one must not prune, since a node may be overcommitted
  // (free < 0) by pods bound through spec.nodeName.
  const Resources& r = pod.requests;
  Need n;
  n.fill(kNoNeed);
  const int64_t gpus = pod.whole_gpus;
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
  // Up to the first ancestor whose maximum does not change: above it
  // nothing can (most binds take from a node that is not its range's max).
  for (p /= 2; p >= 1; p /= 2) {
    const Need& a = max_[2 * p];
    const Need& b = max_[2 * p + 1];
    Need& m = max_[p];
    static_assert(kDims == 6);
    const Need next = {std::max(a[0], b[0]), std::max(a[1], b[1]), std::max(a[2], b[2]),
                       std::max(a[3], b[3]), std::max(a[4], b[4]), std::max(a[5], b[5])};
    if (((next[0] ^ m[0]) | (next[1] ^ m[1]) | (next[2] ^ m[2]) | (next[3] ^ m[3]) | (next[4] ^ m[4]) |
         (next[5] ^ m[5])) == 0)
      break;
    m = next;
  }
}

void NodeFitIndex::Sync(const ClusterState& cluster) {
  const ChangeLog& log = cluster.change_log();
  // Another cluster, new nodes, or so far behind that the log no longer
  // holds the changes since: rebuilt from the nodes.
  if (serial_ != cluster.serial() || cluster.size() != n_ || !log.Holds(log_pos_)) {
    serial_ = cluster.serial();
    n_ = cluster.size();
    leaves_ = 1;
    while (leaves_ < n_) leaves_ *= 2;
    Need none;
    none.fill(kNoNeed);
    max_.assign(2 * leaves_, none);
    for (size_t i = 0; i < n_; ++i) max_[leaves_ + i] = FreeOf(cluster.state(i));
    for (size_t p = leaves_ - 1; p >= 1; --p)
      for (size_t d = 0; d < kDims; ++d) max_[p][d] = std::max(max_[2 * p][d], max_[2 * p + 1][d]);
    log_pos_ = log.end();
    return;
  }
  // Catch up; a node that changed several times is recomputed once per entry,
  // which is cheap (O(log n)) and keeps this simple.
  for (; log_pos_ < log.end(); ++log_pos_) Set(log[log_pos_], FreeOf(cluster.state(log[log_pos_])));
}

size_t NodeFitIndex::FindFirst(size_t from, size_t to, const Need& need) const {
  to = std::min(to, n_);
  if (from >= to) return kNone;
  // Bottom-up from the leaf `from`: a scan that takes node after node pays
  // O(1) per node where they fit, and O(log distance) to jump a gap.
  size_t p = leaves_ + from;
  if (Meets(max_[p], need)) return from;
  for (;;) {
    // Up to the nearest subtree to the right whose maximum meets `need`
    // (padding leaves never do: every need asks for a pod slot).
    for (;;) {
      while (p & 1) {
        p >>= 1;
        if (p == 0) return kNone;  // climbed past the root
      }
      ++p;
      if (Meets(max_[p], need)) break;
    }
    // Down to its first leaf that meets; a maximum taken over several
    // nodes may promise what no single one has, and the climb goes on.
    while (p < leaves_) {
      p *= 2;
      if (!Meets(max_[p], need) && !Meets(max_[++p], need)) break;
    }
    if (p >= leaves_ && Meets(max_[p], need)) {
      const size_t i = p - leaves_;
      return i < to ? i : kNone;
    }
  }
}

}  // namespace gpusched

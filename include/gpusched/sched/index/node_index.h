// NodeFitIndex: a segment tree over the nodes, in node order, holding per
// range the most free of each resource NodeResourcesFit and GpuShare check
// (whole GPUs, the largest free device share, cpu, memory, ephemeral
// storage, pod slots). It answers "the first node at or after i that might
// fit this pod" in O(log distance), so a scan can jump over nodes that
// certainly fail the resource filters. It only prunes: a node it returns
// still runs the filters — unless the scheduler can prove their verdict
// from the leaf, which holds the node's exact free amounts (Free) — so
// decisions are exactly those of the plain scan (tests/sched/
// node_index_test.cc checks both on random clusters). It follows
// ClusterState::change_log(), catching up on each use.
#ifndef GPUSCHED_SCHED_INDEX_NODE_INDEX_H_
#define GPUSCHED_SCHED_INDEX_NODE_INDEX_H_

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

class NodeFitIndex {
 public:
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();
  enum Dim { kGpus, kDeviceMilli, kCpu, kMemory, kEphemeral, kPodSlots, kDims };
  using Need = std::array<int64_t, kDims>;  // INT64_MIN = no constraint

  // What a node must have free to possibly pass NodeResourcesFit (with
  // nvidia.com/gpu checked when `gpu_checked`) and GpuShare.
  static Need NeedOf(const PodInfo& pod, bool gpu_checked);

  // Brings the tree up to date with `cluster` (rebuilt when the node count
  // changed or the log no longer holds the changes since last time,
  // otherwise only the nodes in the change log since then).
  void Sync(const ClusterState& cluster);
  // The first node in [from, to) whose free resources meet `need`, or kNone.
  size_t FindFirst(size_t from, size_t to, const Need& need) const;
  // Node i's free amounts (as FreeOf gave them at the last Sync).
  const Need& Free(size_t i) const { return max_[leaves_ + i]; }
  // True when `have` meets `need` in every dimension.
  // Branch-free: scans call it on every node they pass.
  static bool Meets(const Need& have, const Need& need) {
    static_assert(kDims == 6);
    return (have[0] >= need[0]) & (have[1] >= need[1]) & (have[2] >= need[2]) & (have[3] >= need[3]) &
           (have[4] >= need[4]) & (have[5] >= need[5]);
  }

  // A node's free amounts; absent nodes get INT64_MIN everywhere.
  static Need FreeOf(const NodeState& s);

 private:
  void Set(size_t i, const Need& v);

  uint64_t serial_ = 0;  // ClusterState::serial() of the cluster followed
  uint64_t log_pos_ = 0;  // change log position (a version) the tree is current up to
  size_t n_ = 0;
  size_t leaves_ = 0;      // power of two >= n_
  std::vector<Need> max_;  // 1-based heap layout, 2 * leaves_
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_INDEX_NODE_INDEX_H_

// FreeOrderIndex: the nodes ordered by (free GPUs, free cpu, node index) —
// best-fit's order of preference — or by (most free GPUs, most free cpu,
// node index) for worst-fit, kept in step with ClusterState::change_log().
//
// It is a treap (a binary search tree balanced by a per-node hash) in which
// every subtree also holds, per resource, the most that any of its nodes has
// free (NodeFitIndex's dimensions: whole GPUs, the largest free device
// share, cpu, memory, ephemeral storage, pod slots). Find walks the order
// and skips every subtree whose maximum falls short of the pod's need, so a
// GPU share is not tried on thousands of nodes whose devices are all taken:
// the answer costs O(log n) per node actually tried, not per node passed.
// It only prunes: a node it offers still runs every filter, and the first
// that passes is exactly the first feasible node in that order.
#ifndef GPUSCHED_SCHED_FREE_ORDER_INDEX_H_
#define GPUSCHED_SCHED_FREE_ORDER_INDEX_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/node_index.h"

namespace gpusched {

class FreeOrderIndex {
 public:
  // `most`: worst-fit's order (descending free, ties still by ascending index).
  explicit FreeOrderIndex(bool most = false) : most_(most) {}

  // The first node in the order whose free resources meet `need`
  // (NodeFitIndex::NeedOf) and for which `fits` holds, or nullopt.
  std::optional<size_t> Find(const ClusterState& cluster, const NodeFitIndex::Need& need,
                             const std::function<bool(size_t)>& fits);

  // The nodes in the order (for tests).
  std::vector<size_t> Order(const ClusterState& cluster);

 private:
  using Need = NodeFitIndex::Need;
  // Subtree maxima coarsened to int32 by a monotone map (memory and storage
  // in MiB, the rest clamped): a maximum only prunes, and v >= n implies
  // Coarsen(v) >= Coarsen(n), so no node that meets a need is pruned; and
  // an item fits in one cache line.
  using Coarse = std::array<int32_t, NodeFitIndex::kDims>;
  struct alignas(64) Item {
    int64_t gpus = 0, cpu = 0;  // the sort key (bitwise-negated when most_)
    int32_t left = -1, right = -1;
    uint32_t prio = 0;
    Coarse max{};  // over the subtree
  };
  static Coarse Coarsen(const Need& v);

  void Sync(const ClusterState& cluster);
  bool Less(int32_t a, int32_t b) const;
  void Pull(int32_t t);
  int32_t Insert(int32_t t, int32_t x);
  void Split(int32_t t, int32_t x, int32_t& l, int32_t& r);
  int32_t Merge(int32_t a, int32_t b);
  int32_t Erase(int32_t t, int32_t x, bool& changed);
  int32_t FindIn(int32_t t, const Need& need, const Coarse& coarse_need,
                 const std::function<bool(size_t)>& fits) const;

  bool most_;
  uint64_t serial_ = 0;  // ClusterState::serial() of the cluster followed
  size_t log_pos_ = 0;
  // By node index: the tree items, each node's exact free amounts and
  // their coarse form, and whether it is in the tree (present).
  std::vector<Item> items_;
  std::vector<Need> own_;
  std::vector<Coarse> own_coarse_;
  std::vector<uint8_t> in_tree_;
  int32_t root_ = -1;
  std::vector<uint64_t> seen_;  // Sync's batch stamp per node: each changed node is re-keyed once
  uint64_t batch_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FREE_ORDER_INDEX_H_

// FreeOrderIndex: the nodes ordered by (free GPUs, free cpu, node index) —
// best-fit's order of preference — or by (most free GPUs, most free cpu,
// node index) for worst-fit, kept in step with ClusterState::change_log().
//
// The order is a list of sorted blocks (a two-level B-tree): each block
// holds up to `block_size` keys in a contiguous array, and an upper bound,
// per resource, of the most that any of its nodes has free (NodeFitIndex's
// dimensions: whole GPUs, the largest free device share, cpu, memory,
// ephemeral storage, pod slots). Re-keying a node on a bind or unbind is
// two binary searches and a short memmove, with no pointer chasing and few
// unpredictable branches — which is what a balanced tree costs per level.
// Find starts at the first key that can meet the pod's GPU and cpu need
// and skips every block whose bound falls short of it, so a GPU share is
// not tried on thousands of nodes whose devices are all taken. An erase
// leaves its block's bound as it was (still an upper bound); a block that
// Find reads through without a hit gets its exact bound back.
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
  // `block_size`: keys per block before it splits (small in tests, so that
  // splits and merges happen on small clusters).
  explicit FreeOrderIndex(bool most = false, size_t block_size = 128);

  // The first node in the order whose free resources meet `need`
  // (NodeFitIndex::NeedOf) and for which `fits` holds, or nullopt.
  std::optional<size_t> Find(const ClusterState& cluster, const NodeFitIndex::Need& need,
                             const std::function<bool(size_t)>& fits);

  // The nodes in the order (for tests).
  std::vector<size_t> Order(const ClusterState& cluster);

 private:
  using Need = NodeFitIndex::Need;
  // Upper bounds coarsened to int32 by a monotone map (memory and storage
  // in MiB, the rest clamped): a bound only prunes, and v >= n implies
  // Coarsen(v) >= Coarsen(n), so no node that meets a need is pruned.
  using Coarse = std::array<int32_t, NodeFitIndex::kDims>;
  // A node's place in the order: free GPUs, free cpu (both bitwise-negated
  // when most_), node index.
  struct Key {
    int64_t gpus = 0, cpu = 0;
    int64_t node = 0;
    bool operator<(const Key& o) const {
      if (gpus != o.gpus) return gpus < o.gpus;
      if (cpu != o.cpu) return cpu < o.cpu;
      return node < o.node;
    }
  };
  struct Block {
    std::vector<Key> keys;  // sorted
    Coarse bound{};         // >= every dimension of every node in `keys`
  };
  static Coarse Coarsen(const Need& v);

  void Sync(const ClusterState& cluster);
  Key KeyOf(size_t node) const;
  // The block where `k` is or belongs: the first whose last key is not below it.
  size_t BlockFor(const Key& k) const;
  void Insert(const Key& k);
  void Erase(const Key& k);
  void Rebound(Block& b) const;

  bool most_;
  size_t block_size_;
  uint64_t serial_ = 0;  // ClusterState::serial() of the cluster followed
  size_t log_pos_ = 0;
  std::vector<Block> blocks_;  // in order, none empty
  std::vector<Key> last_;      // blocks_[b].keys.back(), contiguous for BlockFor's search
  // By node index: its exact free amounts and their coarse form, and
  // whether it is in the order (present).
  std::vector<Need> own_;
  std::vector<Coarse> own_coarse_;
  std::vector<uint8_t> in_order_;
  std::vector<uint64_t> seen_;  // Sync's batch stamp per node: each changed node is re-keyed once
  uint64_t batch_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FREE_ORDER_INDEX_H_

// FreeOrderIndex: the nodes ordered by (free GPUs, free cpu, node index) —
// best-fit's order of preference — or by (most free GPUs, most free cpu,
// node index) for worst-fit, kept in step with ClusterState::change_log()
// (rebuilt from the nodes when it fell behind what the log holds).
//
// Nodes are bucketed by their exact number of free GPUs (a handful of
// buckets on a real cluster: 0..8 on 8-GPU nodes), and by whether any of
// their devices has a share free: a GPU-share pod never looks at the
// thousands of nodes whose devices are all taken. Each bucket holds its
// nodes ordered by (free cpu, index) as a list of sorted blocks (a
// two-level B-tree) of 16-byte entries; the two buckets of one GPU count
// are merged when a pod could use either. Each block also keeps an upper
// bound, per resource, of the most any of its nodes has free (NodeFitIndex's
// dimensions: whole GPUs, the largest free device share, cpu, memory,
// ephemeral storage, pod slots), so Find skips blocks that cannot meet a
// pod. Find starts, in each bucket with enough GPUs, at the first entry
// with enough cpu.
//
// A node that changes is not searched for and erased: its new entry is
// appended to the block it belongs in (one search of the bucket's block
// maxima; the block is put back in order when it is next read or its
// unsorted tail fills), and the old one turns stale (the node's version
// moved on). Find drops the stale entries it passes — best-fit takes nodes
// from the front of a bucket, which is where the entries of the nodes it
// took go stale — a block that fills up drops its own, and all go at once
// when they outnumber the live ones, so memory stays within twice the node
// count. Entries also carry the node's largest free device share, so a
// GPU-share pod passes full devices without loading the node's record.
// A block's bound stays an upper bound through all of this, and is made
// exact again whenever Find reads the block through without a hit.
//
// It only prunes: a node it offers still has to pass `fits`, and the first
// that does is exactly the first feasible node in that order.
#ifndef GPUSCHED_SCHED_INDEX_FREE_ORDER_INDEX_H_
#define GPUSCHED_SCHED_INDEX_FREE_ORDER_INDEX_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/index/node_index.h"

namespace gpusched {

class FreeOrderIndex {
 public:
  // `most`: worst-fit's order (descending free, ties still by ascending index).
  // `block_size`: entries per block before it fills up (small in tests, so
  // that purges, splits and rebuilds happen on small clusters).
  explicit FreeOrderIndex(bool most = false, size_t block_size = 128);

  // The first node in the order whose exact free resources (as of this
  // call) meet `need` (NodeFitIndex::NeedOf) and for which `fits` holds, or
  // nullopt. `fits` is asked only of nodes whose free resources meet `need`.
  std::optional<size_t> Find(const ClusterState& cluster, const NodeFitIndex::Need& need,
                             const std::function<bool(size_t)>& fits);

  // The nodes in the order (for tests).
  std::vector<size_t> Order(const ClusterState& cluster);
  // Entries held, live and stale, and buckets (for tests: both stay bounded).
  size_t entries() const { return entries_; }
  size_t buckets() const { return buckets_.size(); }

 private:
  using Need = NodeFitIndex::Need;
  // Upper bounds coarsened to int32 by a monotone map (memory and storage
  // in MiB, the rest clamped): a bound only prunes, and v >= n implies
  // Coarsen(v) >= Coarsen(n), so no node that meets a need is pruned.
  using Coarse = std::array<int32_t, NodeFitIndex::kDims>;
  // A node's place within its bucket. `cpu` is free cpu mapped to an
  // unsigned value in the bucket's order (reversed for most_). `tag` holds
  // the low kVersionBits of the node's version when the entry went in (the
  // entry is live while they still match) over its largest free device
  // share plus one, clamped to kDeviceBits: a GPU-share pod passes the
  // nodes whose devices are too full without loading their records.
  struct Entry {  // no initializers: a scratch array of them costs nothing
    uint64_t cpu;
    uint32_t node;
    uint32_t tag;
  };
  static constexpr uint32_t kDeviceBits = 11;
  static constexpr uint32_t kDeviceMax = (1u << kDeviceBits) - 1;  // "this much or more"
  static constexpr uint32_t kVersionBits = 32 - kDeviceBits;
  static constexpr uint32_t kVersionMask = (1u << kVersionBits) - 1;
  // A stale entry's version must not come round to its node's again: every
  // stale entry is gone after this many insertions (a rebuild at the latest).
  static constexpr uint64_t kInsertsPerRebuild = uint64_t{1} << (kVersionBits - 1);
  // Entries [0, sorted) are in order; those after it were appended since
  // (at most kTail of them) and are merged in when the block is read. Most
  // nodes go into buckets no pod searches often (the thousands with no GPU
  // free): an insert there is an append, and a few are merged at once.
  struct Block {
    std::vector<Entry> entries;  // sorted by (cpu, node) up to `sorted`
    Coarse bound{};              // >= every dimension of every node in `entries`
    uint32_t sorted = 0;
  };
  static constexpr size_t kTail = 32;
  struct Bucket {
    int64_t gpus = 0;           // free GPUs of every node in it
    bool share = false;         // every node in it has some device share free
    std::vector<Block> blocks;  // in order, none empty
    std::vector<Entry> last;    // the greatest of blocks[b].entries, contiguous for the searches
  };
  // What the index knows of a node, in one cache line: Find reads `own`
  // and `version` of every node it passes, and Sync loads the records of
  // all the nodes changed since its last call ahead of reading them.
  struct alignas(64) NodeRec {
    Need own{};           // exact free amounts
    uint64_t seen = 0;    // Sync's batch stamp: each changed node is re-keyed once
    uint32_t version = 0;
    bool in_order = false;
  };

  static Coarse Coarsen(const Need& v);
  static bool Before(const Entry& a, const Entry& b) {
    return (a.cpu < b.cpu) | ((a.cpu == b.cpu) & (a.node < b.node));
  }
  // Before as a type, so that searches inline it.
  struct Less {
    bool operator()(const Entry& a, const Entry& b) const { return Before(a, b); }
  };
  uint64_t MapCpu(int64_t cpu) const;
  static uint32_t Tag(uint32_t version, int64_t device_milli) {
    const int64_t code = std::clamp<int64_t>(device_milli + 1, 0, kDeviceMax);
    return (version & kVersionMask) << kDeviceBits | static_cast<uint32_t>(code);
  }
  static uint32_t DeviceCode(const Entry& e) { return e.tag & kDeviceMax; }
  // `e` is `r`'s live entry (the version bits match).
  static bool Matches(const NodeRec& r, const Entry& e) { return (r.version & kVersionMask) == e.tag >> kDeviceBits; }
  bool Live(const Entry& e) const { return Matches(nodes_[e.node], e); }

  void Sync(const ClusterState& cluster);
  // Node i's entry brought up to date with its state now, once per Sync.
  void Rekey(const ClusterState& cluster, uint32_t i);
  // The bucket of nodes with `gpus` free and `share` as given, made when missing.
  Bucket& BucketFor(int64_t gpus, bool share);
  // The first bucket with at least `gpus` free (buckets_.size() if none).
  size_t FirstBucketFrom(int64_t gpus) const;
  // The first live entry in `bucket`, from `start` and before `stop`, of a
  // node that meets `need` and `fits`; stale entries passed are dropped.
  std::optional<Entry> FindIn(Bucket& bucket, const Entry* start, const Entry& stop, const NodeFitIndex::Need& need,
                              const Coarse& coarse_need, const std::function<bool(size_t)>& fits);
  void Insert(uint32_t node);
  // A block that outgrew block_size_: drops its stale entries and splits
  // when it is still more than three quarters full.
  void Overflow(Bucket& bucket, size_t b);
  // Every bucket rewritten with only live entries, blocks half full.
  void Rebuild();
  void Rebound(Block& b) const;
  // Merges the block's appended entries into its order.
  static void Settle(Block& b);

  bool most_;
  size_t block_size_;
  uint64_t serial_ = 0;  // ClusterState::serial() of the cluster followed
  uint64_t log_pos_ = 0;  // change log position (a version) the order is current up to
  uint64_t batch_ = 0;
  std::vector<Bucket> buckets_;  // ascending (free GPUs, share)
  std::vector<int64_t> bucket_gpus_;  // buckets_[k].gpus, contiguous for the searches
  std::vector<NodeRec> nodes_;   // by node index
  size_t entries_ = 0;           // in all blocks, live and stale
  size_t live_ = 0;              // nodes in the order
  uint64_t inserts_ = 0;         // since the last rebuild
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_INDEX_FREE_ORDER_INDEX_H_

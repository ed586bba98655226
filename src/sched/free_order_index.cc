#include "gpusched/sched/free_order_index.h"

#include <algorithm>
#include <limits>

namespace gpusched {
namespace {

int32_t Clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

// NodeFitIndex::Meets and a running maximum, for the coarse int32 bounds.
bool AllAtLeast(const std::array<int32_t, NodeFitIndex::kDims>& have,
                const std::array<int32_t, NodeFitIndex::kDims>& need) {
  bool ok = true;
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) ok &= have[d] >= need[d];
  return ok;
}

void MaxInto(std::array<int32_t, NodeFitIndex::kDims>& into, const std::array<int32_t, NodeFitIndex::kDims>& v) {
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) into[d] = std::max(into[d], v[d]);
}

}  // namespace

FreeOrderIndex::FreeOrderIndex(bool most, size_t block_size) : most_(most), block_size_(std::max<size_t>(block_size, 2)) {}

FreeOrderIndex::Coarse FreeOrderIndex::Coarsen(const Need& v) {
  Coarse c;
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) {
    // >> on a negative value floors (C++20), so the map stays monotone.
    const bool bytes = d == NodeFitIndex::kMemory || d == NodeFitIndex::kEphemeral;
    c[d] = Clamp32(bytes ? v[d] >> 20 : v[d]);
  }
  return c;
}

FreeOrderIndex::Key FreeOrderIndex::KeyOf(size_t node) const {
  // Free GPUs and cpu exactly as best-fit's FreeAfter sees them before the
  // pod's request is taken off (which shifts every node alike); ~v reverses
  // the order without overflow.
  const Need& own = own_[node];
  Key k{own[NodeFitIndex::kGpus], own[NodeFitIndex::kCpu], static_cast<int64_t>(node)};
  if (most_) {
    k.gpus = ~k.gpus;
    k.cpu = ~k.cpu;
  }
  return k;
}

size_t FreeOrderIndex::BlockFor(const Key& k) const {
  return static_cast<size_t>(std::lower_bound(last_.begin(), last_.end(), k) - last_.begin());
}

void FreeOrderIndex::Rebound(Block& b) const {
  b.bound.fill(std::numeric_limits<int32_t>::min());
  for (const Key& k : b.keys) MaxInto(b.bound, own_coarse_[static_cast<size_t>(k.node)]);
}

void FreeOrderIndex::Insert(const Key& k) {
  const Coarse& own = own_coarse_[static_cast<size_t>(k.node)];
  if (blocks_.empty()) {
    blocks_.push_back(Block{{k}, own});
    last_.push_back(k);
    return;
  }
  const size_t b = std::min(BlockFor(k), blocks_.size() - 1);
  Block& blk = blocks_[b];
  blk.keys.insert(std::lower_bound(blk.keys.begin(), blk.keys.end(), k), k);
  MaxInto(blk.bound, own);
  last_[b] = blk.keys.back();
  if (blk.keys.size() <= block_size_) return;
  // Full: the upper half becomes a block of its own.
  Block upper;
  const auto mid = blk.keys.begin() + static_cast<ptrdiff_t>(blk.keys.size() / 2);
  upper.keys.assign(mid, blk.keys.end());
  blk.keys.erase(mid, blk.keys.end());
  Rebound(blk);
  Rebound(upper);
  last_[b] = blk.keys.back();
  last_.insert(last_.begin() + static_cast<ptrdiff_t>(b) + 1, upper.keys.back());
  blocks_.insert(blocks_.begin() + static_cast<ptrdiff_t>(b) + 1, std::move(upper));
}

void FreeOrderIndex::Erase(const Key& k) {
  const size_t b = BlockFor(k);
  if (b == blocks_.size()) return;
  Block& blk = blocks_[b];
  const auto it = std::lower_bound(blk.keys.begin(), blk.keys.end(), k);
  if (it == blk.keys.end() || it->node != k.node) return;
  blk.keys.erase(it);
  if (blk.keys.empty()) {
    blocks_.erase(blocks_.begin() + static_cast<ptrdiff_t>(b));
    last_.erase(last_.begin() + static_cast<ptrdiff_t>(b));
    return;
  }
  last_[b] = blk.keys.back();
  // The bound stays as it was: still an upper bound. A block shrunk to a
  // quarter joins a neighbour when the two fit in one.
  if (blk.keys.size() >= block_size_ / 4) return;
  size_t into = b, from = b + 1;
  if (from == blocks_.size() || blocks_[from].keys.size() + blk.keys.size() > block_size_) {
    if (b == 0 || blocks_[b - 1].keys.size() + blk.keys.size() > block_size_) return;
    into = b - 1;
    from = b;
  }
  Block& a = blocks_[into];
  Block& c = blocks_[from];
  a.keys.insert(a.keys.end(), c.keys.begin(), c.keys.end());
  MaxInto(a.bound, c.bound);
  last_[into] = a.keys.back();
  blocks_.erase(blocks_.begin() + static_cast<ptrdiff_t>(from));
  last_.erase(last_.begin() + static_cast<ptrdiff_t>(from));
}

void FreeOrderIndex::Sync(const ClusterState& cluster) {
  const auto& log = cluster.change_log();
  if (serial_ != cluster.serial() || log.size() < log_pos_) {
    serial_ = cluster.serial();
    blocks_.clear();
    last_.clear();
    own_.clear();
    own_coarse_.clear();
    in_order_.clear();
    seen_.clear();
    log_pos_ = 0;
  }
  if (own_.size() < cluster.size()) {
    own_.resize(cluster.size());
    own_coarse_.resize(cluster.size());
    in_order_.resize(cluster.size(), 0);
    seen_.resize(cluster.size(), 0);
  }
  // Each node changed since the last call is re-keyed once, from its state now.
  ++batch_;
  for (; log_pos_ < log.size(); ++log_pos_) {
    const size_t i = log[log_pos_];
    if (seen_[i] == batch_) continue;
    seen_[i] = batch_;
    const bool present = cluster.present(i);
    const Need own = present ? NodeFitIndex::FreeOf(cluster.state(i)) : Need{};
    if (in_order_[i]) {
      if (present && own == own_[i]) continue;  // nothing the index holds changed
      Erase(KeyOf(i));
    }
    in_order_[i] = present;
    if (!present) continue;
    own_[i] = own;
    own_coarse_[i] = Coarsen(own);
    Insert(KeyOf(i));
  }
}

std::optional<size_t> FreeOrderIndex::Find(const ClusterState& cluster, const NodeFitIndex::Need& need,
                                           const std::function<bool(size_t)>& fits) {
  Sync(cluster);
  const Coarse coarse_need = Coarsen(need);
  size_t b = 0, pos = 0;
  if (!most_) {
    // Every key before (needed GPUs, needed cpu) has fewer GPUs free, or as
    // many and less cpu: none of those nodes can meet the need.
    const Key start{need[NodeFitIndex::kGpus], need[NodeFitIndex::kCpu], -1};
    b = BlockFor(start);
    if (b == blocks_.size()) return std::nullopt;
    const auto& keys = blocks_[b].keys;
    pos = static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), start) - keys.begin());
  }
  for (; b < blocks_.size(); ++b, pos = 0) {
    Block& blk = blocks_[b];
    if (!AllAtLeast(blk.bound, coarse_need)) continue;
    // A block read from its start without a hit gets its exact bound back.
    Coarse seen;
    seen.fill(std::numeric_limits<int32_t>::min());
    for (size_t k = pos; k < blk.keys.size(); ++k) {
      const size_t node = static_cast<size_t>(blk.keys[k].node);
      if (pos == 0) MaxInto(seen, own_coarse_[node]);
      if (NodeFitIndex::Meets(own_[node], need) && fits(node)) return node;
    }
    if (pos == 0) blk.bound = seen;
  }
  return std::nullopt;
}

std::vector<size_t> FreeOrderIndex::Order(const ClusterState& cluster) {
  Sync(cluster);
  std::vector<size_t> out;
  for (const Block& blk : blocks_)
    for (const Key& k : blk.keys) out.push_back(static_cast<size_t>(k.node));
  return out;
}

}  // namespace gpusched

#include "gpusched/sched/free_order_index.h"

#include <algorithm>
#include <limits>

namespace gpusched {
namespace {

// A fixed hash of the node index as treap priority: the shape is the same
// on every run (not that any answer depends on it).
uint32_t Priority(size_t i) {
  uint64_t z = static_cast<uint64_t>(i) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
}

int32_t Clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

template <typename A>
bool AllAtLeast(const A& have, const A& need) {
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d)
    if (have[d] < need[d]) return false;
  return true;
}

template <typename A>
void MaxInto(A& into, const A& v) {
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) into[d] = std::max(into[d], v[d]);
}

// MaxInto that writes only when something grows: the items on an insert's
// path mostly keep their maxima, and a line read is cheaper than one dirtied.
void GrowInto(std::array<int32_t, NodeFitIndex::kDims>& into, const std::array<int32_t, NodeFitIndex::kDims>& v) {
  bool grows = false;
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) grows |= v[d] > into[d];
  if (grows) MaxInto(into, v);
}

}  // namespace

FreeOrderIndex::Coarse FreeOrderIndex::Coarsen(const Need& v) {
  Coarse c;
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) {
    // >> on a negative value floors (C++20), so the map stays monotone.
    const bool bytes = d == NodeFitIndex::kMemory || d == NodeFitIndex::kEphemeral;
    c[d] = Clamp32(bytes ? v[d] >> 20 : v[d]);
  }
  return c;
}

bool FreeOrderIndex::Less(int32_t a, int32_t b) const {
  const Item& x = items_[static_cast<size_t>(a)];
  const Item& y = items_[static_cast<size_t>(b)];
  if (x.gpus != y.gpus) return x.gpus < y.gpus;
  if (x.cpu != y.cpu) return x.cpu < y.cpu;
  return a < b;
}

void FreeOrderIndex::Pull(int32_t t) {
  Item& it = items_[static_cast<size_t>(t)];
  it.max = own_coarse_[static_cast<size_t>(t)];
  if (it.left >= 0) MaxInto(it.max, items_[static_cast<size_t>(it.left)].max);
  if (it.right >= 0) MaxInto(it.max, items_[static_cast<size_t>(it.right)].max);
}

// Splits subtree `t` into the keys before `x` and those after it.
void FreeOrderIndex::Split(int32_t t, int32_t x, int32_t& l, int32_t& r) {
  if (t < 0) {
    l = r = -1;
    return;
  }
  Item& it = items_[static_cast<size_t>(t)];
  if (Less(t, x)) {
    Split(it.right, x, it.right, r);
    l = t;
  } else {
    Split(it.left, x, l, it.left);
    r = t;
  }
  Pull(t);
}

int32_t FreeOrderIndex::Insert(int32_t t, int32_t x) {
  Item& nx = items_[static_cast<size_t>(x)];
  if (t < 0) {
    nx.left = nx.right = -1;
    nx.max = own_coarse_[static_cast<size_t>(x)];
    return x;
  }
  Item& it = items_[static_cast<size_t>(t)];
  if (nx.prio > it.prio) {
    Split(t, x, nx.left, nx.right);
    Pull(x);
    return x;
  }
  // Above x's place only maxima grow, by x's own amounts: no child to read.
  GrowInto(it.max, own_coarse_[static_cast<size_t>(x)]);
  if (Less(x, t)) {
    it.left = Insert(it.left, x);
  } else {
    it.right = Insert(it.right, x);
  }
  return t;
}

// Joins two subtrees, every key of `a` before every key of `b`.
int32_t FreeOrderIndex::Merge(int32_t a, int32_t b) {
  if (a < 0) return b;
  if (b < 0) return a;
  Item& x = items_[static_cast<size_t>(a)];
  Item& y = items_[static_cast<size_t>(b)];
  if (x.prio > y.prio) {
    x.right = Merge(x.right, b);
    Pull(a);
    return a;
  }
  y.left = Merge(a, y.left);
  Pull(b);
  return b;
}

// Removes `x`, found by the key it was inserted with. `changed`: the
// subtree's maxima may have changed (once a level's stay the same, no
// ancestor's can change, so the rest of the way up reads no child).
int32_t FreeOrderIndex::Erase(int32_t t, int32_t x, bool& changed) {
  Item& it = items_[static_cast<size_t>(t)];
  if (t == x) {
    changed = true;
    return Merge(it.left, it.right);
  }
  if (Less(x, t)) {
    it.left = Erase(it.left, x, changed);
  } else {
    it.right = Erase(it.right, x, changed);
  }
  if (changed) {
    const Coarse before = it.max;
    Pull(t);
    changed = it.max != before;
  }
  return t;
}

void FreeOrderIndex::Sync(const ClusterState& cluster) {
  const auto& log = cluster.change_log();
  if (serial_ != cluster.serial() || log.size() < log_pos_) {
    serial_ = cluster.serial();
    items_.clear();
    own_.clear();
    own_coarse_.clear();
    in_tree_.clear();
    seen_.clear();
    root_ = -1;
    log_pos_ = 0;
  }
  if (items_.size() < cluster.size()) {
    const size_t old = items_.size();
    items_.resize(cluster.size());
    own_.resize(cluster.size());
    own_coarse_.resize(cluster.size());
    in_tree_.resize(cluster.size(), 0);
    seen_.resize(cluster.size(), 0);
    for (size_t i = old; i < items_.size(); ++i) items_[i].prio = Priority(i);
  }
  // Each node changed since the last call is re-keyed once, from its state now.
  ++batch_;
  for (; log_pos_ < log.size(); ++log_pos_) {
    const size_t i = log[log_pos_];
    if (seen_[i] == batch_) continue;
    seen_[i] = batch_;
    const int32_t x = static_cast<int32_t>(i);
    Item& it = items_[i];
    const bool present = cluster.present(i);
    const Need own = present ? NodeFitIndex::FreeOf(cluster.state(i)) : Need{};
    if (in_tree_[i]) {
      if (present && own == own_[i]) continue;  // nothing the index holds changed
      bool changed = false;
      root_ = Erase(root_, x, changed);
    }
    in_tree_[i] = present;
    if (!present) continue;
    own_[i] = own;
    own_coarse_[i] = Coarsen(own);
    // Free GPUs and cpu exactly as best-fit's FreeAfter sees them before the
    // pod's request is taken off (which shifts every node alike).
    it.gpus = own[NodeFitIndex::kGpus];
    it.cpu = own[NodeFitIndex::kCpu];
    if (most_) {  // ~v reverses the order without overflow
      it.gpus = ~it.gpus;
      it.cpu = ~it.cpu;
    }
    root_ = Insert(root_, x);
  }
}

int32_t FreeOrderIndex::FindIn(int32_t t, const Need& need, const Coarse& coarse_need,
                               const std::function<bool(size_t)>& fits) const {
  if (t < 0) return -1;
  const Item& it = items_[static_cast<size_t>(t)];
  if (!AllAtLeast(it.max, coarse_need)) return -1;
  if (int32_t r = FindIn(it.left, need, coarse_need, fits); r >= 0) return r;
  if (AllAtLeast(own_[static_cast<size_t>(t)], need) && fits(static_cast<size_t>(t))) return t;
  return FindIn(it.right, need, coarse_need, fits);
}

std::optional<size_t> FreeOrderIndex::Find(const ClusterState& cluster, const NodeFitIndex::Need& need,
                                           const std::function<bool(size_t)>& fits) {
  Sync(cluster);
  const int32_t r = FindIn(root_, need, Coarsen(need), fits);
  if (r < 0) return std::nullopt;
  return static_cast<size_t>(r);
}

std::vector<size_t> FreeOrderIndex::Order(const ClusterState& cluster) {
  Sync(cluster);
  std::vector<size_t> out;
  NodeFitIndex::Need any;
  any.fill(std::numeric_limits<int64_t>::min());
  FindIn(root_, any, Coarsen(any), [&](size_t i) {
    out.push_back(i);
    return false;
  });
  return out;
}

}  // namespace gpusched

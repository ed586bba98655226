#include "gpusched/sched/index/free_order_index.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>

namespace gpusched {
namespace {

using Coarse = std::array<int32_t, NodeFitIndex::kDims>;

int32_t Clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

// NodeFitIndex::Meets and a running maximum, for the coarse int32 bounds.
bool AllAtLeast(const Coarse& have, const Coarse& need) {
  bool ok = true;
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) ok &= have[d] >= need[d];
  return ok;
}

void MaxInto(Coarse& into, const Coarse& v) {
  for (size_t d = 0; d < NodeFitIndex::kDims; ++d) into[d] = std::max(into[d], v[d]);
}

Coarse Lowest() {
  Coarse c;
  c.fill(std::numeric_limits<int32_t>::min());
  return c;
}

// std::lower_bound in steps of four ways: the three pivots of a step load
// at once, so a search waits on half as many cache misses one after
// another, and picks without a branch (the keys are random: a branch there
// mispredicts half the time). The answer stays within [base, base + n].
template <class T, class Less>
size_t LowerBound(const T* data, size_t size, const T& key, Less less) {
  size_t n = size;
  if (n == 0) return 0;
  const T* base = data;
  while (n >= 4) {
    const size_t q = n / 4;
    const size_t k = static_cast<size_t>(less(base[q - 1], key)) + static_cast<size_t>(less(base[2 * q - 1], key)) +
                     static_cast<size_t>(less(base[3 * q - 1], key));
    base += k * q;
    n -= 3 * q;
  }
  while (n > 1) {
    const size_t half = n / 2;
    base = less(base[half - 1], key) ? base + half : base;
    n -= half;
  }
  return static_cast<size_t>(base - data) + (less(*base, key) ? 1 : 0);
}

template <class T, class Less>
size_t LowerBound(const std::vector<T>& v, const T& key, Less less) {
  return LowerBound(v.data(), v.size(), key, less);
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

uint64_t FreeOrderIndex::MapCpu(int64_t cpu) const {
  // Flipping the sign bit maps int64 order onto uint64 order; ~ reverses it
  // for most_. Free cpu as best-fit's FreeAfter sees it before the pod's
  // request is taken off, which shifts every node alike.
  const uint64_t up = static_cast<uint64_t>(cpu) ^ (uint64_t{1} << 63);
  return most_ ? ~up : up;
}

FreeOrderIndex::Bucket& FreeOrderIndex::BucketFor(int64_t gpus, bool share) {
  size_t b = FirstBucketFrom(gpus);
  if (b < buckets_.size() && buckets_[b].gpus == gpus && buckets_[b].share < share) ++b;
  if (b < buckets_.size() && buckets_[b].gpus == gpus && buckets_[b].share == share) return buckets_[b];
  Bucket fresh;
  fresh.gpus = gpus;
  fresh.share = share;
  bucket_gpus_.insert(bucket_gpus_.begin() + static_cast<ptrdiff_t>(b), gpus);
  return *buckets_.insert(buckets_.begin() + static_cast<ptrdiff_t>(b), std::move(fresh));
}

size_t FreeOrderIndex::FirstBucketFrom(int64_t gpus) const {
  // Few buckets, usually one per GPU count a node can have free.
  size_t b = 0;
  while (b < bucket_gpus_.size() && bucket_gpus_[b] < gpus) ++b;
  return b;
}

void FreeOrderIndex::Rebound(Block& b) const {
  b.bound = Lowest();
  for (const Entry& e : b.entries)
    if (Live(e)) MaxInto(b.bound, Coarsen(nodes_[e.node].own));
}

void FreeOrderIndex::Insert(uint32_t node) {
  const NodeRec& r = nodes_[node];
  const Entry e{MapCpu(r.own[NodeFitIndex::kCpu]), node, Tag(r.version, r.own[NodeFitIndex::kDeviceMilli])};
  Bucket& bucket = BucketFor(r.own[NodeFitIndex::kGpus], r.own[NodeFitIndex::kDeviceMilli] > 0);
  ++entries_;
  ++inserts_;
  if (bucket.blocks.empty()) {
    bucket.blocks.push_back(Block{{e}, Coarsen(r.own), 1});
    bucket.last.push_back(e);
    return;
  }
  // The block where e belongs: the first whose greatest entry is not before it.
  const size_t b = std::min(LowerBound(bucket.last, e, Less{}), bucket.blocks.size() - 1);
  Block& blk = bucket.blocks[b];
  blk.entries.push_back(e);
  MaxInto(blk.bound, Coarsen(r.own));
  if (Before(bucket.last[b], e)) bucket.last[b] = e;
  if (blk.entries.size() > block_size_) {
    Overflow(bucket, b);
  } else if (blk.entries.size() - blk.sorted > kTail) {
    Settle(blk);
  }
}

void FreeOrderIndex::Settle(Block& b) {
  std::vector<Entry>& es = b.entries;
  const size_t sorted = b.sorted;
  if (sorted == es.size()) return;
  // The tail sorted apart (a handful of entries), then both merged from
  // the back: the entries above the tail's least move up once.
  Entry tail[kTail + 1];
  const size_t t = es.size() - sorted;  // Insert settles at kTail + 1
  if (t > kTail + 1) {
    std::sort(es.begin(), es.end(), Less{});
    b.sorted = static_cast<uint32_t>(es.size());
    return;
  }
  if (t == 1) {  // the usual case in a bucket read after every change: one search, one move
    const Entry e = es.back();
    const size_t at = LowerBound(es.data(), sorted, e, Less{});
    std::copy_backward(es.begin() + static_cast<ptrdiff_t>(at), es.begin() + static_cast<ptrdiff_t>(sorted), es.end());
    es[at] = e;
    b.sorted = static_cast<uint32_t>(es.size());
    return;
  }
  for (size_t k = 0; k < t; ++k) {  // insertion sort
    const Entry e = es[sorted + k];
    size_t at = k;
    for (; at > 0 && Before(e, tail[at - 1]); --at) tail[at] = tail[at - 1];
    tail[at] = e;
  }
  size_t i = sorted, j = t, k = es.size();
  while (j > 0) {
    if (i > 0 && Before(tail[j - 1], es[i - 1])) {
      es[--k] = es[--i];
    } else {
      es[--k] = tail[--j];
    }
  }
  b.sorted = static_cast<uint32_t>(es.size());
}

void FreeOrderIndex::Overflow(Bucket& bucket, size_t b) {
  Block& blk = bucket.blocks[b];
  Settle(blk);
  std::vector<Entry>& es = blk.entries;
  const size_t before = es.size();
  es.erase(std::remove_if(es.begin(), es.end(), [&](const Entry& e) { return !Live(e); }), es.end());
  entries_ -= before - es.size();
  blk.sorted = static_cast<uint32_t>(es.size());
  // The entry just inserted is live, so the block is not empty.
  Rebound(blk);
  bucket.last[b] = es.back();
  if (es.size() * 4 <= block_size_ * 3) return;
  // Still mostly full: the upper half becomes a block of its own.
  Block upper;
  const auto mid = es.begin() + static_cast<ptrdiff_t>(es.size() / 2);
  upper.entries.assign(mid, es.end());
  es.erase(mid, es.end());
  upper.sorted = static_cast<uint32_t>(upper.entries.size());
  blk.sorted = static_cast<uint32_t>(es.size());
  Rebound(blk);
  Rebound(upper);
  bucket.last[b] = es.back();
  bucket.last.insert(bucket.last.begin() + static_cast<ptrdiff_t>(b) + 1, upper.entries.back());
  bucket.blocks.insert(bucket.blocks.begin() + static_cast<ptrdiff_t>(b) + 1, std::move(upper));
}

void FreeOrderIndex::Rebuild() {
  const size_t fill = std::max<size_t>(block_size_ / 2, 1);
  std::vector<Bucket> kept;
  for (Bucket& bucket : buckets_) {
    std::vector<Entry> live;
    for (Block& blk : bucket.blocks) {
      Settle(blk);
      for (const Entry& e : blk.entries)
        if (Live(e)) live.push_back(e);
    }
    if (live.empty()) continue;
    Bucket out;
    out.gpus = bucket.gpus;
    out.share = bucket.share;
    for (size_t at = 0; at < live.size(); at += fill) {
      Block blk;
      blk.entries.assign(live.begin() + static_cast<ptrdiff_t>(at),
                         live.begin() + static_cast<ptrdiff_t>(std::min(at + fill, live.size())));
      blk.sorted = static_cast<uint32_t>(blk.entries.size());
      Rebound(blk);
      out.last.push_back(blk.entries.back());
      out.blocks.push_back(std::move(blk));
    }
    kept.push_back(std::move(out));
  }
  buckets_ = std::move(kept);
  inserts_ = 0;
  bucket_gpus_.clear();
  for (const Bucket& bucket : buckets_) bucket_gpus_.push_back(bucket.gpus);
  entries_ = live_;
}

void FreeOrderIndex::Rekey(const ClusterState& cluster, uint32_t i) {
  NodeRec& r = nodes_[i];
  if (r.seen == batch_) return;
  r.seen = batch_;
  const bool present = cluster.present(i);
  const Need own = present ? NodeFitIndex::FreeOf(cluster.state(i)) : Need{};
  if (r.in_order) {
    if (present && own == r.own) return;  // nothing the index holds changed
    // Its entry turns stale (and is gone before the low kVersionBits of
    // the version can come round to it: kInsertsPerRebuild).
    ++r.version;
    r.in_order = false;
    --live_;
  }
  if (!present) return;
  r.own = own;
  r.in_order = true;
  ++live_;
  Insert(i);
}

void FreeOrderIndex::Sync(const ClusterState& cluster) {
  const ChangeLog& log = cluster.change_log();
  // Another cluster, or so far behind that the log no longer holds the
  // changes since: every node afresh, in node order (the order in which a
  // replay from the start would first meet them).
  const bool afresh = serial_ != cluster.serial() || !log.Holds(log_pos_);
  if (afresh) {
    serial_ = cluster.serial();
    buckets_.clear();
    bucket_gpus_.clear();
    nodes_.clear();
    entries_ = live_ = 0;
  }
  if (nodes_.size() < cluster.size()) nodes_.resize(cluster.size());
  // Each node changed since the last call is re-keyed once, from its state now.
  ++batch_;
  if (afresh) {
    for (size_t i = 0; i < cluster.size(); ++i) Rekey(cluster, static_cast<uint32_t>(i));
    log_pos_ = log.end();
  } else {
    // Departures between two decisions change nodes the index has not
    // touched for a while: their records are loaded together, not one miss
    // after another.
    for (uint64_t p = log_pos_; p < log.end(); ++p) __builtin_prefetch(&nodes_[log[p]]);
    for (; log_pos_ < log.end(); ++log_pos_) Rekey(cluster, log[log_pos_]);
  }
  // Stale entries outnumber live ones: keep memory and scans within twice
  // the nodes. And before versions could come round (kInsertsPerRebuild),
  // and when buckets emptied by Find pile up (free-GPU counts never seen
  // again, as on a node overcommitted further and further).
  if (entries_ > 2 * live_ + 2 * block_size_ || inserts_ >= kInsertsPerRebuild || buckets_.size() > entries_ + 16)
    Rebuild();
}

std::optional<FreeOrderIndex::Entry> FreeOrderIndex::FindIn(Bucket& bucket, const Entry* start, const Entry& stop,
                                                             const NodeFitIndex::Need& need, const Coarse& coarse_need,
                                                             const std::function<bool(size_t)>& fits) {
  // Entries whose share code is below this cannot meet the pod's device need.
  const uint32_t device_code = static_cast<uint32_t>(
      std::clamp<int64_t>(SatAdd(need[NodeFitIndex::kDeviceMilli], 1), 0, kDeviceMax));
  size_t b = 0, pos = 0;
  // Usually the bucket's first entry has the cpu already: no search then.
  if (start && !bucket.blocks.empty()) {
    Settle(bucket.blocks[0]);
    if (Before(bucket.blocks[0].entries[0], *start)) {
      b = LowerBound(bucket.last, *start, Less{});
      if (b == bucket.blocks.size()) return std::nullopt;
      Settle(bucket.blocks[b]);
      pos = LowerBound(bucket.blocks[b].entries, *start, Less{});
    }
  }
  while (b < bucket.blocks.size()) {
    Block& blk = bucket.blocks[b];
    Settle(blk);
    std::vector<Entry>& es = blk.entries;
    if (!Before(es.front(), stop)) break;
    if (!AllAtLeast(blk.bound, coarse_need)) {
      ++b;
      pos = 0;
      continue;
    }
    // A block read from its start to its end without a hit gets its exact
    // bound back (see below); the loop itself only looks for the hit.
    bool whole = pos == 0, passed = false;
    size_t j = pos, stale = pos;  // es[stale, j) are stale
    // Drops the stale run just passed; es[j] then follows the entries kept.
    auto drop_stale = [&] {
      if (stale < j) {
        es.erase(es.begin() + static_cast<ptrdiff_t>(stale), es.begin() + static_cast<ptrdiff_t>(j));
        entries_ -= j - stale;
        j = stale;
      }
    };
    std::optional<Entry> hit;
    for (; j < es.size(); ++j) {
      if (!Before(es[j], stop)) {
        whole = false;
        break;
      }
      if (DeviceCode(es[j]) < device_code) {
        // Its devices are too full (and it may be stale: then left for later).
        drop_stale();
        stale = j + 1;
        passed = true;
        continue;
      }
      const NodeRec& r = nodes_[es[j].node];
      if (!Matches(r, es[j])) continue;
      drop_stale();
      stale = j + 1;
      if (NodeFitIndex::Meets(r.own, need) && fits(es[j].node)) {
        hit = es[j];
        break;
      }
    }
    drop_stale();
    blk.sorted = static_cast<uint32_t>(es.size());
    pos = 0;
    if (es.empty()) {
      bucket.blocks.erase(bucket.blocks.begin() + static_cast<ptrdiff_t>(b));
      bucket.last.erase(bucket.last.begin() + static_cast<ptrdiff_t>(b));
      continue;
    }
    bucket.last[b] = es.back();
    if (hit) return hit;
    if (whole && !passed) {
      Rebound(blk);  // the records it reads were all just loaded
    } else if (whole) {
      // Passed entries were not loaded: only the device dimension is
      // tightened, from their shares and the records that were loaded.
      int32_t device = std::numeric_limits<int32_t>::min();
      for (const Entry& e : es) {
        const uint32_t code = DeviceCode(e);
        if (code < device_code) {
          device = std::max(device, static_cast<int32_t>(code) - 1);
        } else if (Live(e)) {
          device = std::max(device, Coarsen(nodes_[e.node].own)[NodeFitIndex::kDeviceMilli]);
        }
      }
      blk.bound[NodeFitIndex::kDeviceMilli] = device;
    }
    ++b;
  }
  return std::nullopt;
}

std::optional<size_t> FreeOrderIndex::Find(const ClusterState& cluster, const NodeFitIndex::Need& need,
                                           const std::function<bool(size_t)>& fits) {
  Sync(cluster);
  const Coarse coarse_need = Coarsen(need);
  // Within a bucket, entries up to `limit` (most_) or from it (least) have
  // the cpu: none of the others can meet the need.
  const Entry limit{MapCpu(need[NodeFitIndex::kCpu]), most_ ? std::numeric_limits<uint32_t>::max() : 0, 0};
  const Entry end{std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint32_t>::max(), 0};
  const Entry& stop = most_ ? limit : end;
  // A node with no device share free cannot take a GPU-share pod.
  const bool share_only = need[NodeFitIndex::kDeviceMilli] > 0;
  const size_t from = FirstBucketFrom(need[NodeFitIndex::kGpus]);
  // Buckets of one GPU count at a time, in the order's direction.
  size_t lo = most_ ? buckets_.size() : from;
  while (most_ ? lo > from : lo < buckets_.size()) {
    size_t first, past;  // the buckets [first, past) with one GPU count
    if (most_) {
      past = lo;
      first = past - 1;
      while (first > from && bucket_gpus_[first - 1] == bucket_gpus_[past - 1]) --first;
      lo = first;
    } else {
      first = lo;
      past = first + 1;
      while (past < buckets_.size() && bucket_gpus_[past] == bucket_gpus_[first]) ++past;
      lo = past;
    }
    // Of the two (no share free, share free), the first hit in the merged
    // order: the second bucket is searched only before the first's hit.
    std::optional<Entry> best;
    for (size_t k = first; k < past; ++k) {
      if (share_only && !buckets_[k].share) continue;
      if (auto hit = FindIn(buckets_[k], most_ ? nullptr : &limit, best ? *best : stop, need, coarse_need, fits))
        best = hit;
    }
    if (best) return best->node;
  }
  return std::nullopt;
}

std::vector<size_t> FreeOrderIndex::Order(const ClusterState& cluster) {
  Sync(cluster);
  // Each bucket read in its stored order (so a test sees any disorder in
  // it), the buckets of one GPU count merged, GPU counts in the order's direction.
  std::vector<std::vector<Entry>> groups;
  for (size_t k = 0; k < buckets_.size(); ++k) {
    std::vector<Entry> live;
    for (Block& blk : buckets_[k].blocks) {
      Settle(blk);
      for (const Entry& e : blk.entries)
        if (Live(e)) live.push_back(e);
    }
    if (k == 0 || buckets_[k - 1].gpus != buckets_[k].gpus) {
      groups.push_back(std::move(live));
      continue;
    }
    std::vector<Entry> merged;
    std::merge(groups.back().begin(), groups.back().end(), live.begin(), live.end(), std::back_inserter(merged),
               Less{});
    groups.back() = std::move(merged);
  }
  if (most_) std::reverse(groups.begin(), groups.end());
  std::vector<size_t> out;
  for (const auto& group : groups)
    for (const Entry& e : group) out.push_back(e.node);
  return out;
}

}  // namespace gpusched

// The per-(pod shape, node) verdict and score cache of the FGD paper's
// policies (see shape_node_cache.h).
#include "gpusched/sched/index/shape_node_cache.h"

#include <cstring>
#include <limits>

#include "gpusched/sched/index/frag.h"

namespace gpusched {
namespace {

// seq_ restarts (and every row with it) before it could wrap around.
constexpr uint32_t kLastSeq = 0xFFFFFFF0u;

void Put(std::string& key, int64_t v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  key.append(b, sizeof v);
}

void Put(std::string& key, std::string_view s) {
  Put(key, static_cast<int64_t>(s.size()));
  key.append(s);
}

bool Wide(int64_t score) {
  return score < std::numeric_limits<int32_t>::min() || score > std::numeric_limits<int32_t>::max();
}

}  // namespace

bool ShapeNodeCache::Cacheable(const PodInfo& pod) { return pod.unconstrained; }

void ShapeNodeCache::RemoveTop(Row& row, size_t i) {
  // Only keys above the bound are in the list.
  if (row.entries[i].key <= row.bound) return;
  for (size_t t = 0; t < row.top_n; ++t) {
    if (row.top_node[t] != i) continue;
    for (--row.top_n; t < row.top_n; ++t) {
      row.top_key[t] = row.top_key[t + 1];
      row.top_node[t] = row.top_node[t + 1];
    }
    return;
  }
}

void ShapeNodeCache::Clear(Row& row, size_t i) {
  row.live[i / 64] &= ~(uint64_t{1} << (i % 64));
  Entry& e = row.entries[i];
  if (e.verdict & kWide) --row.num_wide;
  // Out of the top list: its key becomes 0, which is <= bound.
  RemoveTop(row, i);
  e.verdict = kFails;
  e.key = 0;
}

void ShapeNodeCache::InsertTop(Row& row, uint64_t k, size_t i) {
  if (row.top_n == kTop) {
    // The lesser of k and the list's last stays out and is the new bound.
    const uint64_t last = row.top_key[kTop - 1];
    if (k < last) {
      row.bound = k;
      return;
    }
    row.bound = last;
    --row.top_n;
  }
  size_t j = row.top_n++;
  for (; j > 0 && row.top_key[j - 1] < k; --j) {
    row.top_key[j] = row.top_key[j - 1];
    row.top_node[j] = row.top_node[j - 1];
  }
  row.top_key[j] = k;
  row.top_node[j] = i;
}

void ShapeNodeCache::Scan(Row& row) {
  row.top_n = 0;
  row.bound = 0;
  const Entry* entries = row.entries.data();
  // Once the list is full only a key above its last can enter it.
  uint64_t floor = 0;
  for (size_t i = 0; i < row.entries.size(); ++i) {
    const uint64_t k = entries[i].key;
    if (k <= floor) continue;
    InsertTop(row, k, i);
    if (row.top_n == kTop) floor = row.top_key[kTop - 1];
  }
  // Every key left out is below the last (keys are distinct: ranks are).
  if (row.top_n == kTop) row.bound = row.top_key[kTop - 1] - 1;
}

uint64_t ShapeNodeCache::Key(int64_t score, uint32_t rank) {
  const uint64_t high = static_cast<uint64_t>(score - std::numeric_limits<int32_t>::min());
  // Ranks are < the number of node slots, so the low half is never 0.
  return high << 32 | (0xFFFFFFFFull - rank);
}

void ShapeNodeCache::SetScore(Row& row, size_t i, int64_t score, const std::vector<uint32_t>& rank) {
  if (Wide(score)) {
    row.entries[i].verdict |= kWide;
    row.entries[i].key = 0;
    ++row.num_wide;
    return;
  }
  const uint64_t key = Key(score, rank[i]);
  row.entries[i].key = key;
  // The entry was cleared first (out of the list); it goes back in when it
  // beats every key outside the list.
  if (key > row.bound) InsertTop(row, key, i);
}

void ShapeNodeCache::Restamp(size_t i, const NodeState& st) {
  stamp_[i] = ++seq_;
  gone_[i] = !st.present;
  free_[i] = NodeFitIndex::FreeOf(st);
}

void ShapeNodeCache::Sync(const ClusterState& cluster) {
  const ChangeLog& log = cluster.change_log();
  const size_t n = cluster.size();
  // Another cluster (ClusterState::serial: an address can be reused), so
  // far behind that the log no longer holds the changes since, or stamps
  // about to wrap: start over.
  if (cluster.serial() != serial_ || !log.Holds(log_seen_) ||
      uint64_t{seq_} + n + (log.end() - log_seen_) > kLastSeq) {
    serial_ = cluster.serial();
    ids_.clear();
    rows_.clear();
    seq_ = 0;
    stamp_.clear();
    last_pos_.clear();
    log_seen_ = log.end();
  }
  const size_t old = stamp_.size();
  if (old < n) {
    stamp_.resize(n);
    last_pos_.resize(n, 0);
    gone_.resize(n);
    free_.resize(n);
    for (size_t i = old; i < n; ++i) Restamp(i, cluster.state(i));
  }
  for (; log_seen_ < log.end(); ++log_seen_) {
    const size_t i = log[log_seen_];
    Restamp(i, cluster.state(i));
    last_pos_[i] = log_seen_;
  }
}

inline void ShapeNodeCache::Touch(Row& row, size_t i, const NodeFitIndex::Need& need, const Fits& fits,
                                  bool scored) {
  if (gone_[i] || !NodeFitIndex::Meets(free_[i], need)) {
    // It fails whatever changed; an entry that says so already is left
    // alone (its old stamp only makes a later pass look again).
    if (row.live[i / 64] >> (i % 64) & 1) Clear(row, i);
    return;
  }
  Admit(row, i, fits, scored);
}

void ShapeNodeCache::Admit(Row& row, size_t i, const Fits& fits, bool scored) {
  Entry& e = row.entries[i];
  if (e.stamp == stamp_[i]) return;  // current
  e.stamp = stamp_[i];
  Clear(row, i);
  if (exact_ && !fits(i)) return;
  e.verdict = exact_ ? kFits : kUnknown;
  row.live[i / 64] |= uint64_t{1} << (i % 64);
  if (scored) to_score_.push_back(i);
}

ShapeNodeCache::Row& ShapeNodeCache::Refresh(const PodInfo& pod, const ClusterState& cluster, const Fits& fits,
                                             const NodeScorer* scorer, const std::vector<uint32_t>* rank) {
  Sync(cluster);
  // The shape: everything the filters (requests, GPU request) and the paper
  // scores (ShapeOf, whether the pod requests anything) read of a pod.
  const PodShape shape = ShapeOf(pod);
  key_.clear();
  const Resources& r = pod.requests;
  for (int64_t v : {r.milli_cpu, r.memory, r.ephemeral_storage, r.allowed_pods, static_cast<int64_t>(r.scalars.size())})
    Put(key_, v);
  for (const auto& [name, v] : r.scalars) {
    Put(key_, name);
    Put(key_, v);
  }
  for (int64_t v : {int64_t{pod.gpu.milli}, int64_t{pod.gpu.count}, int64_t{pod.gpu.from_annotations},
                    pod.gpu.memory_mib, static_cast<int64_t>(pod.gpu.models.size())})
    Put(key_, v);
  for (const std::string& m : pod.gpu.models) Put(key_, m);
  Put(key_, shape.milli_cpu);
  Put(key_, shape.models);
  Put(key_, int64_t{PodHasNoRequests(pod)});
  auto [it, inserted] = ids_.try_emplace(key_, static_cast<uint32_t>(rows_.size()));
  if (inserted) rows_.emplace_back();
  Row& row = rows_[it->second];

  const ChangeLog& log = cluster.change_log();
  const size_t n = cluster.size();
  if (row.entries.size() < n) {
    row.entries.resize(n);
    row.live.resize((n + 63) / 64);
  }
  const NodeFitIndex::Need need = NodeFitIndex::NeedOf(pod, true);
  const bool scored = scorer != nullptr;
  to_score_.clear();
  // Visit the nodes changed since the row was current — each at its last
  // change in the log — or all of them when that is shorter (or the log no
  // longer holds those changes: last_pos_ covers every change since the
  // cache started over, and the row is younger).
  if (row.log_pos == kNever) {
    for (size_t i = 0; i < n; ++i) Touch(row, i, need, fits, scored);
  } else if (log.end() - row.log_pos >= n || !log.Holds(row.log_pos)) {
    for (size_t i = 0; i < n; ++i)
      if (last_pos_[i] >= row.log_pos) Touch(row, i, need, fits, scored);
  } else {
    for (uint64_t p = row.log_pos; p < log.end(); ++p) {
      const size_t i = log[p];
      if (last_pos_[i] == p) Touch(row, i, need, fits, scored);
    }
  }
  row.log_pos = log.end();
  if (!to_score_.empty()) ScoreOrBound(row, *scorer, *rank);
  return row;
}

void ShapeNodeCache::ScoreOrBound(Row& row, const NodeScorer& scorer, const std::vector<uint32_t>& rank) {
  scores_.resize(to_score_.size());
  bool bounded = scorer.BoundNodes(to_score_, scores_);
  for (size_t k = 0; bounded && k < scores_.size(); ++k) bounded = !Wide(scores_[k]);
  if (!bounded) {
    scorer.ScoreNodes(to_score_, scores_);
    for (size_t k = 0; k < to_score_.size(); ++k) SetScore(row, to_score_[k], scores_[k], rank);
    return;
  }
  for (size_t k = 0; k < to_score_.size(); ++k) {
    const size_t i = to_score_[k];
    row.entries[i].verdict |= kBound;
    const uint64_t key = Key(scores_[k], rank[i]);
    row.entries[i].key = key;
    if (key > row.bound) InsertTop(row, key, i);
  }
}

std::optional<size_t> ShapeNodeCache::Best(const PodInfo& pod, const ClusterState& cluster, const Fits& fits,
                                           const NodeScorer& scorer, const std::vector<uint32_t>& rank,
                                           bool& packed) {
  Row& row = Refresh(pod, cluster, fits, &scorer, &rank);
  packed = row.num_wide == 0;
  if (!packed) return std::nullopt;
  for (;;) {
    // The list's head is the greatest key; a node not yet run through the
    // filters is now, and leaves the list if it fails them.
    while (row.top_n > 0) {
      const size_t i = row.top_node[0];
      Entry& e = row.entries[i];
      if (e.verdict & kBound) {
        // Its score now: the key drops to it, and the list is looked at again.
        one_.assign(1, i);
        scores_.resize(1);
        scorer.ScoreNodes(one_, scores_);
        RemoveTop(row, i);
        e.verdict &= ~kBound;
        SetScore(row, i, scores_[0], rank);
        if (row.num_wide > 0) {
          packed = false;
          return std::nullopt;
        }
        continue;
      }
      if (e.verdict == kFits) return i;
      if (fits(i)) {
        e.verdict = kFits;
        return i;
      }
      Clear(row, i);
    }
    // No key is left above the bound: none at all, or a pass finds them.
    if (row.bound == 0) return std::nullopt;
    Scan(row);
  }
}

const std::vector<size_t>& ShapeNodeCache::Feasible(const PodInfo& pod, const ClusterState& cluster,
                                                    const Fits& fits, const NodeScorer* scorer,
                                                    const std::vector<uint32_t>* rank) {
  Row& row = Refresh(pod, cluster, fits, scorer, rank);
  feasible_.clear();
  for (size_t i = 0; i < row.entries.size(); ++i) {
    uint8_t& v = row.entries[i].verdict;
    if ((v & kVerdict) == kUnknown) {
      if (fits(i)) {
        v |= kFits;
      } else {
        Clear(row, i);
      }
    }
    if ((v & kVerdict) == kFits) feasible_.push_back(i);
  }
  return feasible_;
}

void ShapeNodeCache::Scan(const ClusterState& cluster, const NodeFitIndex::Need& need, const Fits& fits,
                          std::vector<size_t>& out) {
  out.clear();
  for (size_t i = 0; i < cluster.size(); ++i)
    if (cluster.present(i) && NodeFitIndex::Meets(NodeFitIndex::FreeOf(cluster.state(i)), need) && fits(i))
      out.push_back(i);
}

}  // namespace gpusched

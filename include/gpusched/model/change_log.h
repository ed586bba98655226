// ChangeLog: which node each change of a ClusterState touched, in order.
// Entry k names the node of the cluster's k-th change (a bind, an unbind, a
// node added or removed), so a position in the log is a
// ClusterState::version(). Readers that follow a cluster (the node indexes,
// the failure summaries, the diagnosis and filter caches) keep the version
// they are current up to and replay the entries since.
//
// Only the latest entries are held: at least the last `keep` of them (the
// cluster passes max(kMinChangesHeld, its node slots)), at most twice as
// many, so the log's memory stays bounded however long a simulation runs. A
// reader that fell further behind (Holds() is false) rebuilds from the nodes
// instead of replaying; with at least one entry per node slot held, that
// costs about what replaying would have.
#ifndef GPUSCHED_MODEL_CHANGE_LOG_H_
#define GPUSCHED_MODEL_CHANGE_LOG_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusched {

class ChangeLog {
 public:
  // Position after the newest entry: the number of changes ever recorded.
  uint64_t end() const { return end_; }
  // Position of the oldest entry still held.
  uint64_t begin() const { return end_ - entries_.size(); }
  // True when every entry from `pos` on is held: a reader current up to
  // `pos` may replay [pos, end()). False for a position ahead of end().
  bool Holds(uint64_t pos) const { return pos >= begin() && pos <= end_; }
  // The node of entry `pos`, begin() <= pos < end().
  uint32_t operator[](uint64_t pos) const {
    assert(pos >= begin() && pos < end_);
    return entries_[static_cast<size_t>(pos - begin())];
  }

  // Records a change of `node`, holding at least the last `keep` entries.
  void Append(uint32_t node, size_t keep) {
    entries_.push_back(node);
    ++end_;
    // Trimmed by half at a time: each entry is moved at most once on average.
    if (entries_.size() > 2 * keep)
      entries_.erase(entries_.begin(), entries_.end() - static_cast<std::ptrdiff_t>(keep));
  }

  bool operator==(const ChangeLog&) const = default;

 private:
  std::vector<uint32_t> entries_;  // positions [begin(), end())
  uint64_t end_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_CHANGE_LOG_H_

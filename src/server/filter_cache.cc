#include "gpusched/server/filter_cache.h"

#include <algorithm>

namespace gpusched {

const NodeVerdict& FilterCache::Row::Get(size_t i, ExtenderDecisions& decisions, const PodInfo& pod,
                                         const ClusterState& cluster) {
  if (!known[i]) {
    verdicts[i] = decisions.Filter(pod, cluster, i);
    known[i] = 1;
  }
  return verdicts[i];
}

FilterCache::Row& FilterCache::RowFor(const PodInfo& pod, const ClusterState& cluster) {
  const size_t hash = ClassHash(pod);
  auto it = std::find_if(rows_.begin(), rows_.end(),
                         [&](const Row& r) { return r.hash == hash && r.key.Matches(pod); });
  if (it == rows_.end()) {
    if (rows_.size() >= max_classes_) rows_.pop_back();
    rows_.push_front(Row(pod));
    rows_.front().hash = hash;
  } else if (it != rows_.begin()) {
    rows_.splice(rows_.begin(), rows_, it);
  }
  Row& row = rows_.front();
  const ChangeLog& log = cluster.change_log();
  if (row.serial != cluster.serial() || !log.Holds(row.log_pos) || log.end() - row.log_pos >= cluster.size()) {
    // Another cluster, more changes than nodes, or changes the log no
    // longer holds: start over.
    row.serial = cluster.serial();
    row.known.assign(cluster.size(), 0);
    row.verdicts.assign(cluster.size(), NodeVerdict{});
  } else {
    for (uint64_t k = row.log_pos; k < log.end(); ++k)
      if (log[k] < row.known.size()) row.known[log[k]] = 0;
    row.known.resize(cluster.size(), 0);
    row.verdicts.resize(cluster.size());
  }
  row.log_pos = log.end();
  return row;
}

}  // namespace gpusched

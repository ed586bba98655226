// FilterCache: the extender's filter verdicts kept per pod class, so that
// prioritize after filter for the same pod, and the next pods of the same
// shape, do not run the filter chain on every node again.
//
// A verdict depends on the pod's class (sched/api/pod_class.h: everything of a
// pod a filter reads), the node and the node's state, nothing else: each
// in-tree filter checks one node (FilterPlugin::Check). So a class's row of
// verdicts, one per node slot, stays valid until its node changes, and
// ClusterState::change_log() names every node that did (bind, unbind, node
// added or removed; a node whose labels or taints change is re-added in a
// new slot by the view). A row catches up on the log when it is next used,
// as the scheduler's node indexes do, forgetting the verdicts of the nodes
// changed since; a verdict is computed when first asked for. A different
// ClusterState (serial), or more changes since than the log holds, empties
// the row.
//
// It holds at most `max_classes` rows, dropping the least recently used.
// Not thread-safe: the caller serializes (server/extender.h).
#ifndef GPUSCHED_SERVER_FILTER_CACHE_H_
#define GPUSCHED_SERVER_FILTER_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/server/decisions.h"

namespace gpusched {

class FilterCache {
 public:
  explicit FilterCache(size_t max_classes = 32) : max_classes_(max_classes) {}

  // One class's verdicts on `cluster`, up to date with its change log.
  class Row {
   public:
    // Node i's verdict (i a node slot of the cluster Rows() was given).
    const NodeVerdict& Get(size_t i, ExtenderDecisions& decisions, const PodInfo& pod, const ClusterState& cluster);

   private:
    friend class FilterCache;
    explicit Row(const PodInfo& pod) : key(pod) {}
    PodClassKey key;
    size_t hash = 0;
    uint64_t serial = 0;
    uint64_t log_pos = 0;  // change log position (a version) the row is current up to
    std::vector<char> known;  // by node slot
    std::vector<NodeVerdict> verdicts;
  };

  // The row of `pod`'s class, brought up to date with `cluster`. Valid
  // until the next call.
  Row& RowFor(const PodInfo& pod, const ClusterState& cluster);

  size_t num_classes() const { return rows_.size(); }

 private:
  size_t max_classes_;
  std::list<Row> rows_;  // most recently used first
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_FILTER_CACHE_H_

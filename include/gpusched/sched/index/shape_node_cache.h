// ShapeNodeCache: the filter verdict and score of each (pod shape, node)
// pair, for the FGD paper's policies, which look at every node. An entry
// stays valid until its node changes (ClusterState::change_log has every
// bind, unbind, addition and removal — each bump of NodeState::version —
// and the cache starts over when it fell behind what the log holds); a
// decision changes one or two nodes, so a decision re-examines only the
// nodes changed since its shape was last seen, instead of running the filter
// chain on all of them.
//
// Only a cacheable pod may use it: one whose verdict on a node depends on
// nothing but its requests and GPU request and the node and its state — no
// nodeSelector, node affinity, tolerations or nodeName. The in-tree filters
// read nothing else of a pod; the scheduler's failure caches assume the same
// (PodInfo::unconstrained). The shape key holds every pod field a filter or
// a paper score reads.
//
// Each shape's row holds per node slot one 16-byte entry — its verdict and a
// packed (score, rank) key, the greatest key being Select's choice (highest
// score, then smallest NodeRank) — so re-examining a node touches one cache
// line. A row also keeps its few greatest keys, so a pass over it is needed
// only once all of those nodes changed (the choice itself changes with every
// bind it wins).
//
// Most nodes that change are never the choice, so the work on them is put
// off until they head that list: a node short of the pod's
// NodeFitIndex::NeedOf(pod, true) fails the filters (policy.h:
// SelectIndexed's precondition) and is settled without `fits`; any other is
// run through `fits` (unless the cache is `exact`) and, when the scorer can
// bound its score, scored only once it heads the list with its bound's key.
// An exact key never exceeds its bound's (same rank, lower or equal score),
// so the first head that is exact and fits beats every other node.
#ifndef GPUSCHED_SCHED_INDEX_SHAPE_NODE_CACHE_H_
#define GPUSCHED_SCHED_INDEX_SHAPE_NODE_CACHE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/index/node_index.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// Scores nodes for one pod (the policy's Score); `scores` has nodes' size.
class NodeScorer {
 public:
  virtual void ScoreNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const = 0;
  // An upper bound of each node's score, cheaper than ScoreNodes; false when
  // there is none.
  virtual bool BoundNodes(const std::vector<size_t>& nodes, std::vector<int64_t>& bounds) const {
    (void)nodes, (void)bounds;
    return false;
  }

 protected:
  ~NodeScorer() = default;
};

class ShapeNodeCache {
 public:
  using Fits = std::function<bool(size_t)>;

  // `exact`: settle every verdict with `fits` as soon as a node changes
  // (Random needs the whole feasible set); else lazily, see above.
  explicit ShapeNodeCache(bool exact) : exact_(exact) {}

  // True when the pod's filter verdicts depend only on its shape.
  static bool Cacheable(const PodInfo& pod);

  // The fitting node with the highest score, ties to the smallest rank[i]
  // (`rank` covers every node slot); nullopt when none fits. `packed` is
  // false (and nothing chosen) when a score does not fit in 32 bits: then
  // the caller chooses over Feasible itself.
  std::optional<size_t> Best(const PodInfo& pod, const ClusterState& cluster, const Fits& fits,
                             const NodeScorer& scorer, const std::vector<uint32_t>& rank, bool& packed);

  // Every node the pod fits, in index order. `scorer` and `rank` are both
  // null (no scores kept) or both set, the same way on every call.
  const std::vector<size_t>& Feasible(const PodInfo& pod, const ClusterState& cluster, const Fits& fits,
                                      const NodeScorer* scorer, const std::vector<uint32_t>* rank);

  // Every node the pod fits, in index order, asking `fits` of each present
  // node whose free amounts meet `need` (NodeFitIndex::NeedOf(pod, true)):
  // the way for a pod that is not cacheable.
  static void Scan(const ClusterState& cluster, const NodeFitIndex::Need& need, const Fits& fits,
                   std::vector<size_t>& out);

  // Shapes seen (tests).
  size_t num_shapes() const { return rows_.size(); }

 private:
  // An entry's verdict (low bits); kWide when its score needs > 32 bits;
  // kBound when its key holds a bound, not yet the score.
  enum : uint8_t { kUnknown = 0, kFits = 1, kFails = 2, kVerdict = 3, kWide = 4, kBound = 8 };
  static constexpr uint64_t kNever = ~uint64_t{0};
  static constexpr size_t kTop = 16;

  struct Entry {
    uint64_t key = 0;    // (score + 2^31) << 32 | ~rank; 0 = fails (or wide)
    uint32_t stamp = 0;  // the node's stamp_ it was made at; 0 = never
    uint8_t verdict = kFails;
  };
  // One shape: an entry per node slot.
  struct Row {
    uint64_t log_pos = kNever;  // change_log position (a version) it is current up to
    int64_t num_wide = 0;     // entries with kWide
    // Its greatest keys, descending, with their nodes: each is > bound, and
    // every key not among them is <= bound.
    size_t top_n = 0;
    uint64_t bound = 0;
    uint64_t top_key[kTop] = {};
    size_t top_node[kTop] = {};
    std::vector<Entry> entries;
    // A bit per node slot: its entry is not kFails. Small enough to stay in
    // cache, so a changed node that still fails needs no look at its entry.
    std::vector<uint64_t> live;
  };

  void Sync(const ClusterState& cluster);
  void Restamp(size_t i, const NodeState& st);
  Row& Refresh(const PodInfo& pod, const ClusterState& cluster, const Fits& fits, const NodeScorer* scorer,
               const std::vector<uint32_t>* rank);
  // Brings node i's entry up to date (it may have changed); Admit when it
  // passes the resource check.
  void Touch(Row& row, size_t i, const NodeFitIndex::Need& need, const Fits& fits, bool scored);
  void Admit(Row& row, size_t i, const Fits& fits, bool scored);
  static void Clear(Row& row, size_t i);
  static void RemoveTop(Row& row, size_t i);
  // Keys from the scorer's bounds for the nodes in to_score_, or their
  // scores when it has none.
  void ScoreOrBound(Row& row, const NodeScorer& scorer, const std::vector<uint32_t>& rank);
  static void InsertTop(Row& row, uint64_t k, size_t i);
  static void Scan(Row& row);
  static void SetScore(Row& row, size_t i, int64_t score, const std::vector<uint32_t>& rank);
  static uint64_t Key(int64_t score, uint32_t rank);

  bool exact_;
  uint64_t serial_ = 0;  // ClusterState::serial() of the cluster followed
  uint64_t log_seen_ = 0;
  // Per node slot, synced from the change log for all rows: a stamp that
  // changes with every change of the node (from seq_; rows compare it), the
  // log position of its last change (so a walk over the log visits a node
  // once), whether it was removed, and NodeFitIndex::FreeOf.
  uint32_t seq_ = 0;
  std::vector<uint32_t> stamp_;
  std::vector<uint64_t> last_pos_;
  std::vector<uint8_t> gone_;
  std::vector<NodeFitIndex::Need> free_;
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<Row> rows_;
  std::string key_;               // scratch
  std::vector<size_t> to_score_, one_;  // scratch
  std::vector<int64_t> scores_;   // scratch
  std::vector<size_t> feasible_;  // Feasible's answer
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_INDEX_SHAPE_NODE_CACHE_H_

// NodeRank: the FGD simulator's tie-break among equally scored nodes. Its
// patched selectHost (vendor/k8s.io/kubernetes/pkg/scheduler/core/
// generic_scheduler.go) picks "the smallest lexicographical order if the
// score remains the same", and syncClusterResourceList
// (pkg/simulator/simulator.go) renames the i-th node in name order to
// fmt.Sprintf("%04d-", rand.Perm(n)[i]) + name. So ties go to the node with
// the smallest rank in a seeded random permutation of the nodes. gpusched's
// nodes stay in input order (name order for the trace), and rank[i] plays the
// role of node i's prefix (compared as numbers; upstream's string compare
// differs only from 10,000 nodes on, where "%04d" stops padding).
#ifndef GPUSCHED_SCHED_INDEX_NODE_RANK_H_
#define GPUSCHED_SCHED_INDEX_NODE_RANK_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpusched/util/random.h"

namespace gpusched {

class NodeRank {
 public:
  // The ranks of node slots 0..n-1. The first call draws a permutation of n
  // from `rng` (Go's rand.Perm construction: m[i] = m[j], m[j] = i with
  // j uniform in [0, i]); nodes added later get the next ranks in order, so
  // the existing order never changes and no further randomness is drawn.
  const std::vector<uint32_t>& Ensure(size_t n, Rng& rng);
  bool drawn() const { return drawn_; }
  const std::vector<uint32_t>& ranks() const { return rank_; }

 private:
  std::vector<uint32_t> rank_;
  bool drawn_ = false;
};

struct HighestPick {
  size_t index = 0;  // into `feasible` / `scores`
  size_t ties = 0;   // nodes sharing the highest score (>= 1)
};

// The highest of `scores` (one per `feasible` node); among equals the node
// with the smallest rank. `feasible` and `scores` must be non-empty and of
// equal size, every node < rank.size().
HighestPick PickHighest(const std::vector<size_t>& feasible, const std::vector<int64_t>& scores,
                        const std::vector<uint32_t>& rank);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_INDEX_NODE_RANK_H_

// IndexedScan: the plain scan's feasible set, found by jumping over the
// nodes whose free amounts (NodeFitIndex) fall short of the pod's requests
// or its GPU share. A node the index offers still runs the filter chain,
// unless PlainNodes settles its verdict from the index's exact amounts (for
// a pod with PreFilter state, all but those filters' verdicts, which on
// such a node are read off the filters' DomainTests when their state has
// them, cycle_state.h). The
// nodes are taken in the plain scan's order from the same start, it stops
// at the same count, and the start moves on by as much: the same feasible
// set and the same rotation (tests/sched/framework/indexed_scan_test.cc).
//
// Safe (Usable) when the chain is declared and some filter rejects every
// node short of the pod's requests (ChainTraits::checks_fit): only nodes
// that filter rejects are skipped. nvidia.com/gpu is pruned on only when it
// checks that too, device shares only when a filter checks devices.
#ifndef GPUSCHED_SCHED_FRAMEWORK_INDEXED_SCAN_H_
#define GPUSCHED_SCHED_FRAMEWORK_INDEXED_SCAN_H_

#include "gpusched/sched/framework/chain_traits.h"
#include "gpusched/sched/framework/node_search.h"
#include "gpusched/sched/framework/plain_nodes.h"
#include "gpusched/sched/index/node_index.h"

namespace gpusched {

class IndexedScan : public NodeSearch {
 public:
  static bool Usable(const ChainTraits& chain) { return chain.declared && chain.checks_fit; }

  explicit IndexedScan(const ChainTraits& chain) : chain_(chain) {}
  std::string_view Name() const override { return "indexed scan"; }
  bool Find(const SearchContext& ctx, std::vector<size_t>& feasible, size_t& next_start) override;
  // It skips only nodes short of the pod's requests, which NodeResourcesFit
  // rejects whatever other pods run there, and runs the chain on the rest.
  bool ServesPreFilterState() const override { return true; }

 private:
  ChainTraits chain_;
  NodeFitIndex index_;
  PlainNodes plain_;
  std::vector<const FilterPlugin*> stateful_;  // Find's, kept for its capacity
  std::vector<DomainTest> tests_;             // likewise
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_INDEXED_SCAN_H_

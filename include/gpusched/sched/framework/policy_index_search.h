// PolicyIndexSearch: the policy's choice straight from an index of its own
// (Policy::SelectIndexed: best-/worst-fit's FreeOrderIndex, the FGD paper
// policies' ShapeNodeCache), without the feasible set the plain scan builds
// for Select. `fits` runs the filter chain on one node, unless PlainNodes
// settles it from the exact free amounts SelectIndexed promises to check
// first. The choice is Select's over the plain scan's feasible set, drawing
// from the scheduler's Rng as Select and Commit would
// (tests/sched/framework/policy_index_search_test.cc).
//
// Safe (Usable) when the policy declares HasOwnIndex and does not rotate
// its start (the pick says nothing of how far a scan would have gone), and
// the chain is declared (a policy's index may keep verdicts per pod shape)
// with NodeResourcesFit checking nvidia.com/gpu and a filter checking
// devices: SelectIndexed settles nodes short of NodeFitIndex::NeedOf(pod,
// true) as failing without asking `fits`.
#ifndef GPUSCHED_SCHED_FRAMEWORK_POLICY_INDEX_SEARCH_H_
#define GPUSCHED_SCHED_FRAMEWORK_POLICY_INDEX_SEARCH_H_

#include "gpusched/sched/framework/chain_traits.h"
#include "gpusched/sched/framework/node_search.h"
#include "gpusched/sched/framework/plain_nodes.h"

namespace gpusched {

class PolicyIndexSearch : public NodeSearch {
 public:
  static bool Usable(const ChainTraits& chain, const Policy& policy) {
    return chain.declared && chain.checks_fit && chain.checks_gpu_count && chain.checks_devices &&
           policy.HasOwnIndex() && !policy.RotatesStartIndex();
  }

  explicit PolicyIndexSearch(const ChainTraits& chain) : chain_(chain) {}
  std::string_view Name() const override { return "policy index"; }
  bool Find(const SearchContext& ctx, std::vector<size_t>& feasible, size_t& next_start) override;

 private:
  ChainTraits chain_;
  PlainNodes plain_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_POLICY_INDEX_SEARCH_H_

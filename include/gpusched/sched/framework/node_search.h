// NodeSearch: a fast way for the Scheduler to find where a pod fits, with
// exactly the answer the plain scan (plain_scan.h) would give. Each kind
// says in a static Usable() what the filter chain (ChainTraits) and the
// policy must declare for it to be safe; the Scheduler picks one when it is
// made (or none: every pod then takes the plain scan). A search that finds
// nothing leaves explaining the failure to summarized_failures.h or to the
// plain scan.
//
//   IndexedScan (indexed_scan.h): the plain scan's feasible set, jumping
//     over nodes the NodeFitIndex shows fail NodeResourcesFit or GpuShare.
//   PolicyIndexSearch (policy_index_search.h): the policy's own choice from
//     its own index (Policy::SelectIndexed), no feasible set at all.
#ifndef GPUSCHED_SCHED_FRAMEWORK_NODE_SEARCH_H_
#define GPUSCHED_SCHED_FRAMEWORK_NODE_SEARCH_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/util/random.h"

namespace gpusched {

// One search: the pod, the cluster, and the scheduler's profile and run.
struct SearchContext {
  const PodInfo& pod;
  const ClusterState& cluster;
  const std::vector<std::unique_ptr<FilterPlugin>>& filters;
  const Policy& policy;
  PolicyState& policy_state;  // the scheduler's run of `policy`
  Rng& rng;                   // the scheduler's
  size_t start;               // the scan starts at this node slot
  int64_t to_find;            // and stops once it has this many feasible nodes
  // Set: the pods nominated there count on each node (only the plain scan
  // takes them into account; the Scheduler sends such a pod nowhere else).
  const NominatedPods* nominated = nullptr;
};

class NodeSearch {
 public:
  virtual ~NodeSearch() = default;
  // For tests and diagnostics: "indexed scan", "policy index".
  virtual std::string_view Name() const = 0;
  // True with `feasible` set to what Commit is to choose among (the plain
  // scan's feasible set, or the one node Select would choose among it) and,
  // when the policy rotates its start (Policy::RotatesStartIndex),
  // `next_start` to where the plain scan would start next time; false,
  // with both untouched, when no node fits.
  virtual bool Find(const SearchContext& ctx, std::vector<size_t>& feasible, size_t& next_start) = 0;
  // Whether Find also serves a pod with PreFilter state (PodInfo::cycle):
  // it must then run the whole chain on every node it does not skip for
  // its resources, as FilterTraits do not hold for such a pod.
  virtual bool ServesPreFilterState() const { return false; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_NODE_SEARCH_H_

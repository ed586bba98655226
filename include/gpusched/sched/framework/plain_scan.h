// PlainScan: kube-scheduler's findNodesThatPassFilters, sequentially — the
// filter chain on each node in turn from the start index, until the policy
// has the feasible nodes it wants — and, when none passes, the FitError from
// every node's verdict and DefaultPreemption's dry run. The reference every
// fast path (node_search.h, summarized_failures.h, failure_cache.h) is
// tested against, and the path `explain` always takes.
//
// Always safe: it assumes nothing of the filters.
#ifndef GPUSCHED_SCHED_FRAMEWORK_PLAIN_SCAN_H_
#define GPUSCHED_SCHED_FRAMEWORK_PLAIN_SCAN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/api/status.h"
#include "gpusched/sched/framework/node_search.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {

class PlainScan {
 public:
  // `preemption`: the profile runs DefaultPreemption (a failure carries its verdict).
  explicit PlainScan(bool preemption) : preemption_(preemption) {}

  // Scans from ctx.start, stopping at ctx.to_find feasible nodes, into
  // `feasible` (in scan order); `next_start` moves past the nodes visited.
  // True when some node passed. Otherwise the reasons are added to `err`
  // (whose num_all_nodes the caller sets), the preemption verdict set when
  // the profile preempts, and bit k of `rejectors` set when filters[k]
  // (k >= 63 sharing bit 63) failed some node. `explain`, when given, gets
  // one entry per node slot.
  bool Run(const SearchContext& ctx, PodExplain* explain, std::vector<size_t>& feasible, size_t& next_start,
           FitError& err, std::optional<PreemptionVerdict>& preemption, uint64_t& rejectors);

 private:
  size_t PluginIndex(const SearchContext& ctx, const FilterPlugin* p) const;

  bool preemption_;
  // Reused between calls, so that a scan allocates nothing.
  std::vector<SchedStatus::Code> codes_;  // per node, for preemption's dry run
  FilterVerdict verdict_;
  ReasonTally tally_;
  std::vector<const PodInfo*> nominated_scratch_;  // CheckFiltersWithNominated's
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_PLAIN_SCAN_H_

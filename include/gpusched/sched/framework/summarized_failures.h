// SummarizedFailures: the FitError and preemption verdict of a pod that fits
// nowhere, from the per-shape FailureSummaries (index/failure_summary.h)
// brought up to date with the nodes changed since, instead of a plain scan
// of every node (tests/sched/framework/summarized_failures_test.cc).
//
// Safe (Usable) when the chain is declared: a verdict kept for a shape is
// valid for every pod of it until its node changes. Applies to a pod whose
// shape alone decides its verdicts (PodInfo::unconstrained); any other pod,
// or one that some node admits after all, is left to the plain scan.
#ifndef GPUSCHED_SCHED_FRAMEWORK_SUMMARIZED_FAILURES_H_
#define GPUSCHED_SCHED_FRAMEWORK_SUMMARIZED_FAILURES_H_

#include <cstdint>
#include <optional>

#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/framework/chain_traits.h"
#include "gpusched/sched/framework/node_search.h"
#include "gpusched/sched/index/failure_summary.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {

class SummarizedFailures {
 public:
  static bool Usable(const ChainTraits& chain) { return chain.declared; }

  // `preemption`: the profile runs DefaultPreemption.
  explicit SummarizedFailures(bool preemption) : summaries_(preemption) {}

  // True with `err`, `preemption` and `rejectors` as PlainScan::Run gives
  // them (err replaced whole); false, with nothing set, when the pod is not
  // unconstrained or some node passes the filters.
  bool Explain(const SearchContext& ctx, FitError& err, std::optional<PreemptionVerdict>& preemption,
               uint64_t& rejectors);
  // The same for a pod with PreFilter state (ctx.pod.cycle), whose stateful
  // filters the summaries do not run: from its stateless verdicts (the pod
  // without its state), which are its own when every node fails a filter
  // before the first one with state (the chain stops there, so those never
  // run) and no preemption dry run ran the filters on any node. False,
  // with nothing set, otherwise.
  bool ExplainStateful(const SearchContext& ctx, FitError& err, std::optional<PreemptionVerdict>& preemption,
                       uint64_t& rejectors);

 private:
  FailureSummaries summaries_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_SUMMARIZED_FAILURES_H_

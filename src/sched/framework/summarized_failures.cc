#include "gpusched/sched/framework/summarized_failures.h"

namespace gpusched {

bool SummarizedFailures::Explain(const SearchContext& ctx, FitError& err, std::optional<PreemptionVerdict>& preemption,
                                 uint64_t& rejectors) {
  // A pod with a nodeName, nodeSelector, node affinity or tolerations has
  // verdicts that depend on more than its shape: the summaries, kept per
  // shape, cannot answer for it.
  return ctx.pod.unconstrained && summaries_.Explain(ctx.pod, ctx.cluster, ctx.filters, err, preemption, rejectors);
}

}  // namespace gpusched

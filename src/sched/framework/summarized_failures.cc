#include "gpusched/sched/framework/summarized_failures.h"

namespace gpusched {

bool SummarizedFailures::Explain(const SearchContext& ctx, FitError& err, std::optional<PreemptionVerdict>& preemption,
                                 uint64_t& rejectors) {
  // A pod with a nodeName, nodeSelector, node affinity or tolerations has
  // verdicts that depend on more than its shape: the summaries, kept per
  // shape, cannot answer for it.
  return ctx.pod.unconstrained && summaries_.Explain(ctx.pod, ctx.cluster, ctx.filters, err, preemption, rejectors);
}

bool SummarizedFailures::ExplainStateful(const SearchContext& ctx, FitError& err,
                                         std::optional<PreemptionVerdict>& preemption, uint64_t& rejectors) {
  const PodInfo& pod = ctx.pod;
  if (!pod.unconstrained || pod.cycle == nullptr) return false;
  size_t first_stateful = ctx.filters.size();
  for (size_t k = 0; k < ctx.filters.size(); ++k)
    if (pod.cycle->Has(ctx.filters[k].get())) {
      first_stateful = k;
      break;
    }
  // Bit 63 stands for every filter from the 64th on.
  if (first_stateful >= 63) return false;
  PodInfo stateless = pod;
  stateless.cycle = nullptr;
  FitError e;
  std::optional<PreemptionVerdict> p;
  uint64_t r = 0;
  if (!summaries_.Explain(stateless, ctx.cluster, ctx.filters, e, p, r)) return false;
  if ((r >> first_stateful) != 0 || summaries_.last_dry_run() || (p && p->would_help)) return false;
  err = std::move(e);
  preemption = std::move(p);
  rejectors = r;
  return true;
}

}  // namespace gpusched

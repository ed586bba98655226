#include "gpusched/sched/framework/policy_index_search.h"

#include <functional>
#include <optional>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

bool PolicyIndexSearch::Find(const SearchContext& ctx, std::vector<size_t>& feasible, size_t& next_start) {
  (void)next_start;  // the policy does not rotate (Usable)
  const bool by_index = PlainNodes::Decides(chain_, ctx.pod);
  if (by_index) plain_.Sync(ctx.cluster);
  // One pointer captured: std::function keeps it inline, no allocation.
  struct Fits {
    const SearchContext* ctx;
    const PlainNodes* plain;  // null when the index does not decide
  } f{&ctx, by_index ? &plain_ : nullptr};
  // SelectIndexed asks only about present nodes whose exact free amounts
  // meet the pod's need: on a plain node, the filters' whole verdict.
  const std::function<bool(size_t)> fits = [p = &f](size_t i) {
    return (p->plain && p->plain->plain(i)) ||
           PassesFilters(p->ctx->filters, p->ctx->pod, p->ctx->cluster.node(i), p->ctx->cluster.state(i));
  };
  const std::optional<size_t> pick =
      ctx.policy.SelectIndexed(ctx.pod, ctx.cluster, fits, ctx.rng, ctx.policy_state);
  if (!pick) return false;
  // Commit takes a lone feasible node without asking Select.
  feasible.assign(1, *pick);
  return true;
}

}  // namespace gpusched

#include "gpusched/sched/framework/plain_scan.h"

#include <algorithm>
#include <string>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

size_t PlainScan::PluginIndex(const SearchContext& ctx, const FilterPlugin* p) const {
  for (size_t k = 0; k < ctx.filters.size(); ++k)
    if (ctx.filters[k].get() == p) return std::min<size_t>(k, 63);
  return 63;
}

bool PlainScan::Run(const SearchContext& ctx, PodExplain* explain, std::vector<size_t>& feasible, size_t& next_start,
                    FitError& err, std::optional<PreemptionVerdict>& preemption, uint64_t& rejectors) {
  const ClusterState& cluster = ctx.cluster;
  // Node slots, removed nodes included: those are skipped and not counted.
  const size_t n = cluster.size();
  if (explain) {
    explain->nodes.assign(n, NodeExplain{});
    for (size_t i = 0; i < n; ++i) {
      explain->nodes[i].node = i;
      explain->nodes[i].gpus_free = cluster.state(i).GpuFree();
      explain->nodes[i].gpus_total = cluster.state(i).GpuAllocatable();
    }
    explain->nodes_to_find = ctx.to_find;
    explain->start_index = ctx.start;
  }
  feasible.clear();
  tally_.Clear();
  if (preemption_) codes_.assign(n, SchedStatus::Code::kSuccess);
  // Failures are tallied from views, not built into statuses: a pod that
  // fits nowhere visits every node here.
  size_t processed = 0;
  for (size_t k = 0; k < n && static_cast<int64_t>(feasible.size()) < ctx.to_find; ++k) {
    const size_t i = (ctx.start + k) % n;
    ++processed;
    if (!cluster.present(i)) continue;
    const FilterPlugin* failed =
        ctx.nominated ? CheckFiltersWithNominated(ctx.filters, ctx.pod, cluster.node(i), i, cluster.state(i),
                                                  *ctx.nominated, verdict_, nominated_scratch_)
                      : CheckFilters(ctx.filters, ctx.pod, cluster.node(i), cluster.state(i), verdict_);
    if (explain) {
      NodeExplain& ne = explain->nodes[i];
      ne.evaluated = true;
      ne.feasible = failed == nullptr;
      if (failed) ne.failed_plugin = std::string(failed->Name());
      ne.code = verdict_.code;
      for (const ReasonView& r : verdict_.reasons) ne.reasons.push_back(r.str());
      if (failed) ne.detail = failed->ExplainNode(ctx.pod, cluster.node(i), cluster.state(i), cluster);
    }
    if (!failed) {
      feasible.push_back(i);
    } else {
      rejectors |= uint64_t{1} << PluginIndex(ctx, failed);
      tally_.Add(verdict_);
      if (preemption_) codes_[i] = verdict_.code;
    }
  }
  if (n > 0) next_start = (ctx.start + processed) % n;
  if (!feasible.empty()) return true;
  tally_.AddTo(err);
  if (preemption_) {
    PreemptionVerdict v = EvaluatePreemption(ctx.pod, cluster, ctx.filters, codes_);
    // When preemption would help, kube-scheduler nominates a node and the
    // FitError carries no post-filter message.
    if (!v.would_help) err.post_filter_message = v.message;
    preemption = std::move(v);
  }
  return false;
}

}  // namespace gpusched

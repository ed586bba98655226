#include "gpusched/sched/framework/indexed_scan.h"

#include <limits>

#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

bool IndexedScan::Find(const SearchContext& ctx, std::vector<size_t>& feasible, size_t& next_start) {
  const ClusterState& cluster = ctx.cluster;
  NodeFitIndex::Need need = NodeFitIndex::NeedOf(ctx.pod, chain_.checks_gpu_count);
  if (!chain_.checks_devices) need[NodeFitIndex::kDeviceMilli] = std::numeric_limits<int64_t>::min();
  index_.Sync(cluster);
  const bool by_index = PlainNodes::Decides(chain_, ctx.pod);
  // The filters with PreFilter state for this pod: on a plain node, the
  // only ones with a say.
  // Those whose state says how Check decides a node as counted give their
  // DomainTests instead, while the cluster is as their PreFilter saw it.
  stateful_.clear();
  tests_.clear();
  if (ctx.pod.cycle != nullptr)
    for (const auto& f : ctx.filters) {
      const PreFilterData* data = ctx.pod.cycle->Data(f.get());
      if (data == nullptr) continue;
      if (data->by_domain && data->tests_cluster == &cluster && data->tests_version == cluster.version()) {
        tests_.insert(tests_.end(), data->domain_tests.begin(), data->domain_tests.end());
      } else {
        stateful_.push_back(f.get());
      }
    }
  if (by_index) plain_.Sync(cluster);
  const size_t n = cluster.size();
  const size_t start = ctx.start;
  size_t last = 0;
  feasible.clear();
  auto visit = [&](size_t from, size_t to) {
    for (size_t i = from; static_cast<int64_t>(feasible.size()) < ctx.to_find; ++i) {
      // Most nodes meet a small pod's need: look at the next one before
      // asking the tree to jump.
      if (i >= to || !NodeFitIndex::Meets(index_.Free(i), need)) i = index_.FindFirst(i, to, need);
      if (i == NodeFitIndex::kNone) return;
      // The index returned i because it meets `need`.
      // A plain node passes every filter but those with PreFilter state.
      bool passes;
      if (by_index && plain_.plain(i)) {
        passes = true;
        for (const DomainTest& t : tests_)
          if (!t.Passes(i)) {
            passes = false;
            break;
          }
        for (const FilterPlugin* f : stateful_) {
          if (!passes) break;
          passes = f->Check(ctx.pod, cluster.node(i), cluster.state(i), nullptr);
        }
      } else {
        passes = PassesFilters(ctx.filters, ctx.pod, cluster.node(i), cluster.state(i));
      }
      if (passes) {
        feasible.push_back(i);
        last = i;
      }
    }
  };
  visit(start, n);
  visit(0, start);
  if (feasible.empty()) return false;
  // As in the plain scan: the nodes processed are those up to the one that
  // completed the feasible set, or all of them when the set stayed short.
  const size_t processed =
      static_cast<int64_t>(feasible.size()) >= ctx.to_find ? (last + n - start) % n + 1 : n;
  next_start = (start + processed) % n;
  return true;
}

}  // namespace gpusched

// The filter chain: the default chain of gpusched's simple policies in
// kube-scheduler's order (pkg/scheduler/apis/config/v1/default_plugins.go),
// and running a chain on one node the way the framework's RunFilterPlugins
// does. The plugins are made by name by the registry (registry.h).
#ifndef GPUSCHED_SCHED_PLUGINS_FILTER_CHAIN_H_
#define GPUSCHED_SCHED_PLUGINS_FILTER_CHAIN_H_

#include <memory>
#include <string_view>
#include <vector>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

// The filters of gpusched's simple policies (first-fit, best-fit, worst-fit)
// without a --config, in upstream order: NodeUnschedulable, TaintToleration,
// NodeAffinity, NodeResourcesFit, then gpusched's GpuShare.
std::vector<std::unique_ptr<FilterPlugin>> DefaultFilters();

// True when every filter of the chain declares FilterTraits::in_tree (the
// in-tree filters do): what they read of a pod is its class (pod_class.h), their verdicts
// beyond NodeResourcesFit and GpuShare's free share ignore what runs on a
// node, and a bind can only turn a node's verdict from pass to fail. The
// caches that rely on this (DiagnosisCache, the simulator's pod classes)
// serve other chains the plain way.
bool AllInTreeFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters);

// Runs `filters` in order and returns the first failure (upstream
// RunFilterPlugins stops at the first failing plugin), its plugin name set.
SchedStatus RunFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PodInfo& pod,
                       const Node& node, const NodeState& state);

// The same chain without building a status: true when every filter passes.
inline bool PassesFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PodInfo& pod,
                          const Node& node, const NodeState& state) {
  for (const auto& f : filters)
    if (!f->Check(pod, node, state, nullptr)) return false;
  return true;
}

// The same chain with the first failure's verdict in `why` (Reset first):
// the failing plugin, or nullptr when every filter passes.
inline const FilterPlugin* CheckFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                        const PodInfo& pod, const Node& node, const NodeState& state,
                                        FilterVerdict& why) {
  why.Reset();
  // A node a PreFilterResult leaves out fails before any filter runs, as the
  // plugin that named the nodes (cycle_state.h). Its own Check rejects such a
  // node too, so PassesFilters needs no such step.
  if (pod.cycle != nullptr && pod.cycle->Excludes(node.name())) {
    why.Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, pod.cycle->exclusion_reason());
    for (const auto& f : filters)
      if (f.get() == pod.cycle->restricted_by()) return f.get();
    return filters.front().get();
  }
  for (const auto& f : filters)
    if (!f->Check(pod, node, state, &why)) return f.get();
  return nullptr;
}

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_FILTER_CHAIN_H_

#include "gpusched/sched/plugins/filter_chain.h"

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {

std::vector<std::unique_ptr<FilterPlugin>> DefaultFilters() {
  std::vector<std::unique_ptr<FilterPlugin>> v;
  for (const char* n : {names::kNodeUnschedulable, names::kTaintToleration, names::kNodeAffinity,
                        names::kNodeResourcesFit, names::kGpuShare})
    v.push_back(NewFilterPlugin(n));
  return v;
}

bool AllInTreeFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  for (const auto& f : filters)
    if (!f->Traits().in_tree) return false;
  return true;
}

SchedStatus RunFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PodInfo& pod,
                       const Node& node, const NodeState& state) {
  FilterVerdict why;
  const FilterPlugin* failed = CheckFilters(filters, pod, node, state, why);
  if (!failed) return SchedStatus::Success();
  SchedStatus s = why.ToStatus();
  s.set_plugin(std::string(failed->Name()));
  return s;
}

}  // namespace gpusched

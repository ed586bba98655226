#include "gpusched/sched/plugins/filter_chain.h"

#include "gpusched/sched/plugins/gpu_share.h"
#include "gpusched/sched/plugins/node_affinity.h"
#include "gpusched/sched/plugins/node_name.h"
#include "gpusched/sched/plugins/node_resources_fit.h"
#include "gpusched/sched/plugins/node_unschedulable.h"
#include "gpusched/sched/plugins/taint_toleration.h"

namespace gpusched {

std::unique_ptr<FilterPlugin> NewFilterPlugin(std::string_view name) {
  if (name == "NodeUnschedulable") return std::make_unique<NodeUnschedulableFilter>();
  if (name == "NodeName") return std::make_unique<NodeNameFilter>();
  if (name == "TaintToleration") return std::make_unique<TaintTolerationFilter>();
  if (name == "NodeAffinity") return std::make_unique<NodeAffinityFilter>();
  if (name == "NodeResourcesFit") return std::make_unique<NodeResourcesFitFilter>();
  if (name == "GpuShare") return std::make_unique<GpuShareFilter>();
  return nullptr;
}

std::unique_ptr<FilterPlugin> NewFilterPlugin(std::string_view name, const ResolvedProfile& profile) {
  if (name == "NodeResourcesFit")
    return std::make_unique<NodeResourcesFitFilter>(profile.fit_args.ignored_resources,
                                                    profile.fit_args.ignored_resource_groups);
  return NewFilterPlugin(name);
}

std::vector<std::unique_ptr<FilterPlugin>> DefaultFilters() {
  std::vector<std::unique_ptr<FilterPlugin>> v;
  for (const char* n : {"NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodeResourcesFit", "GpuShare"})
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

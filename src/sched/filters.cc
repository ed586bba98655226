#include "gpusched/sched/filters.h"

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

SchedStatus RunFilters(const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PodInfo& pod,
                       const Node& node, const NodeState& state) {
  for (const auto& f : filters) {
    SchedStatus s = f->Filter(pod, node, state);
    if (!s.IsSuccess()) {
      s.set_plugin(std::string(f->Name()));
      return s;
    }
  }
  return SchedStatus::Success();
}

}  // namespace gpusched

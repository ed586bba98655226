// NodeResourcesFit's filter (pkg/scheduler/framework/plugins/noderesources/
// fit.go): the pod's requests must fit in what the node has free, with
// "Too many pods" and "Insufficient <resource>" reasons. Its Score half is
// node_resources_fit_score.h. NodeResourcesFitArgs.ignoredResources /
// ignoredResourceGroups name extended resources it does not check (e.g. ones
// an extender manages). Reason text: Kubernetes v1.35
// (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODE_RESOURCES_FIT_H_
#define GPUSCHED_SCHED_PLUGINS_NODE_RESOURCES_FIT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonTooManyPods = "Too many pods";

class NodeResourcesFitFilter : public FilterPlugin {
 public:
  NodeResourcesFitFilter() = default;
  NodeResourcesFitFilter(std::vector<std::string> ignored_resources, std::vector<std::string> ignored_groups)
      : ignored_resources_(std::move(ignored_resources)), ignored_groups_(std::move(ignored_groups)) {}
  std::string_view Name() const override { return "NodeResourcesFit"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // False for resources the args tell it to ignore.
  bool Checks(std::string_view resource) const { return !Ignored(resource); }
  FilterTraits Traits() const override {
    return {.in_tree = true, .checks_fit = true, .checks_gpu_count = Checks(kResourceGPU)};
  }

 private:
  bool Ignored(std::string_view resource) const;
  std::vector<std::string> ignored_resources_;
  std::vector<std::string> ignored_groups_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODE_RESOURCES_FIT_H_

// NodeResourcesBalancedAllocation (pkg/scheduler/framework/plugins/
// noderesources/balanced_allocation.go, the v1.22-v1.35 formula): score =
// int64((1 - std(fractions)) * 100) over the configured resources the node
// advertises, fraction = min(requested / allocatable, 1) with plain requests.
// Weights are ignored. PreScore skips a pod whose requests for all configured
// resources are 0 (PR #130260). Args are used as given; the registry
// (sched/plugins/registry.h) applies upstream's args defaulting first. Its
// args are decoded by DecodeNodeResourcesBalancedAllocationArgs (args.cc).
#ifndef GPUSCHED_SCHED_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
#define GPUSCHED_SCHED_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/noderesources/resource_allocation.h"

namespace gpusched {

class NodeResourcesBalancedAllocation : public ScorePlugin {
 public:
  explicit NodeResourcesBalancedAllocation(const NodeResourcesBalancedAllocationArgs& args);
  std::string_view Name() const override { return names::kNodeResourcesBalancedAllocation; }
  bool PreScore(const PodInfo& pod, const ClusterState&) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;

 private:
  bool IsBestEffort(const PodInfo& pod) const;
  void Resolve(const PodInfo& pod, std::vector<ResolvedResource>& out) const;
  static int64_t ScoreResolved(const std::vector<ResolvedResource>& rs, const NodeState& state);
  std::vector<ResourceSpec> resources_;
  std::vector<bool> scalar_name_;  // IsScalarResourceName per resource
};

// profiles[].pluginConfig[].args of NodeResourcesBalancedAllocation into
// profile.balanced_args (the v1 args: resources).
void DecodeNodeResourcesBalancedAllocationArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                               SchedulerProfile& profile);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_

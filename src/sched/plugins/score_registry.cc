// The score plugin registry: NewScorePlugin, declared in
// sched/api/score_plugin.h so that the policies (which may not include
// plugins/) can build a profile's scores, with upstream's args defaulting.
#include <memory>

#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/balanced_allocation.h"
#include "gpusched/sched/plugins/node_affinity_score.h"
#include "gpusched/sched/plugins/node_resources_fit_score.h"
#include "gpusched/sched/plugins/taint_toleration_score.h"

namespace gpusched {
namespace {

// pkg/scheduler/apis/config/v1/defaults.go: defaultResourceSpec, and "If the
// weight is not set or it is explicitly set to 0, then apply the default
// weight(1) instead." Idempotent, so an already defaulted profile is unchanged.
std::vector<ResourceSpec> DefaultedResources(std::vector<ResourceSpec> resources) {
  if (resources.empty()) {
    return {{std::string(kResourceCPU), 1}, {std::string(kResourceMemory), 1}};
  }
  for (auto& r : resources) {
    if (r.weight == 0) r.weight = 1;
  }
  return resources;
}

}  // namespace

std::unique_ptr<ScorePlugin> NewScorePlugin(std::string_view name, const ResolvedProfile& profile) {
  if (name == "NodeResourcesFit") {
    NodeResourcesFitArgs args = profile.fit_args;
    args.resources = DefaultedResources(std::move(args.resources));
    return std::make_unique<NodeResourcesFitScorer>(args);
  }
  if (name == "NodeResourcesBalancedAllocation") {
    NodeResourcesBalancedAllocationArgs args = profile.balanced_args;
    args.resources = DefaultedResources(std::move(args.resources));
    return std::make_unique<BalancedAllocationScorer>(args);
  }
  if (name == "TaintToleration") return std::make_unique<TaintTolerationScorer>();
  if (name == "NodeAffinity") return std::make_unique<NodeAffinityScorer>();
  return nullptr;
}

}  // namespace gpusched

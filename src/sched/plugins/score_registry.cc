// DefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/normalize_score.go)
// and the score plugin registry (NewScorePlugin).
#include <memory>

#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/resource_allocation.h"

namespace gpusched {
namespace {

__extension__ typedef __int128 Int128;

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

void DefaultNormalizeScore(int64_t max_priority, bool reverse, std::vector<int64_t>& scores) {
  int64_t max_count = 0;
  for (int64_t s : scores) {
    if (s > max_count) max_count = s;
  }
  if (max_count == 0) {
    if (reverse) {
      for (auto& s : scores) s = max_priority;
    }
    return;
  }
  for (auto& s : scores) {
    // The product is formed in 128 bits; the quotient is at most max_priority.
    int64_t score = static_cast<int64_t>(static_cast<Int128>(max_priority) * s / max_count);
    if (reverse) score = max_priority - score;
    s = score;
  }
}

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

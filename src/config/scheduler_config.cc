#include "gpusched/config/scheduler_config.h"

namespace gpusched {

const char* ScoringStrategyName(ScoringStrategyType t) {
  switch (t) {
    case ScoringStrategyType::kLeastAllocated: return "LeastAllocated";
    case ScoringStrategyType::kMostAllocated: return "MostAllocated";
    case ScoringStrategyType::kRequestedToCapacityRatio: return "RequestedToCapacityRatio";
  }
  return "";
}

std::optional<ScoringStrategyType> ParseScoringStrategy(std::string_view name) {
  // Case-sensitive, as the typed constants of pkg/scheduler/apis/config are.
  if (name == "LeastAllocated") return ScoringStrategyType::kLeastAllocated;
  if (name == "MostAllocated") return ScoringStrategyType::kMostAllocated;
  if (name == "RequestedToCapacityRatio") return ScoringStrategyType::kRequestedToCapacityRatio;
  return std::nullopt;
}

KubeSchedulerConfiguration DefaultSchedulerConfiguration() {
  KubeSchedulerConfiguration c;
  SetDefaults(c);
  return c;
}

}  // namespace gpusched

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

}  // namespace gpusched

// src/config/scheduler_config.cc: the ScoringStrategyType names
// (pkg/scheduler/apis/config/types_pluginargs.go LeastAllocated,
// MostAllocated, RequestedToCapacityRatio; matched case-sensitively as the
// typed constants are) and DefaultSchedulerConfiguration.
#include <gtest/gtest.h>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {
namespace {

TEST(SchedulerConfigTest, ScoringStrategyNames) {
  for (ScoringStrategyType t : {ScoringStrategyType::kLeastAllocated, ScoringStrategyType::kMostAllocated,
                                ScoringStrategyType::kRequestedToCapacityRatio}) {
    EXPECT_EQ(ParseScoringStrategy(ScoringStrategyName(t)), t);
  }
  EXPECT_EQ(std::string(ScoringStrategyName(ScoringStrategyType::kRequestedToCapacityRatio)),
            "RequestedToCapacityRatio");
  EXPECT_FALSE(ParseScoringStrategy("mostallocated"));
  EXPECT_FALSE(ParseScoringStrategy(""));
  EXPECT_FALSE(ParseScoringStrategy("LeastAllocated "));
}

TEST(SchedulerConfigTest, DefaultSchedulerConfigurationResolves) {
  KubeSchedulerConfiguration c = DefaultSchedulerConfiguration();
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_FALSE(FrameworkError(c, 0));
  EXPECT_EQ(ResolveProfile(c, 0).queue_sort, "PrioritySort");
}

}  // namespace
}  // namespace gpusched

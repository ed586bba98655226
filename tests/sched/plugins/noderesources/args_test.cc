// src/sched/plugins/noderesources/args.cc: the v1 NodeResourcesFitArgs and
// NodeResourcesBalancedAllocationArgs as their decoders read them (as given:
// defaulting and validation are the configuration's, tested in
// tests/config/). The loader's test reads the same args from files.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/noderesources/balanced_allocation.h"
#include "gpusched/sched/plugins/noderesources/fit.h"
#include "../fake_args_reader.h"

namespace gpusched {
namespace {

std::string Specs(const std::vector<ResourceSpec>& v) {
  std::string s;
  for (const ResourceSpec& r : v) s += (s.empty() ? "" : ",") + r.name + "=" + std::to_string(r.weight);
  return s;
}

TEST(NodeResourcesArgsTest, FitArgs) {
  testing::FakeArgsReader r(nlohmann::json::parse(R"({
    "ignoredResources": ["example.com/foo"], "ignoredResourceGroups": ["vendor.io"],
    "scoringStrategy": {"type": "RequestedToCapacityRatio",
                        "resources": [{"name": "nvidia.com/gpu", "weight": 3}, {"name": "cpu"}],
                        "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0},
                                                               {"utilization": 100, "score": 10}]}},
    "extra": true})"));
  SchedulerProfile profile;
  profile.fit_args.ignored_resources = {"left over"};  // a decoded entry replaces what was there
  DecodeNodeResourcesFitArgs(r, r.root(), "a", profile);
  const NodeResourcesFitArgs& a = profile.fit_args;
  EXPECT_EQ(a.ignored_resources, (std::vector<std::string>{"example.com/foo"}));
  EXPECT_EQ(a.ignored_resource_groups, (std::vector<std::string>{"vendor.io"}));
  EXPECT_EQ(a.type, ScoringStrategyType::kRequestedToCapacityRatio);
  EXPECT_FALSE(a.unsupported_type);
  EXPECT_EQ(Specs(a.resources), "nvidia.com/gpu=3,cpu=0");  // weight 0 until defaulting
  EXPECT_TRUE(a.has_requested_to_capacity_ratio);
  ASSERT_EQ(a.shape.size(), 2u);
  EXPECT_EQ(a.shape[1].utilization, 100);
  EXPECT_EQ(a.shape[1].score, 10);
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"unknown field a.extra"}));
  EXPECT_TRUE(r.errors.empty());
}

TEST(NodeResourcesArgsTest, FitArgsWithoutOrWithAnUnknownStrategy) {
  {
    testing::FakeArgsReader r(nlohmann::json::parse("{}"));
    SchedulerProfile profile;
    DecodeNodeResourcesFitArgs(r, r.root(), "a", profile);
    // Defaulting supplies {LeastAllocated, cpu, memory} later.
    EXPECT_EQ(profile.fit_args.type, ScoringStrategyType::kLeastAllocated);
    EXPECT_TRUE(profile.fit_args.resources.empty());
    EXPECT_FALSE(profile.fit_args.has_requested_to_capacity_ratio);
  }
  {
    testing::FakeArgsReader r(nlohmann::json::parse(R"({"scoringStrategy": {"type": "Fastest"}})"));
    SchedulerProfile profile;
    DecodeNodeResourcesFitArgs(r, r.root(), "a", profile);
    EXPECT_EQ(profile.fit_args.unsupported_type, "Fastest");  // validation refuses it
  }
}

TEST(NodeResourcesArgsTest, BalancedAllocationArgs) {
  testing::FakeArgsReader r(
      nlohmann::json::parse(R"({"resources": [{"name": "nvidia.com/gpu", "weight": 2, "unit": "x"}]})"));
  SchedulerProfile profile;
  DecodeNodeResourcesBalancedAllocationArgs(r, r.root(), "a", profile);
  EXPECT_EQ(Specs(profile.balanced_args.resources), "nvidia.com/gpu=2");
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"unknown field a.resources[0].unit"}));
}

}  // namespace
}  // namespace gpusched

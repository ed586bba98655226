// DynamicResources' Filter (src/sched/plugins/dynamic_resources.cc): a pod
// with resource claims fails on every node with "cannot allocate all claims"
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go). Its
// PreEnqueue and PreFilter: tests/sched/framework/dynamic_resources_verdict_test.cc.
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../test_util.h"

namespace gpusched {
namespace {

using testing::ClaimPod;
using testing::GpuNode;
using testing::GpuPod;

TEST(DynamicResourcesTest, FilterPlugin) {
  ClusterState c({GpuNode("a", 1)});
  DynamicResources f;
  EXPECT_EQ(f.Name(), "DynamicResources");
  Pod plain = GpuPod("p", 1);
  EXPECT_TRUE(f.Filter(PodInfo::Make(plain, 0), c.node(0), c.state(0)).IsSuccess());
  Pod claims = ClaimPod({{"gpu", "x", "", "", false}});
  SchedStatus st = f.Filter(PodInfo::Make(claims, 0), c.node(0), c.state(0));
  EXPECT_EQ(st.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(st.reasons(), std::vector<std::string>{"cannot allocate all claims"});
}

}  // namespace
}  // namespace gpusched

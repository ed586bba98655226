// NodeUnschedulable filter. Cases follow upstream's table in
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go;
// reasons are v1.35's.
#include "gpusched/sched/plugins/nodeunschedulable/node_unschedulable.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../test_util.h"
#include "../filter_test_util.h"

namespace gpusched {
namespace {

using Code = SchedStatus::Code;
using testing::RunOne;

TEST(NodeUnschedulableFilterTest, Table) {
  NodeUnschedulable f;
  Pod plain = testing::ResourcePod({});
  Pod tolerant = plain;
  tolerant.tolerations.push_back({"node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"});
  Node cordoned;
  cordoned.unschedulable = true;
  Node open;
  struct Case {
    const char* name;
    const Pod& pod;
    const Node& node;
    Code code;
  } cases[] = {
      {"Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)", plain, cordoned,
       Code::kUnschedulableAndUnresolvable},
      {"Schedule pod to normal node", plain, open, Code::kSuccess},
      {"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)", tolerant, cordoned,
       Code::kSuccess},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, c.node);
    EXPECT_EQ(s.code(), c.code);
    if (!s.IsSuccess()) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) were unschedulable"});
    }
  }
}

}  // namespace
}  // namespace gpusched

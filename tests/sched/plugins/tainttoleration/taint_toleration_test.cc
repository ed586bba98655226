// TaintToleration filter. Cases follow upstream's table in
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// (TestTaintTolerationFilter); reasons are v1.35's.
#include "gpusched/sched/plugins/tainttoleration/taint_toleration.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../test_util.h"
#include "../filter_test_util.h"

namespace gpusched {
namespace {

using Code = SchedStatus::Code;
using testing::RunOne;

Node Tainted(std::vector<Taint> taints) {
  Node n;
  n.meta.name = "n";
  n.taints = std::move(taints);
  return n;
}

Pod Tolerating(std::vector<Toleration> ts) {
  Pod p = testing::ResourcePod({});
  p.tolerations = std::move(ts);
  return p;
}

TEST(TaintTolerationFilterTest, Table) {
  TaintToleration f;
  struct Case {
    const char* name;
    Pod pod;
    Node node;
    bool fits;
  } cases[] = {
      {"A pod having no tolerations can't be scheduled onto a node with nonempty taints", Tolerating({}),
       Tainted({{"dedicated", "user1", "NoSchedule"}}), false},
      {"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
       Tolerating({{"dedicated", "Equal", "user1", "NoSchedule"}}), Tainted({{"dedicated", "user1", "NoSchedule"}}),
       true},
      {"A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
       Tolerating({{"dedicated", "Equal", "user2", "NoSchedule"}}), Tainted({{"dedicated", "user1", "NoSchedule"}}),
       false},
      {"A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the "
       "node",
       Tolerating({{"foo", "Exists", "", "NoSchedule"}}), Tainted({{"foo", "bar", "NoSchedule"}}), true},
      {"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled "
       "onto the node",
       Tolerating({{"dedicated", "Equal", "user2", "NoSchedule"}, {"foo", "Exists", "", "NoSchedule"}}),
       Tainted({{"dedicated", "user2", "NoSchedule"}, {"foo", "bar", "NoSchedule"}}), true},
      {"A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't "
       "match, can't be scheduled onto the node",
       Tolerating({{"foo", "Equal", "bar", "PreferNoSchedule"}}), Tainted({{"foo", "bar", "NoSchedule"}}), false},
      {"The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, "
       "and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
       Tolerating({{"foo", "Equal", "bar", ""}}), Tainted({{"foo", "bar", "NoSchedule"}}), true},
      {"The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node "
       "is PreferNoSchedule. Pod can be scheduled onto the node",
       Tolerating({{"dedicated", "Equal", "user2", "NoSchedule"}}), Tainted({{"dedicated", "user1", "PreferNoSchedule"}}),
       true},
      {"The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the "
       "node",
       Tolerating({}), Tainted({{"dedicated", "user1", "PreferNoSchedule"}}), true},
      {"NoExecute taints block too", Tolerating({}), Tainted({{"nvidia.com/gpu", "present", "NoExecute"}}), false},
      {"An empty key with Exists tolerates everything", Tolerating({{"", "Exists", "", ""}}),
       Tainted({{"a", "b", "NoSchedule"}, {"c", "", "NoExecute"}}), true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, c.node);
    EXPECT_EQ(s.IsSuccess(), c.fits);
    if (!c.fits) {
      EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) had untolerated taint(s)"});
    }
  }
}

}  // namespace
}  // namespace gpusched

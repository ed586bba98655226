// NodeName filter and its queueing hint. Cases follow upstream's table in
// pkg/scheduler/framework/plugins/nodename/node_name_test.go (TestNodeName);
// the reason is v1.35's ErrReason.
#include "gpusched/sched/plugins/nodename/node_name.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../test_util.h"
#include "../filter_test_util.h"

namespace gpusched {
namespace {

using Code = SchedStatus::Code;
using testing::RunOne;

TEST(NodeNameFilterTest, Table) {
  NodeName f;
  Pod anywhere = testing::ResourcePod({});
  Pod on_foo = anywhere;
  on_foo.node_name = "foo";
  Pod on_bar = anywhere;
  on_bar.node_name = "bar";
  Node foo;
  foo.meta.name = "foo";
  struct Case {
    const char* name;
    const Pod& pod;
    Code code;
  } cases[] = {
      {"no host specified", anywhere, Code::kSuccess},
      {"host matches", on_foo, Code::kSuccess},
      {"host doesn't match", on_bar, Code::kUnschedulableAndUnresolvable},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, foo);
    EXPECT_EQ(s.code(), c.code);
    if (!s.IsSuccess()) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) didn't match the requested node name"});
    }
    // isSchedulableAfterNodeAdd: Queue exactly when the added node fits.
    EXPECT_EQ(f.QueueOnNodeAdded(PodInfo::Make(c.pod, 0), foo, NodeState{}), s.IsSuccess());
  }
  EXPECT_FALSE(f.QueueOnAssignedPodDeleted());
}

}  // namespace
}  // namespace gpusched

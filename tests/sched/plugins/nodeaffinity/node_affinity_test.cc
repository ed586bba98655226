// NodeAffinity filter, nodeSelector part. Cases follow upstream's
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go
// (nodeSelector cases); reasons are v1.35's.
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../../test_util.h"
#include "../filter_test_util.h"

namespace gpusched {
namespace {

using testing::RunOne;

TEST(NodeAffinityFilterTest, NodeSelector) {
  NodeAffinityPlugin f;
  auto pod_sel = [](std::map<std::string, std::string, std::less<>> sel) {
    Pod p = testing::ResourcePod({});
    p.node_selector = std::move(sel);
    return p;
  };
  auto node_lbl = [](std::map<std::string, std::string, std::less<>> l) {
    Node n;
    n.meta.labels = std::move(l);
    return n;
  };
  struct Case {
    const char* name;
    Pod pod;
    Node node;
    bool fits;
  } cases[] = {
      {"no selector", pod_sel({}), node_lbl({}), true},
      {"missing labels", pod_sel({{"foo", "bar"}}), node_lbl({}), false},
      {"same labels", pod_sel({{"foo", "bar"}}), node_lbl({{"foo", "bar"}}), true},
      {"node labels are superset", pod_sel({{"foo", "bar"}}), node_lbl({{"foo", "bar"}, {"baz", "blah"}}), true},
      {"node labels are subset", pod_sel({{"foo", "bar"}, {"baz", "blah"}}), node_lbl({{"foo", "bar"}}), false},
      {"GPU product label", pod_sel({{"nvidia.com/gpu.product", "A100"}}),
       node_lbl({{"nvidia.com/gpu.product", "T4"}}), false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    SchedStatus s = RunOne(f, c.pod, c.node);
    EXPECT_EQ(s.IsSuccess(), c.fits);
    if (!c.fits) {
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
    }
  }
}

}  // namespace
}  // namespace gpusched

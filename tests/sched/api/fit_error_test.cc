// FitError.Error() as in k8s.io/kubernetes pkg/scheduler/framework/types.go;
// cases follow its table in types_test.go (TestFitError_Error) and
// ../shared/reference/kube-scheduler.md section 6.
#include "gpusched/sched/api/fit_error.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

using Code = SchedStatus::Code;

struct FitErrorCase {
  const char* name;
  int64_t num_nodes;
  std::vector<SchedStatus> statuses;
  std::string post_filter;
  std::string want;
};

TEST(FitErrorTest, Messages) {
  const FitErrorCase cases[] = {
      {"no nodes", 0, {}, "", "no nodes available to schedule pods"},
      {"one reason on every node",
       2,
       {SchedStatus(Code::kUnschedulable, {"Insufficient nvidia.com/gpu"}),
        SchedStatus(Code::kUnschedulable, {"Insufficient nvidia.com/gpu"})},
       "",
       "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."},
      {"a node with two reasons counts once under each",
       3,
       {SchedStatus(Code::kUnschedulable, {"Insufficient cpu", "Insufficient nvidia.com/gpu"}),
        SchedStatus(Code::kUnschedulable, {"Insufficient nvidia.com/gpu"}),
        SchedStatus(Code::kUnschedulableAndUnresolvable, {"node(s) were unschedulable"})},
       "",
       "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu."},
      {"histogram is sorted byte-wise on \"count reason\"",
       15,
       [] {
         std::vector<SchedStatus> v;
         for (int i = 0; i < 12; ++i) v.push_back(SchedStatus(Code::kUnschedulable, {"Insufficient memory"}));
         for (int i = 0; i < 3; ++i) v.push_back(SchedStatus(Code::kUnschedulable, {"Insufficient cpu"}));
         return v;
       }(),
       "",
       "0/15 nodes are available: 12 Insufficient memory, 3 Insufficient cpu."},
      {"post-filter message appended without a period (v1.35 example)",
       3,
       {SchedStatus(Code::kUnschedulableAndUnresolvable, {"Insufficient nvidia.com/gpu"}),
        SchedStatus(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"}),
        SchedStatus(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"})},
       "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
       "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint(s). preemption: 0/3 "
       "nodes are available: 3 Preemption is not helpful for scheduling."},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    FitError e;
    e.num_all_nodes = c.num_nodes;
    for (const auto& s : c.statuses) e.AddNodeStatus(s);
    e.post_filter_message = c.post_filter;
    EXPECT_EQ(e.Error(), c.want);
  }
}

TEST(FitErrorTest, CountsUnresolvableNodes) {
  FitError e;
  e.num_all_nodes = 3;
  e.AddNodeStatus(SchedStatus(Code::kUnschedulable, {"Insufficient cpu"}));
  e.AddNodeStatus(SchedStatus(Code::kUnschedulableAndUnresolvable, {"Insufficient nvidia.com/gpu"}));
  e.AddNodeStatus(SchedStatus(Code::kUnschedulableAndUnresolvable, {"node(s) were unschedulable"}));
  EXPECT_EQ(e.unresolvable_nodes, 2);
}

}  // namespace
}  // namespace gpusched

// Ours: allocation-free filter verdicts and the reason tally that turns
// them into a FitError (src/sched/api/filter_verdict.cc).
#include "gpusched/sched/api/filter_verdict.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

using Code = SchedStatus::Code;

TEST(FilterVerdictTest, ReasonViewSpellsTextThenSuffix) {
  struct Case {
    ReasonView view;
    std::string want;
  };
  const Case cases[] = {
      {{"Insufficient cpu", {}}, "Insufficient cpu"},
      {{"Insufficient ", "example.com/foo"}, "Insufficient example.com/foo"},
      {{{}, {}}, ""},
  };
  for (const Case& c : cases) EXPECT_EQ(c.view.str(), c.want);
  // Equality compares the parts, not the spelling.
  EXPECT_EQ((ReasonView{"a", "b"}), (ReasonView{"a", "b"}));
  EXPECT_FALSE((ReasonView{"ab", {}}) == (ReasonView{"a", "b"}));
}

TEST(FilterVerdictTest, FailResetAndToStatus) {
  FilterVerdict v;
  EXPECT_TRUE(v.ToStatus().IsSuccess());
  v.Fail(Code::kUnschedulable, "Too many pods");
  v.Fail(Code::kUnschedulableAndUnresolvable, "Insufficient ", "nvidia.com/gpu");
  const SchedStatus s = v.ToStatus();
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons(), (std::vector<std::string>{"Too many pods", "Insufficient nvidia.com/gpu"}));
  EXPECT_EQ(s.plugin(), "");
  v.Reset();
  EXPECT_EQ(v.code, Code::kSuccess);
  EXPECT_TRUE(v.reasons.empty());
}

// As FitError::AddNodeStatus: each reason of each node once; views that
// spell the same string are one reason in the message.
TEST(FilterVerdictTest, TallyCountsLikeAddNodeStatus) {
  struct Node {
    Code code;
    std::vector<ReasonView> reasons;
  };
  const std::vector<Node> nodes = {
      {Code::kUnschedulable, {{"Insufficient cpu", {}}, {"Insufficient ", "nvidia.com/gpu"}}},
      {Code::kUnschedulable, {{"Insufficient ", "cpu"}}},
      {Code::kUnschedulableAndUnresolvable, {{"node(s) had untolerated taint(s)", {}}}},
      {Code::kUnschedulableAndUnresolvable, {{"Insufficient nvidia.com/gpu", {}}}},
  };
  ReasonTally tally;
  FitError via_status;
  via_status.num_all_nodes = 5;
  for (const Node& n : nodes) {
    FilterVerdict v;
    for (const ReasonView& r : n.reasons) v.Fail(n.code, r.text, r.suffix);
    tally.Add(v);
    via_status.AddNodeStatus(v.ToStatus());
  }
  tally.Add(Code::kUnschedulableAndUnresolvable, "node(s) were unschedulable");
  via_status.AddNodeStatus(SchedStatus::Unresolvable("node(s) were unschedulable"));
  FitError err;
  err.num_all_nodes = 5;
  tally.AddTo(err);
  EXPECT_EQ(err.reason_counts, via_status.reason_counts);
  EXPECT_EQ(err.unresolvable_nodes, 3);
  EXPECT_EQ(err.Error(),
            "0/5 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 "
            "Insufficient cpu, 2 Insufficient nvidia.com/gpu.");
  tally.Clear();
  FitError empty;
  tally.AddTo(empty);
  EXPECT_TRUE(empty.reason_counts.empty());
  EXPECT_EQ(empty.unresolvable_nodes, 0);
}

}  // namespace
}  // namespace gpusched

// Tests for src/model/scheduling_gates.cc. Upstream sources:
//   kubernetes pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates_test.go
//     (TestPreEnqueue: gates foo, bar -> "waiting for scheduling gates: [foo bar]")
//   kubernetes pkg/registry/core/pod/strategy_test.go (TestSchedulingGatedCondition)
//   kubernetes pkg/apis/core/validation/validation.go (validateSchedulingGates,
//     ValidatePodCreate's nodeName rule)
#include "gpusched/model/scheduling_gates.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

Pod GatedPod(std::vector<std::string> gates, std::string node = "") {
  Pod p;
  p.meta.name = "p";
  p.node_name = std::move(node);
  auto e = std::make_shared<PodSpecExtras>();
  e->scheduling_gates = std::move(gates);
  p.extras = std::move(e);
  return p;
}

std::vector<std::string> Strings(const std::vector<FieldError>& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(SchedulingGatesTest, PreEnqueueMessage) {
  EXPECT_EQ(SchedulingGatesStatusMessage({"foo", "bar"}), "waiting for scheduling gates: [foo bar]");
  EXPECT_EQ(SchedulingGatesStatusMessage({"example.com/quota"}), "waiting for scheduling gates: [example.com/quota]");
}

TEST(SchedulingGatesTest, ConditionConstants) {
  EXPECT_STREQ(kReasonSchedulingGated, "SchedulingGated");
  EXPECT_STREQ(kSchedulingGatedMessage, "Scheduling is blocked due to non-empty scheduling gates");
}

TEST(SchedulingGatesTest, Validation) {
  struct Case {
    std::string name;
    std::vector<std::string> gates;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"none", {}, {}},
      {"qualified names", {"foo", "example.com/bar", "a.b-c_d"}, {}},
      {"duplicate", {"foo", "bar", "foo"}, {"spec.schedulingGates[2]: Duplicate value: \"foo\""}},
      {"empty name",
       {""},
       {"spec.schedulingGates[0]: Invalid value: \"\": name part must be non-empty",
        "spec.schedulingGates[0]: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
      {"two slashes",
       {"a/b/c"},
       {"spec.schedulingGates[0]: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
        "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
        "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
  };
  for (const auto& c : cases) {
    std::vector<FieldError> errs;
    ValidateSchedulingGates(c.gates, "spec.schedulingGates", errs);
    EXPECT_EQ(Strings(errs), c.want) << c.name;
  }
}

TEST(SchedulingGatesTest, NodeNameForbiddenWhileGated) {
  std::vector<FieldError> errs;
  ValidateGatedNodeName(GatedPod({"foo"}, "node-1"), "spec", errs);
  EXPECT_EQ(Strings(errs),
            std::vector<std::string>{
                "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"});
  errs.clear();
  ValidateGatedNodeName(GatedPod({}, "node-1"), "spec", errs);
  ValidateGatedNodeName(GatedPod({"foo"}), "spec", errs);
  EXPECT_TRUE(errs.empty());
}

TEST(SchedulingGatesTest, PodIsGated) {
  EXPECT_TRUE(GatedPod({"foo"}).IsSchedulingGated());
  EXPECT_FALSE(GatedPod({}).IsSchedulingGated());
  EXPECT_FALSE(Pod().IsSchedulingGated());
}

}  // namespace
}  // namespace gpusched

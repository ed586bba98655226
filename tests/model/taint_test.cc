// Tests for gpusched::ToleratesTaint and TolerationsTolerateTaint
// (src/model/taint.cc).
//
// Upstream sources:
//   github.com/kubernetes/api at tag kubernetes-1.35.0
//   (9afe7de0a56c582b06ca094f7309015bc84657a7):
//     core/v1/toleration.go (Toleration.ToleratesTaint) and
//     core/v1/toleration_test.go (TestTolerationToleratesTaint)
//   github.com/kubernetes/component-helpers at tag kubernetes-1.35.0:
//     scheduling/corev1/helpers.go (TolerationsTolerateTaint) and
//     scheduling/corev1/helpers_test.go (TestFindMatchingUntoleratedTaint)
//
// In v1.35 ToleratesTaint takes enableComparisonOperators, the
// TaintTolerationComparisonOperators feature gate (alpha, off by default),
// and with it off the Lt and Gt operators never match. gpusched follows the
// default gate, so upstream's Lt/Gt cases, which run with the gate on, are
// ported with the gate-off result: not tolerated. The two whose upstream
// expectation is "tolerated" are marked.
#include "gpusched/model/taint.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

struct Case {
  const char* description;
  Toleration toleration;  // key, operator, value, effect
  Taint taint;            // key, value, effect
  bool expect_tolerated;
};

// toleration_test.go TestTolerationToleratesTaint.
TEST(TolerationTest, UpstreamToleratesTaint) {
  const std::vector<Case> cases = {
      {"same key and effect, Exists, taint has no value", {"foo", "Exists", "", "NoSchedule"},
       {"foo", "", "NoSchedule"}, true},
      {"same key and effect, Exists, taint has some value", {"foo", "Exists", "", "NoSchedule"},
       {"foo", "bar", "NoSchedule"}, true},
      {"same effect, empty key with Exists matches all taints", {"", "Exists", "", "NoSchedule"},
       {"foo", "bar", "NoSchedule"}, true},
      {"same key, effect and value, Equal", {"foo", "Equal", "bar", "NoSchedule"}, {"foo", "bar", "NoSchedule"}, true},
      {"same key and effect, different values, Equal", {"foo", "Equal", "value1", "NoSchedule"},
       {"foo", "value2", "NoSchedule"}, false},
      {"same key and value, different effects, Equal", {"foo", "Equal", "bar", "NoSchedule"},
       {"foo", "bar", "NoExecute"}, false},
      {"Gt, taint value less than toleration value", {"node.kubernetes.io/sla", "Gt", "950", "NoSchedule"},
       {"node.kubernetes.io/sla", "800", "NoSchedule"}, false},
      // Upstream (gate on): tolerated. Gate off: Gt never matches.
      {"Gt, taint value greater than toleration value", {"node.kubernetes.io/sla", "Gt", "750", "NoSchedule"},
       {"node.kubernetes.io/sla", "950", "NoSchedule"}, false},
      {"Lt, taint value greater than toleration value", {"node.kubernetes.io/sla", "Lt", "800", "NoSchedule"},
       {"node.kubernetes.io/sla", "950", "NoSchedule"}, false},
      // Upstream (gate on): tolerated. Gate off: Lt never matches.
      {"Lt, taint value less than toleration value", {"node.kubernetes.io/sla", "Lt", "950", "NoSchedule"},
       {"node.kubernetes.io/sla", "800", "NoSchedule"}, false},
      {"Gt, equal numeric value", {"node.kubernetes.io/sla", "Gt", "950", "NoSchedule"},
       {"node.kubernetes.io/sla", "950", "NoSchedule"}, false},
      {"Gt, non-numeric taint value", {"node.kubernetes.io/sla", "Gt", "950", "NoSchedule"},
       {"node.kubernetes.io/sla", "high", "NoSchedule"}, false},
      {"Gt, negative values, taint below threshold", {"test-key", "Gt", "-100", "NoSchedule"},
       {"test-key", "-200", "NoSchedule"}, false},
      {"Gt, large int64 values, taint below threshold", {"test-key", "Gt", "9223372036854775806", "NoSchedule"},
       {"test-key", "100", "NoSchedule"}, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.description);
    EXPECT_EQ(ToleratesTaint(c.toleration, c.taint), c.expect_tolerated);
  }
}

// The rules of toleration.go's doc comment, one at a time (ours): an empty
// effect matches every effect, an empty operator means Equal, an empty key
// (with Exists) matches every key, and an unknown operator matches nothing.
TEST(TolerationTest, MatchingRules) {
  const std::vector<Case> cases = {
      {"empty effect matches NoSchedule", {"foo", "Equal", "bar", ""}, {"foo", "bar", "NoSchedule"}, true},
      {"empty effect matches NoExecute", {"foo", "Exists", "", ""}, {"foo", "x", "NoExecute"}, true},
      {"empty effect matches PreferNoSchedule", {"foo", "Exists", "", ""}, {"foo", "", "PreferNoSchedule"}, true},
      {"empty operator means Equal, values equal", {"foo", "", "bar", "NoSchedule"}, {"foo", "bar", "NoSchedule"}, true},
      {"empty operator means Equal, values differ", {"foo", "", "bar", "NoSchedule"}, {"foo", "baz", "NoSchedule"},
       false},
      {"Equal with empty values", {"foo", "Equal", "", "NoSchedule"}, {"foo", "", "NoSchedule"}, true},
      {"keys differ", {"foo", "Exists", "", "NoSchedule"}, {"bar", "", "NoSchedule"}, false},
      {"keys are case-sensitive", {"Foo", "Exists", "", ""}, {"foo", "", "NoSchedule"}, false},
      {"empty key and effect with Exists tolerates everything", {"", "Exists", "", ""},
       {"node.kubernetes.io/unschedulable", "", "NoSchedule"}, true},
      {"empty key with Exists still checks the effect", {"", "Exists", "", "NoExecute"},
       {"nvidia.com/gpu", "present", "NoSchedule"}, false},
      // Validation rejects an empty key without Exists; if one gets here it
      // matches any key whose value equals its own.
      {"empty key with Equal compares values only", {"", "Equal", "v", ""}, {"any", "v", "NoSchedule"}, true},
      {"unknown operator", {"foo", "In", "bar", "NoSchedule"}, {"foo", "bar", "NoSchedule"}, false},
      {"GPU node taint, Exists toleration", {"nvidia.com/gpu", "Exists", "", "NoSchedule"},
       {"nvidia.com/gpu", "present", "NoSchedule"}, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.description);
    EXPECT_EQ(ToleratesTaint(c.toleration, c.taint), c.expect_tolerated);
  }
}

// helpers.go TolerationsTolerateTaint: any one toleration is enough. Cases
// from helpers_test.go TestFindMatchingUntoleratedTaint, taken one taint at a
// time (that test asks whether every filtered taint is tolerated).
TEST(TolerationTest, TolerationsTolerateTaint) {
  struct ListCase {
    const char* description;
    std::vector<Toleration> tolerations;
    Taint taint;
    bool expect;
  };
  const std::vector<ListCase> cases = {
      {"tolerations match the taint", {{"foo", "Exists", "", "NoSchedule"}}, {"foo", "", "NoSchedule"}, true},
      {"tolerations don't match the taint", {{"foo", "Exists", "", "NoSchedule"}}, {"bar", "", "NoSchedule"}, false},
      {"NoExecute toleration matches the NoExecute taint", {{"foo", "Exists", "", "NoExecute"}},
       {"foo", "", "NoExecute"}, true},
      {"NoExecute toleration does not match the NoSchedule taint", {{"foo", "Exists", "", "NoExecute"}},
       {"bar", "", "NoSchedule"}, false},
      {"no tolerations", {}, {"foo", "", "NoSchedule"}, false},
      {"second toleration matches", {{"foo", "Exists", "", "NoSchedule"}, {"bar", "Equal", "v", ""}},
       {"bar", "v", "NoExecute"}, true},
      {"numeric Gt with its gate off", {{"node.kubernetes.io/sla", "Gt", "750", "NoSchedule"}},
       {"node.kubernetes.io/sla", "950", "NoSchedule"}, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.description);
    EXPECT_EQ(TolerationsTolerateTaint(c.tolerations, c.taint), c.expect);
  }
}

}  // namespace
}  // namespace gpusched

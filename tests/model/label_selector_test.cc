#include "gpusched/model/label_selector.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

// k8s.io/apimachinery/pkg/apis/meta/v1 helpers_test.go
// (TestLabelSelectorAsSelector) and labels/selector_test.go
// (TestRequirementMatches), as matching results.
TEST(LabelSelectorTest, MatchesAsLabelSelectorAsSelector) {
  const LabelMap labels = {{"foo", "bar"}, {"baz", "blah"}};
  struct Case {
    const char* name;
    LabelSelector sel;
    bool matches;
  };
  const Case cases[] = {
      {"empty selects everything", {}, true},
      {"matchLabels equal", {{{"foo", "bar"}}, {}}, true},
      {"matchLabels other value", {{{"foo", "baz"}}, {}}, false},
      {"matchLabels missing key", {{{"qux", "bar"}}, {}}, false},
      {"In", {{}, {{"foo", "In", {"bar", "baz"}}}}, true},
      {"In other values", {{}, {{"foo", "In", {"baz"}}}}, false},
      {"In missing key", {{}, {{"qux", "In", {"bar"}}}}, false},
      {"NotIn", {{}, {{"foo", "NotIn", {"baz"}}}}, true},
      {"NotIn listed", {{}, {{"foo", "NotIn", {"bar"}}}}, false},
      {"NotIn missing key matches", {{}, {{"qux", "NotIn", {"bar"}}}}, true},
      {"Exists", {{}, {{"foo", "Exists", {}}}}, true},
      {"Exists missing", {{}, {{"qux", "Exists", {}}}}, false},
      {"DoesNotExist", {{}, {{"qux", "DoesNotExist", {}}}}, true},
      {"DoesNotExist present", {{}, {{"foo", "DoesNotExist", {}}}}, false},
      {"all requirements ANDed", {{{"foo", "bar"}}, {{"baz", "In", {"nope"}}}}, false},
      {"unknown operator matches nothing", {{}, {{"foo", "Equals", {"bar"}}}}, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(SelectorMatches(c.sel, labels), c.matches);
  }
}

std::string Errors(const LabelSelector& s) {
  std::vector<FieldError> errs;
  ValidateLabelSelector(s, "spec.selector", errs);
  std::string out;
  for (const auto& e : errs) out += e.ToString() + "\n";
  return out;
}

// apimachinery/pkg/apis/meta/v1/validation ValidateLabelSelectorRequirement.
TEST(LabelSelectorTest, ValidationMessages) {
  EXPECT_EQ(Errors({{{"app", "web"}}, {{"tier", "In", {"a"}}}}), "");
  EXPECT_EQ(Errors({{}, {{"tier", "In", {}}}}),
            "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or "
            "'NotIn'\n");
  EXPECT_EQ(Errors({{}, {{"tier", "Exists", {"a"}}}}),
            "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' "
            "or 'DoesNotExist'\n");
  EXPECT_EQ(Errors({{}, {{"tier", "Equals", {"a"}}}}),
            "spec.selector.matchExpressions[0].operator: Invalid value: \"Equals\": not a valid selector operator\n");
  EXPECT_EQ(Errors({{}, {{"tier", "In", {"a b"}}}}),
            "spec.selector.matchExpressions[0].values[0]: Invalid value: \"a b\": a valid label must be an empty "
            "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
            "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n");
}

TEST(LabelSelectorTest, GoMapRendering) {
  EXPECT_EQ(GoLabelMap({}), "map[string]string{}");
  EXPECT_EQ(GoLabelMap({{"tier", "gpu"}, {"app", "web"}}), "map[string]string{\"app\":\"web\", \"tier\":\"gpu\"}");
}

}  // namespace
}  // namespace gpusched

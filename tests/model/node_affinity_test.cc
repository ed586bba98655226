// Node selector term matching, cases after
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
// (TestNodeSelectorMatch, TestNodeMatchesNodeSelectorTerms).
#include "gpusched/model/node_affinity.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

Node Labeled(std::map<std::string, std::string, std::less<>> labels, std::string name = "node_1") {
  Node n;
  n.meta.name = std::move(name);
  n.meta.labels = std::move(labels);
  return n;
}

NodeSelectorTerm Expr(std::string key, std::string op, std::vector<std::string> values) {
  NodeSelectorTerm t;
  t.match_expressions.push_back({std::move(key), std::move(op), std::move(values)});
  return t;
}

TEST(NodeAffinityTest, TermMatching) {
  struct Case {
    const char* name;
    std::vector<NodeSelectorTerm> terms;
    Node node;
    bool want;
  } cases[] = {
      {"nil terms", {}, Labeled({}), false},
      {"empty term matches nothing", {NodeSelectorTerm{}}, Labeled({{"a", "b"}}), false},
      {"In match", {Expr("foo", "In", {"bar", "baz"})}, Labeled({{"foo", "baz"}}), true},
      {"In no match", {Expr("foo", "In", {"bar"})}, Labeled({{"foo", "qux"}}), false},
      {"In missing label", {Expr("foo", "In", {"bar"})}, Labeled({}), false},
      {"NotIn match", {Expr("foo", "NotIn", {"bar"})}, Labeled({{"foo", "qux"}}), true},
      {"NotIn missing label matches", {Expr("foo", "NotIn", {"bar"})}, Labeled({}), true},
      {"NotIn no match", {Expr("foo", "NotIn", {"bar"})}, Labeled({{"foo", "bar"}}), false},
      {"Exists", {Expr("foo", "Exists", {})}, Labeled({{"foo", ""}}), true},
      {"DoesNotExist", {Expr("foo", "DoesNotExist", {})}, Labeled({{"foo", "x"}}), false},
      {"Gt", {Expr("gpus", "Gt", {"4"})}, Labeled({{"gpus", "8"}}), true},
      {"Gt equal fails", {Expr("gpus", "Gt", {"8"})}, Labeled({{"gpus", "8"}}), false},
      {"Lt", {Expr("gpus", "Lt", {"4"})}, Labeled({{"gpus", "2"}}), true},
      // strconv.ParseInt takes "+4", but "+4" is no valid label value: the
      // requirement does not parse (labels.NewRequirement checks both).
      {"Gt with a plus sign does not parse", {Expr("gpus", "Gt", {"+4"})}, Labeled({{"gpus", "8"}}), false},
      {"Gt against a label with a plus sign", {Expr("gpus", "Gt", {"4"})}, Labeled({{"gpus", "+8"}}), true},
      {"Gt non-integer label", {Expr("gpus", "Gt", {"4"})}, Labeled({{"gpus", "many"}}), false},
      {"terms are ORed", {Expr("a", "In", {"x"}), Expr("b", "In", {"y"})}, Labeled({{"b", "y"}}), true},
      {"requirements in a term are ANDed",
       {NodeSelectorTerm{{{"a", "In", {"x"}}, {"b", "In", {"y"}}}, {}}},
       Labeled({{"a", "x"}}),
       false},
      {"matchFields metadata.name", {NodeSelectorTerm{{}, {{"metadata.name", "In", {"node_1"}}}}}, Labeled({}), true},
      {"matchFields other name", {NodeSelectorTerm{{}, {{"metadata.name", "In", {"node_2"}}}}}, Labeled({}), false},
      // fields.Set holds metadata.name only: another key reads "".
      {"matchFields unsupported key", {NodeSelectorTerm{{}, {{"metadata.uid", "In", {"x"}}}}}, Labeled({}), false},
      {"matchFields unsupported key, NotIn", {NodeSelectorTerm{{}, {{"metadata.uid", "NotIn", {"x"}}}}}, Labeled({}),
       true},
      // extractNodeFields: a node without a name has no fields to compare.
      {"matchFields on a node without a name", {NodeSelectorTerm{{}, {{"metadata.name", "In", {"node_2"}}}}},
       Labeled({}, ""), true},
      // A term that fails to parse matches nothing (newNodeSelectorTerm).
      {"NotIn with an invalid label value", {Expr("foo", "NotIn", {"a b"})}, Labeled({{"foo", "qux"}}), false},
      {"DoesNotExist with values", {Expr("foo", "DoesNotExist", {"x"})}, Labeled({}), false},
      {"Gt with two values", {Expr("gpus", "Gt", {"4", "5"})}, Labeled({{"gpus", "8"}}), false},
      {"invalid key", {Expr("a b", "DoesNotExist", {})}, Labeled({}), false},
      {"matchFields with two values", {NodeSelectorTerm{{}, {{"metadata.name", "In", {"node_1", "x"}}}}},
       Labeled({}), false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(MatchesAnyNodeSelectorTerm(c.terms, c.node), c.want);
  }
}

// The parse errors as NewNodeSelector / NewPreferredSchedulingTerms report
// them (labels.NewRequirement, nodeSelectorRequirementsAsFieldSelector);
// the first case is k8s.io/component-helpers/scheduling/corev1/nodeaffinity/
// nodeaffinity_test.go TestNodeSelectorMatch "invalid field selector and
// label selector" (its messages; the upstream test ignores BadValue).
TEST(NodeAffinityTest, TermParseErrors) {
  auto errors = [](const std::vector<NodeSelectorTerm>& terms) {
    std::vector<FieldError> errs;
    for (size_t i = 0; i < terms.size(); ++i)
      NodeSelectorTermErrors(terms[i], "nodeSelectorTerms[" + std::to_string(i) + "]", errs);
    std::vector<std::string> out;
    for (const FieldError& e : errs) out.push_back(e.ToString());
    return out;
  };
  EXPECT_EQ(errors({NodeSelectorTerm{{}, {{"metadata.name", "In", {"host_1", "host_2"}}}},
                    NodeSelectorTerm{{{"label_1", "In", {"label_1_val"}}}, {{"metadata.name", "In", {"host_1"}}}},
                    Expr("invalid key", "In", {"label_value"})}),
            (std::vector<std::string>{
                "nodeSelectorTerms[0].matchFields[0].values: Invalid value: []string{\"host_1\", \"host_2\"}: must "
                "have one element",
                "nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: \"invalid key\": name part must consist "
                "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}));
  EXPECT_EQ(errors({Expr("foo", "Exists", {"bar", "baz"}), Expr("foo", "Gt", {"one"}), Expr("foo", "In", {}),
                    Expr("foo", "Equals", {"x"}), Expr("foo", "NotIn", {"a b"}),
                    NodeSelectorTerm{{}, {{"metadata.name", "Exists", {}}}}}),
            (std::vector<std::string>{
                "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []string{\"bar\", \"baz\"}: values "
                "set must be empty for exists and does not exist",
                "nodeSelectorTerms[1].matchExpressions[0].values[0]: Invalid value: \"one\": for 'Gt', 'Lt' "
                "operators, the value must be an integer",
                "nodeSelectorTerms[2].matchExpressions[0].values: Invalid value: []string(nil): for 'in', 'notin' "
                "operators, values set can't be empty",
                "nodeSelectorTerms[3].matchExpressions[0].operator: Unsupported value: \"Equals\": supported values: "
                "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"",
                "nodeSelectorTerms[4].matchExpressions[0].values[0][foo]: Invalid value: \"a b\": a valid label must "
                "be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
                "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "nodeSelectorTerms[5].matchFields[0].operator: Unsupported value: \"Exists\": supported values: "
                "\"In\", \"NotIn\""}));
}

}  // namespace
}  // namespace gpusched

// Node selector term matching, cases after
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
// (TestNodeSelectorMatch, TestNodeMatchesNodeSelectorTerms).
#include "gpusched/model/node_affinity.h"

#include <gtest/gtest.h>

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
      {"Gt with a plus sign, as strconv.ParseInt accepts", {Expr("gpus", "Gt", {"+4"})}, Labeled({{"gpus", "8"}}), true},
      {"Gt non-integer label", {Expr("gpus", "Gt", {"4"})}, Labeled({{"gpus", "many"}}), false},
      {"terms are ORed", {Expr("a", "In", {"x"}), Expr("b", "In", {"y"})}, Labeled({{"b", "y"}}), true},
      {"requirements in a term are ANDed",
       {NodeSelectorTerm{{{"a", "In", {"x"}}, {"b", "In", {"y"}}}, {}}},
       Labeled({{"a", "x"}}),
       false},
      {"matchFields metadata.name", {NodeSelectorTerm{{}, {{"metadata.name", "In", {"node_1"}}}}}, Labeled({}), true},
      {"matchFields other name", {NodeSelectorTerm{{}, {{"metadata.name", "In", {"node_2"}}}}}, Labeled({}), false},
      {"matchFields unsupported key", {NodeSelectorTerm{{}, {{"metadata.uid", "In", {"x"}}}}}, Labeled({}), false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(MatchesAnyNodeSelectorTerm(c.terms, c.node), c.want);
  }
}

}  // namespace
}  // namespace gpusched

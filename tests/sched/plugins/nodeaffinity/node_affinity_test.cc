// NodeAffinity's Filter. TestNodeAffinity is upstream's table of that name in
// k8s.io/kubernetes pkg/scheduler/framework/plugins/nodeaffinity/
// node_affinity_test.go (commit 17bae91; the 31 cases are the same in
// 022462cc), with its expected Filter statuses; reasons are v1.35's.
//
// Every case's Filter status is ported, and PreFilter's answer where the
// case states one (PreFilterResultsOfTestNodeAffinity): the node sets of the
// matchFields cases and the "pod affinity terms conflict" status. Not
// expressible: the Skip status of "Pod with no Affinity ..." and "... nil
// NodeSelector ..." (gpusched's PreFilter returns no state for them, which is
// how a skip looks here too, as for every pod without node names).
// Upstream's runPreFilter false/true makes no difference here: Filter never
// reads a PreFilter state.
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../../test_util.h"
#include "../filter_test_util.h"

namespace gpusched {
namespace {

using testing::RunOne;

using Labels = std::map<std::string, std::string, std::less<>>;

NodeSelectorRequirement Req(std::string key, std::string op, std::vector<std::string> values = {}) {
  return {std::move(key), std::move(op), std::move(values)};
}

NodeSelectorTerm Exprs(std::vector<NodeSelectorRequirement> e) { return NodeSelectorTerm{std::move(e), {}}; }
NodeSelectorTerm Fields(std::vector<NodeSelectorRequirement> f) { return NodeSelectorTerm{{}, std::move(f)}; }

NodeAffinity Required(std::vector<NodeSelectorTerm> terms) {
  NodeAffinity a;
  a.has_required = true;
  a.required = std::move(terms);
  return a;
}

Pod MakePod(Labels node_selector, std::optional<NodeAffinity> affinity = std::nullopt) {
  Pod p = testing::ResourcePod({});
  p.node_selector = std::move(node_selector);
  p.node_affinity = std::move(affinity);
  return p;
}

Node MakeNode(std::string name, Labels labels) {
  Node n;
  n.meta.name = std::move(name);
  n.meta.labels = std::move(labels);
  return n;
}

enum class Want { kFits, kPod, kEnforced };

struct FilterCase {
  std::string name;
  Pod pod;
  Labels labels;
  std::string node_name;
  Want want;
  std::optional<NodeAffinity> added_affinity;  // NodeAffinityArgs.AddedAffinity
};

void RunFilterCases(const std::vector<FilterCase>& cases) {
  for (const FilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    NodeAffinityArgs args;
    args.added_affinity = c.added_affinity;
    const NodeAffinityPlugin p(args);
    SchedStatus s = RunOne(p, c.pod, MakeNode(c.node_name, c.labels));
    if (c.want == Want::kFits) {
      EXPECT_TRUE(s.IsSuccess()) << s.reasons().size();
      continue;
    }
    EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
    EXPECT_EQ(s.reasons(), std::vector<std::string>{c.want == Want::kPod ? kReasonNodeAffinity
                                                                          : kReasonNodeAffinityEnforced});
  }
}

TEST(NodeAffinityFilterTest, TestNodeAffinity) {
  const NodeSelectorRequirement name_node1 = Req("metadata.name", "In", {"node1"});
  const NodeSelectorRequirement name_node2 = Req("metadata.name", "In", {"node2"});
  const NodeSelectorRequirement foo_bar = Req("foo", "In", {"bar"});
  const std::vector<FilterCase> cases = {
      {"missing labels", MakePod({{"foo", "bar"}}), {}, "", Want::kPod, {}},
      {"same labels", MakePod({{"foo", "bar"}}), {{"foo", "bar"}}, "", Want::kFits, {}},
      {"node labels are superset", MakePod({{"foo", "bar"}}), {{"foo", "bar"}, {"baz", "blah"}}, "", Want::kFits, {}},
      {"node labels are subset", MakePod({{"foo", "bar"}, {"baz", "blah"}}), {{"foo", "bar"}}, "", Want::kPod, {}},
      {"Pod with matchExpressions using In operator that matches the existing node",
       MakePod({}, Required({Exprs({Req("foo", "In", {"bar", "value2"})})})), {{"foo", "bar"}}, "", Want::kFits, {}},
      {"Pod with matchExpressions using Gt operator that matches the existing node",
       MakePod({}, Required({Exprs({Req("kernel-version", "Gt", {"0204"})})})), {{"kernel-version", "0206"}}, "",
       Want::kFits, {}},
      {"Pod with matchExpressions using NotIn operator that matches the existing node",
       MakePod({}, Required({Exprs({Req("mem-type", "NotIn", {"DDR", "DDR2"})})})), {{"mem-type", "DDR3"}}, "",
       Want::kFits, {}},
      {"Pod with matchExpressions using Exists operator that matches the existing node",
       MakePod({}, Required({Exprs({Req("GPU", "Exists")})})), {{"GPU", "NVIDIA-GRID-K1"}}, "", Want::kFits, {}},
      {"Pod with affinity that don't match node's labels won't schedule onto the node",
       MakePod({}, Required({Exprs({Req("foo", "In", {"value1", "value2"})})})), {{"foo", "bar"}}, "", Want::kPod,
       {}},
      {"Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
       MakePod({}, Required({Exprs({})})), {{"foo", "bar"}}, "", Want::kPod, {}},
      {"Pod with no Affinity will schedule onto a node", MakePod({}), {{"foo", "bar"}}, "", Want::kFits, {}},
      {"Pod with Affinity but nil NodeSelector will schedule onto a node", MakePod({}, NodeAffinity{}),
       {{"foo", "bar"}}, "", Want::kFits, {}},
      {"Pod with multiple matchExpressions ANDed that matches the existing node",
       MakePod({}, Required({Exprs({Req("GPU", "Exists"), Req("GPU", "NotIn", {"AMD", "INTER"})})})),
       {{"GPU", "NVIDIA-GRID-K1"}}, "", Want::kFits, {}},
      {"Pod with multiple matchExpressions ANDed that doesn't match the existing node",
       MakePod({}, Required({Exprs({Req("GPU", "Exists"), Req("GPU", "In", {"AMD", "INTER"})})})),
       {{"GPU", "NVIDIA-GRID-K1"}}, "", Want::kPod, {}},
      {"Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the "
       "node",
       MakePod({}, Required({Exprs({Req("foo", "In", {"bar", "value2"})}),
                             Exprs({Req("diffkey", "In", {"wrong", "value2"})})})),
       {{"foo", "bar"}}, "", Want::kFits, {}},
      {"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, "
       "will schedule onto the node",
       MakePod({{"foo", "bar"}}, Required({Exprs({Req("foo", "Exists")})})), {{"foo", "bar"}}, "", Want::kFits, {}},
      {"Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are "
       "deprecating) is not satisfied, won't schedule onto the node",
       MakePod({{"foo", "bar"}}, Required({Exprs({Req("foo", "Exists")})})), {{"foo", "barrrrrr"}}, "", Want::kPod,
       {}},
      // The requirement fails to parse (an invalid label value): the term
      // matches nothing, although NotIn would hold for "bar".
      {"Pod with an invalid value in Affinity term won't be scheduled onto the node",
       MakePod({}, Required({Exprs({Req("foo", "NotIn", {"invalid value: ___@#$%^"})})})), {{"foo", "bar"}}, "",
       Want::kPod, {}},
      {"Pod with matchFields using In operator that matches the existing node",
       MakePod({}, Required({Fields({name_node1})})), {}, "node1", Want::kFits, {}},
      {"Pod with matchFields using In operator that does not match the existing node",
       MakePod({}, Required({Fields({name_node1})})), {}, "node2", Want::kPod, {}},
      {"Pod with two terms: matchFields does not match, but matchExpressions matches",
       MakePod({}, Required({Fields({name_node1, name_node2}), Exprs({foo_bar})})), {{"foo", "bar"}}, "node2",
       Want::kFits, {}},
      {"Pod with one term: matchFields does not match, but matchExpressions matches",
       MakePod({}, Required({NodeSelectorTerm{{foo_bar}, {name_node1}}})), {{"foo", "bar"}}, "node2", Want::kPod, {}},
      {"Pod with one term: both matchFields and matchExpressions match",
       MakePod({}, Required({NodeSelectorTerm{{foo_bar}, {name_node1}}})), {{"foo", "bar"}}, "node1", Want::kFits,
       {}},
      {"Pod with two terms: both matchFields and matchExpressions do not match",
       MakePod({}, Required({Fields({name_node1}), Exprs({Req("foo", "In", {"not-match-to-bar"})})})),
       {{"foo", "bar"}}, "node2", Want::kPod, {}},
      {"Pod with two terms of node.Name affinity", MakePod({}, Required({Fields({name_node1}), Fields({name_node2})})),
       {}, "node2", Want::kFits, {}},
      {"Pod with two conflicting mach field requirements", MakePod({}, Required({Fields({name_node1, name_node2})})),
       {{"foo", "bar"}}, "node2", Want::kPod, {}},
      {"Matches added affinity and Pod's node affinity", MakePod({}, Required({Exprs({Req("zone", "In", {"foo"})})})),
       {{"zone", "foo"}}, "node2", Want::kFits, Required({Fields({name_node2})})},
      {"Matches added affinity but not Pod's node affinity",
       MakePod({}, Required({Exprs({Req("zone", "In", {"bar"})})})), {{"zone", "foo"}}, "node2", Want::kPod,
       Required({Fields({name_node2})})},
      {"Doesn't match added affinity", MakePod({}), {{"zone", "foo"}}, "node2", Want::kEnforced,
       Required({Exprs({Req("zone", "In", {"bar"})})})},
      {"Matches node selector correctly even if PreFilter is not called", MakePod({{"foo", "bar"}}),
       {{"foo", "bar"}, {"baz", "blah"}}, "", Want::kFits, {}},
      {"Matches node affinity correctly even if PreFilter is not called",
       MakePod({}, Required({Exprs({Req("GPU", "Exists"), Req("GPU", "NotIn", {"AMD", "INTER"})})})),
       {{"GPU", "NVIDIA-GRID-K1"}}, "", Want::kFits, {}},
  };
  ASSERT_EQ(cases.size(), 31u);
  RunFilterCases(cases);
}

// TestNodeAffinity's wantPreFilterResult and wantPreFilterStatus: the
// PreFilterResult node names of the matchFields cases (nil where a term
// names no node, the terms being ORed), and the conflict status when every
// term's names intersect to none.
TEST(NodeAffinityFilterTest, PreFilterResultsOfTestNodeAffinity) {
  const NodeSelectorRequirement name_node1 = Req("metadata.name", "In", {"node1"});
  const NodeSelectorRequirement name_node2 = Req("metadata.name", "In", {"node2"});
  const NodeSelectorRequirement foo_bar = Req("foo", "In", {"bar"});
  struct Case {
    std::string name;
    Pod pod;
    std::optional<std::vector<std::string>> want_names;  // nullopt: no PreFilterResult
    std::string want_reject;                             // "" : success
  };
  const std::vector<Case> cases = {
      {"Pod with matchFields using In operator that matches the existing node",
       MakePod({}, Required({Fields({name_node1})})), std::vector<std::string>{"node1"}, ""},
      {"Pod with matchFields using In operator that does not match the existing node",
       MakePod({}, Required({Fields({name_node1})})), std::vector<std::string>{"node1"}, ""},
      {"Pod with two terms: matchFields does not match, but matchExpressions matches",
       MakePod({}, Required({Fields({name_node1, name_node2}), Exprs({foo_bar})})), std::nullopt, ""},
      {"Pod with one term: matchFields does not match, but matchExpressions matches",
       MakePod({}, Required({NodeSelectorTerm{{foo_bar}, {name_node1}}})), std::vector<std::string>{"node1"}, ""},
      {"Pod with one term: both matchFields and matchExpressions match",
       MakePod({}, Required({NodeSelectorTerm{{foo_bar}, {name_node1}}})), std::vector<std::string>{"node1"}, ""},
      {"Pod with two terms: both matchFields and matchExpressions do not match",
       MakePod({}, Required({Fields({name_node1}), Exprs({Req("foo", "In", {"not-match-to-bar"})})})), std::nullopt,
       ""},
      {"Pod with two terms of node.Name affinity", MakePod({}, Required({Fields({name_node1}), Fields({name_node2})})),
       std::vector<std::string>{"node1", "node2"}, ""},
      {"Pod with two conflicting mach field requirements", MakePod({}, Required({Fields({name_node1, name_node2})})),
       std::nullopt, kReasonNodeAffinityConflict},
      {"Matches node selector correctly even if PreFilter is not called", MakePod({{"foo", "bar"}}), std::nullopt, ""},
  };
  const NodeAffinityPlugin pl;
  const ClusterState cluster(std::vector<Node>{MakeNode("node1", {}), MakeNode("node2", {})});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const PodInfo info = PodInfo::Make(c.pod, 0);
    SchedStatus reject = SchedStatus::Success();
    std::unique_ptr<PreFilterData> data = pl.PreFilter(info, cluster, reject);
    if (c.want_reject.empty()) {
      EXPECT_TRUE(reject.IsSuccess());
    } else {
      EXPECT_EQ(reject.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
      ASSERT_EQ(reject.reasons().size(), 1u);
      EXPECT_EQ(reject.reasons()[0], c.want_reject);
    }
    ASSERT_EQ(data != nullptr, c.want_names.has_value());
    if (data) {
      EXPECT_EQ(data->node_names, c.want_names);
    }
  }
}

// gpusched's own cases: the rules of k8s.io/component-helpers/scheduling/
// corev1/nodeaffinity that upstream's plugin table does not reach. A term
// that fails to parse (newNodeSelectorTerm: labels.NewRequirement's checks,
// nodeSelectorRequirementsAsFieldSelector's) matches no node, even where
// its requirements would hold; the fields of a node without a name are not
// compared (extractNodeFields); a field key other than metadata.name reads
// "" (fields.Set.Get).
TEST(NodeAffinityFilterTest, GpuschedCases) {
  const std::vector<FilterCase> cases = {
      {"no selector", MakePod({}), {}, "", Want::kFits, {}},
      {"GPU product label", MakePod({{"nvidia.com/gpu.product", "A100"}}), {{"nvidia.com/gpu.product", "T4"}}, "",
       Want::kPod, {}},
      {"Gt with a non-integer value does not parse",
       MakePod({}, Required({Exprs({Req("gpus", "Gt", {"four"})}), Exprs({Req("gpus", "Lt", {"4", "5"})})})),
       {{"gpus", "2"}}, "n", Want::kPod, {}},
      // strconv.ParseInt takes "+1", validateLabelValue does not.
      {"Gt with a plus sign does not parse", MakePod({}, Required({Exprs({Req("gpus", "Gt", {"+1"})})})),
       {{"gpus", "2"}}, "n", Want::kPod, {}},
      {"Lt against a negative label", MakePod({}, Required({Exprs({Req("gpus", "Lt", {"1"})})})), {{"gpus", "-2"}},
       "n", Want::kFits, {}},
      {"DoesNotExist with values does not parse",
       MakePod({}, Required({Exprs({Req("gpu", "DoesNotExist", {"x"})})})), {}, "n", Want::kPod, {}},
      {"Exists with values does not parse", MakePod({}, Required({Exprs({Req("gpu", "Exists", {"x"})})})),
       {{"gpu", "x"}}, "n", Want::kPod, {}},
      {"NotIn without values does not parse", MakePod({}, Required({Exprs({Req("gpu", "NotIn")})})), {}, "n",
       Want::kPod, {}},
      {"an invalid label key does not parse", MakePod({}, Required({Exprs({Req("bad key", "DoesNotExist")})})), {},
       "n", Want::kPod, {}},
      {"an unknown operator does not parse", MakePod({}, Required({Exprs({Req("gpu", "Equals", {"x"})})})),
       {{"gpu", "x"}}, "n", Want::kPod, {}},
      {"a term that does not parse leaves the other terms",
       MakePod({}, Required({Exprs({Req("gpu", "NotIn", {"not valid!"})}), Exprs({Req("gpu", "Exists")})})),
       {{"gpu", "x"}}, "n", Want::kFits, {}},
      {"matchFields with two values does not parse",
       MakePod({}, Required({Fields({Req("metadata.name", "In", {"n", "m"})})})), {}, "n", Want::kPod, {}},
      {"matchFields with Exists does not parse", MakePod({}, Required({Fields({Req("metadata.name", "Exists")})})),
       {}, "n", Want::kPod, {}},
      {"matchFields NotIn", MakePod({}, Required({Fields({Req("metadata.name", "NotIn", {"m"})})})), {}, "n",
       Want::kFits, {}},
      {"matchFields on another key reads \"\": In fails",
       MakePod({}, Required({Fields({Req("metadata.uid", "In", {"n"})})})), {}, "n", Want::kPod, {}},
      {"matchFields on another key reads \"\": NotIn holds",
       MakePod({}, Required({Fields({Req("metadata.uid", "NotIn", {"n"})})})), {}, "n", Want::kFits, {}},
      {"the fields of a node without a name are not compared",
       MakePod({}, Required({NodeSelectorTerm{{Req("gpu", "Exists")}, {Req("metadata.name", "In", {"n"})}}})),
       {{"gpu", "x"}}, "", Want::kFits, {}},
      {"a node without a name still fails the term's labels",
       MakePod({}, Required({NodeSelectorTerm{{Req("gpu", "Exists")}, {Req("metadata.name", "In", {"n"})}}})), {},
       "", Want::kPod, {}},
      {"an added selector with no terms matches no node", MakePod({}), {{"gpu", "x"}}, "n", Want::kEnforced,
       Required({})},
      {"only preferred added terms: Filter is the pod's", MakePod({{"gpu", "x"}}), {}, "n", Want::kPod,
       NodeAffinity{false, {}, {{5, Exprs({Req("gpu", "Exists")})}}}},
  };
  RunFilterCases(cases);
}

// The scheduler-enforced selector turns the filter's traits off (the plain
// node fast paths assume NodeAffinity passes pods without a selector), and
// the diagnosis tells its failures from the pod's own.
TEST(NodeAffinityFilterTest, AddedAffinityTraitsAndDiagnosis) {
  EXPECT_TRUE(NodeAffinityPlugin().Traits().in_tree);
  NodeAffinityArgs preferred_only;
  preferred_only.added_affinity = NodeAffinity{false, {}, {{5, Exprs({Req("gpu", "Exists")})}}};
  EXPECT_TRUE(NodeAffinityPlugin(preferred_only).Traits().in_tree);
  NodeAffinityArgs args;
  args.added_affinity = Required({Exprs({Req("zone", "In", {"a"})})});
  const NodeAffinityPlugin p(args);
  EXPECT_FALSE(p.Traits().in_tree);
  const Pod pod = MakePod({{"gpu", "x"}});
  const PodInfo info = PodInfo::Make(pod, 0);
  EXPECT_EQ(p.NeverPasses(info, MakeNode("n", {{"gpu", "x"}}), NodeState{}), 2);
  EXPECT_EQ(p.NeverPasses(info, MakeNode("n", {{"zone", "a"}}), NodeState{}), 1);
  EXPECT_EQ(p.NeverPasses(info, MakeNode("n", {{"zone", "a"}, {"gpu", "x"}}), NodeState{}), 0);
  EXPECT_FALSE(p.QueueOnNodeAdded(info, MakeNode("n", {{"gpu", "x"}}), NodeState{}));
  EXPECT_TRUE(p.QueueOnNodeAdded(info, MakeNode("n", {{"zone", "a"}, {"gpu", "x"}}), NodeState{}));
}

}  // namespace
}  // namespace gpusched

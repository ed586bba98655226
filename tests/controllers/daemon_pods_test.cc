#include "gpusched/controllers/daemon_pods.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

// daemon_controller_test.go: the node "test-node" carries simpleDaemonSetLabel.
Node TestNode() {
  Node n;
  n.meta.name = "test-node";
  n.meta.labels = {{"name", "simple-daemon"}, {"type", "production"}};
  return n;
}

NodeAffinity RequiredIn(const std::string& key, const std::string& value) {
  NodeAffinity a;
  a.has_required = true;
  NodeSelectorTerm t;
  t.match_expressions.push_back({key, "In", {value}});
  a.required.push_back(t);
  return a;
}

// daemon_controller_test.go TestNodeShouldRunDaemonPod (shouldRun column;
// resources and host ports do not matter to the DaemonSet controller).
TEST(DaemonPodsTest, NodeShouldRunDaemonPodUpstreamTable) {
  struct Case {
    const char* name;
    Pod tmpl;
    bool unschedulable;
    bool should_run;
  };
  std::vector<Case> cases;
  cases.push_back({"ShouldRunDaemonPod", Pod{}, false, true});
  Pod other;
  other.node_name = "other-node";
  cases.push_back({"ErrPodNotMatchHostName", other, false, false});
  Pod sel2;
  sel2.node_selector = {{"name", "simple-daemon"}, {"type", "test"}};
  cases.push_back({"ErrNodeSelectorNotMatch", sel2, false, false});
  Pod sel;
  sel.node_selector = {{"name", "simple-daemon"}, {"type", "production"}};
  cases.push_back({"ShouldRunDaemonPod (nodeSelector)", sel, false, true});
  Pod aff_test;
  aff_test.node_affinity = RequiredIn("type", "test");
  cases.push_back({"ErrPodAffinityNotMatch", aff_test, false, false});
  Pod aff_prod;
  aff_prod.node_affinity = RequiredIn("type", "production");
  cases.push_back({"ShouldRunDaemonPod (affinity)", aff_prod, false, true});
  cases.push_back({"ShouldRunDaemonPodOnUnschedulableNode", Pod{}, true, true});
  Pod same;
  same.node_name = "test-node";
  cases.push_back({"template nodeName is the node", same, false, true});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Node n = TestNode();
    n.unschedulable = c.unschedulable;
    EXPECT_EQ(DaemonShouldRunOnNode(c.tmpl, false, n), c.should_run);
  }
}

// Taints: NoSchedule and NoExecute keep a DaemonSet off unless tolerated;
// the node.kubernetes.io/* taints its default tolerations cover do not
// (TestTaintedNodeDaemonDoesNotLaunchIntolerantPods,
// TestNotReadyNodeDaemonDoesLaunchPod, TestUnschedulableNodeDaemonDoesLaunchPod,
// TestNodeDaemonLaunchesToleratePod and the TaintNodesByCondition cases).
TEST(DaemonPodsTest, TaintsAndDefaultTolerations) {
  struct Case {
    const char* name;
    Taint taint;
    bool host_network;
    std::vector<Toleration> tolerations;
    bool should_run;
  };
  const Case cases[] = {
      {"NoSchedule not tolerated", {"dedicated", "gpu", "NoSchedule"}, false, {}, false},
      {"NoExecute not tolerated", {"dedicated", "gpu", "NoExecute"}, false, {}, false},
      {"PreferNoSchedule ignored", {"dedicated", "gpu", "PreferNoSchedule"}, false, {}, true},
      {"NoSchedule tolerated", {"nvidia.com/gpu", "present", "NoSchedule"}, false,
       {{"nvidia.com/gpu", "Exists", "", "NoSchedule"}}, true},
      {"not-ready NoExecute", {"node.kubernetes.io/not-ready", "", "NoExecute"}, false, {}, true},
      {"unreachable NoExecute", {"node.kubernetes.io/unreachable", "", "NoExecute"}, false, {}, true},
      {"disk-pressure", {"node.kubernetes.io/disk-pressure", "", "NoSchedule"}, false, {}, true},
      {"memory-pressure", {"node.kubernetes.io/memory-pressure", "", "NoSchedule"}, false, {}, true},
      {"pid-pressure", {"node.kubernetes.io/pid-pressure", "", "NoSchedule"}, false, {}, true},
      {"unschedulable (cordoned)", {"node.kubernetes.io/unschedulable", "", "NoSchedule"}, false, {}, true},
      {"not-ready NoSchedule is not tolerated by default", {"node.kubernetes.io/not-ready", "", "NoSchedule"}, false,
       {}, false},
      {"network-unavailable without hostNetwork", {"node.kubernetes.io/network-unavailable", "", "NoSchedule"}, false,
       {}, false},
      {"network-unavailable with hostNetwork", {"node.kubernetes.io/network-unavailable", "", "NoSchedule"}, true, {},
       true},
      {"control-plane", {"node-role.kubernetes.io/control-plane", "", "NoSchedule"}, false, {}, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Node n = TestNode();
    n.taints = {c.taint};
    Pod tmpl;
    tmpl.tolerations = c.tolerations;
    EXPECT_EQ(DaemonShouldRunOnNode(tmpl, c.host_network, n), c.should_run);
  }
}

TEST(DaemonPodsTest, DefaultTolerationsInUpstreamOrderWithoutDuplicates) {
  Pod p;
  p.tolerations = {{"node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"}, {"x", "Equal", "y", ""}};
  AddDaemonPodTolerations(p, /*host_network=*/true);
  std::vector<std::string> got;
  for (const Toleration& t : p.tolerations) got.push_back(t.key + "/" + t.op + "/" + t.effect);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "node.kubernetes.io/unschedulable/Exists/NoSchedule", "x/Equal/",
                     "node.kubernetes.io/not-ready/Exists/NoExecute", "node.kubernetes.io/unreachable/Exists/NoExecute",
                     "node.kubernetes.io/disk-pressure/Exists/NoSchedule",
                     "node.kubernetes.io/memory-pressure/Exists/NoSchedule",
                     "node.kubernetes.io/pid-pressure/Exists/NoSchedule",
                     "node.kubernetes.io/network-unavailable/Exists/NoSchedule"}));
}

// daemonset_util_test.go TestReplaceDaemonSetPodNodeNameNodeAffinity: the
// required terms become one matchFields term; preferred terms stay.
TEST(DaemonPodsTest, ReplaceNodeAffinityUpstreamCases) {
  // No affinity at all.
  Pod a = DaemonPodFor(Pod{}, false, "host_1");
  ASSERT_TRUE(a.node_affinity);
  ASSERT_TRUE(a.node_affinity->has_required);
  ASSERT_EQ(a.node_affinity->required.size(), 1u);
  EXPECT_TRUE(a.node_affinity->required[0].match_expressions.empty());
  ASSERT_EQ(a.node_affinity->required[0].match_fields.size(), 1u);
  EXPECT_EQ(a.node_affinity->required[0].match_fields[0].key, "metadata.name");
  EXPECT_EQ(a.node_affinity->required[0].match_fields[0].op, "In");
  EXPECT_EQ(a.node_affinity->required[0].match_fields[0].values, (std::vector<std::string>{"host_1"}));
  // Required terms on labels and a preferred term: the required ones go.
  Pod t;
  t.node_affinity = RequiredIn("hostname", "host_1");
  t.node_affinity->required.push_back(t.node_affinity->required[0]);
  PreferredSchedulingTerm pref;
  pref.weight = 100;
  pref.preference.match_expressions.push_back({"zone", "In", {"a"}});
  t.node_affinity->preferred.push_back(pref);
  Pod b = DaemonPodFor(t, false, "host_1");
  ASSERT_EQ(b.node_affinity->required.size(), 1u);
  EXPECT_TRUE(b.node_affinity->required[0].match_expressions.empty());
  EXPECT_EQ(b.node_affinity->required[0].match_fields[0].values, (std::vector<std::string>{"host_1"}));
  ASSERT_EQ(b.node_affinity->preferred.size(), 1u);
  EXPECT_EQ(b.node_affinity->preferred[0].weight, 100);
  // The created pod carries the default tolerations too.
  EXPECT_EQ(b.tolerations.size(), 6u);
}

// daemonset_util_test.go TestGetTargetNodeName.
TEST(DaemonPodsTest, TargetNodeUpstreamCases) {
  Pod bound;
  bound.node_name = "node-1";
  EXPECT_EQ(DaemonPodTargetNode(bound), "node-1");
  EXPECT_EQ(DaemonPodTargetNode(DaemonPodFor(Pod{}, false, "node-2")), "node-2");
  Pod none;
  EXPECT_EQ(DaemonPodTargetNode(none), std::nullopt);
  Pod two = DaemonPodFor(Pod{}, false, "node-1");
  two.node_affinity->required[0].match_fields[0].values.push_back("node-2");
  EXPECT_EQ(DaemonPodTargetNode(two), std::nullopt);  // "is not unique"
  Pod labels;
  labels.node_affinity = RequiredIn("hostname", "node-1");
  EXPECT_EQ(DaemonPodTargetNode(labels), std::nullopt);
}

}  // namespace
}  // namespace gpusched

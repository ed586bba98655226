// Tests for src/io/kube_decode.cc: a Node's and a Pod's fields read off a
// parsed object, the decode errors their paths get, and the warnings for
// what gpusched does not evaluate.
#include "gpusched/io/kube_decode.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "document_test_util.h"
#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/io/yaml_documents.h"

namespace gpusched {
namespace {

using document_test::Parse;

std::string Amounts(const ResourceList& l) {
  std::string s;
  for (const auto& [name, q] : l) s += (s.empty() ? "" : ",") + name + "=" + q.String();
  return s;
}

TEST(KubeDecodeTest, NodeTable) {
  struct Case {
    const char* name;
    std::string yaml;
    bool unschedulable;
    size_t taints;
    std::string capacity, allocatable;
    bool has_allocatable;
    std::vector<std::string> errors;
  } cases[] = {
      {"capacity and allocatable",
       "metadata: {name: n1}\n"
       "status: {capacity: {cpu: '8', nvidia.com/gpu: '4'}, allocatable: {cpu: 7500m}}\n",
       false, 0, "cpu=8,nvidia.com/gpu=4", "cpu=7500m", true, {}},
      {"no allocatable: capacity stands in",
       "metadata: {name: n1}\nstatus: {capacity: {cpu: '8'}}\n", false, 0, "cpu=8", "", false, {}},
      {"cordoned and tainted",
       "metadata: {name: n1}\n"
       "spec: {unschedulable: true, taints: [{key: k, value: v, effect: NoSchedule}, {key: g, effect: NoExecute}]}\n",
       true, 2, "", "", false, {}},
      {"wrong kinds name their field",
       "metadata: {name: n1}\nspec: {unschedulable: maybe, taints: [x]}\nstatus: []\n", false, 0, "", "", false,
       {"spec.unschedulable: expected true or false, got \"maybe\"", "spec.taints[0]: expected an object, got a scalar",
        "status: expected an object, got a list"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Document doc = Parse(c.yaml);
    DecodeContext ctx(doc.root());
    Node node;
    DecodeNode(ctx, doc.root(), node);
    EXPECT_EQ(node.meta.name, "n1");
    EXPECT_EQ(node.unschedulable, c.unschedulable);
    EXPECT_EQ(node.taints.size(), c.taints);
    EXPECT_EQ(Amounts(node.capacity), c.capacity);
    EXPECT_EQ(Amounts(node.allocatable), c.allocatable);
    EXPECT_EQ(node.has_allocatable, c.has_allocatable);
    EXPECT_EQ(ctx.errors(), c.errors);
  }
  Document doc = Parse("spec: {taints: [{key: k, value: v, effect: NoSchedule}]}\n");
  DecodeContext ctx(doc.root());
  Node node;
  DecodeNode(ctx, doc.root(), node);
  ASSERT_EQ(node.taints.size(), 1u);
  EXPECT_EQ(node.taints[0].key, "k");
  EXPECT_EQ(node.taints[0].value, "v");
  EXPECT_EQ(node.taints[0].effect, "NoSchedule");
}

TEST(KubeDecodeTest, PodSpecFieldsErrorsAndWarnings) {
  Document doc = Parse(
      "metadata: {name: p, namespace: ml, labels: {app: a}}\n"             // 1
      "spec:\n"                                                            // 2
      "  schedulerName: kai-scheduler\n"                                   // 3
      "  nodeName: n1\n"                                                   // 4
      "  priority: 3000000000\n"                                           // 5
      "  containers:\n"                                                    // 6
      "  - name: main\n"                                                   // 7
      "    resources: {requests: {cpu: 500m}, limits: {nvidia.com/gpu: 1}}\n"  // 8
      "  tolerations: [{key: k, operator: Exists, effect: NoSchedule}]\n"  // 9
      "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, "
      "labelSelector: {matchLabels: {app: a}}, matchLabelKeys: [v]}]}}\n"  // 10
      "  topologySpreadConstraints: [{maxSkew: 1}]\n"                      // 11
      "status: {phase: Pending}\n");
  DecodeContext ctx(doc.root());
  Pod pod;
  DecodePod(ctx, doc.root(), pod);
  EXPECT_EQ(pod.meta.name, "p");
  EXPECT_EQ(pod.meta.namespace_, "ml");
  EXPECT_EQ(pod.meta.labels.at("app"), "a");
  EXPECT_EQ(pod.scheduler_name, "kai-scheduler");
  EXPECT_EQ(pod.node_name, "n1");
  EXPECT_EQ(pod.phase, "Pending");
  ASSERT_EQ(pod.containers.size(), 1u);
  EXPECT_EQ(pod.containers[0].name, "main");
  EXPECT_EQ(Amounts(pod.containers[0].requests), "cpu=500m");
  EXPECT_EQ(Amounts(pod.containers[0].limits), "nvidia.com/gpu=1");
  ASSERT_EQ(pod.tolerations.size(), 1u);
  EXPECT_EQ(pod.tolerations[0].op, "Exists");
  EXPECT_EQ(ctx.errors(), (std::vector<std::string>{"spec.priority: value out of range for int32"}));
  EXPECT_EQ(ctx.first_error_line(), 5);
  // Pod affinity is read (InterPodAffinity evaluates it), not warned about.
  ASSERT_TRUE(pod.pod_affinity);
  ASSERT_EQ(pod.pod_affinity->RequiredAntiAffinity().size(), 1u);
  const PodAffinityTerm& t = pod.pod_affinity->RequiredAntiAffinity()[0];
  EXPECT_EQ(t.topology_key, "zone");
  EXPECT_EQ(t.label_selector->match_labels.at("app"), "a");
  EXPECT_EQ(t.match_label_keys, std::vector<std::string>{"v"});
  EXPECT_FALSE(pod.pod_affinity->affinity);
  EXPECT_EQ(ctx.warnings(),
            (std::vector<std::pair<int, std::string>>{
                {11, "spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod"}}));
}

// metav1.Time's decoder: time.Parse with time.RFC3339.
TEST(KubeDecodeTest, Rfc3339) {
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:01.5Z"), 1500000000);
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00.000000001Z"), 1);
  EXPECT_EQ(ParseRfc3339("1970-01-01T00:00:00.0000000019Z"), 1);  // past the ninth digit: dropped
  EXPECT_EQ(ParseRfc3339("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_EQ(ParseRfc3339("1969-12-31T23:00:00-01:00"), 0);
  EXPECT_EQ(ParseRfc3339("2025-03-01T10:00:00Z"), int64_t{1740823200} * 1000000000);
  EXPECT_EQ(ParseRfc3339("2024-02-29T00:00:00Z"), int64_t{1709164800} * 1000000000);
  const int64_t max = (std::numeric_limits<int64_t>::max() / 1000000000 - 1) * 1000000000;
  EXPECT_EQ(ParseRfc3339("9999-12-31T23:59:59Z"), max);
  EXPECT_EQ(ParseRfc3339("0001-01-01T00:00:00Z"), -max);
  for (const char* bad : {"", "yesterday", "2025-03-01", "2025-03-01 10:00:00Z", "2025-03-01T10:00:00",
                          "2025-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-03-01T24:00:00Z",
                          "2025-03-01T10:60:00Z", "2025-03-01T10:00:60Z", "2025-03-01T10:00:00z",
                          "2025-03-01T10:00:00+0100", "2025-03-01T10:00:00+24:00", "2025-03-01T10:00:00.Z",
                          "2025-03-01t10:00:00Z", "1740823200"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(ParseRfc3339(bad), std::nullopt);
  }
}

// What DefaultPreemption reads of a dumped pod: its start, whether it is
// being deleted because the scheduler preempted it, its nomination.
TEST(KubeDecodeTest, PodLifeForPreemption) {
  auto doc = Parse(
      "metadata: {name: p, deletionTimestamp: '2025-03-02T00:00:00Z'}\n"
      "spec: {nodeName: n1}\n"
      "status:\n"
      "  phase: Running\n"
      "  startTime: '2025-03-01T10:00:00Z'\n"
      "  nominatedNodeName: n2\n"
      "  conditions:\n"
      "  - {type: Ready, status: 'True'}\n"
      "  - {type: DisruptionTarget, status: 'True', reason: PreemptionByScheduler}\n"
      "  - {type: DisruptionTarget, status: 'False'}\n");
  DecodeContext ctx(doc.root());
  Pod pod;
  DecodePod(ctx, doc.root(), pod);
  EXPECT_TRUE(ctx.errors().empty());
  EXPECT_EQ(pod.start_time_ns, int64_t{1740823200} * 1000000000);
  EXPECT_TRUE(pod.deleting);
  EXPECT_TRUE(pod.disrupted_by_scheduler);
  EXPECT_TRUE(pod.TerminatingByPreemption());
  EXPECT_EQ(pod.nominated_node_name, "n2");

  // The first DisruptionTarget condition decides; another reason, or no
  // deletionTimestamp, is not a preemption victim terminating.
  auto other = Parse(
      "metadata: {name: p}\n"
      "status: {startTime: null, conditions: [{type: DisruptionTarget, status: 'True', reason: EvictionByEvictionAPI},"
      " {type: DisruptionTarget, status: 'True', reason: PreemptionByScheduler}]}\n");
  DecodeContext ctx2(other.root());
  Pod p2;
  DecodePod(ctx2, other.root(), p2);
  EXPECT_TRUE(ctx2.errors().empty());
  EXPECT_EQ(p2.start_time_ns, std::nullopt);
  EXPECT_FALSE(p2.deleting);
  EXPECT_FALSE(p2.disrupted_by_scheduler);
  EXPECT_FALSE(p2.TerminatingByPreemption());
}

// A time the API server could not decode refuses the object, with its field.
TEST(KubeDecodeTest, BadTimesAreErrors) {
  auto doc = Parse(
      "metadata: {name: p, deletionTimestamp: {seconds: 1}}\n"
      "status:\n"
      "  startTime: '2025-03-01 10:00'\n");
  DecodeContext ctx(doc.root());
  Pod pod;
  DecodePod(ctx, doc.root(), pod);
  EXPECT_EQ(ctx.errors(),
            (std::vector<std::string>{
                "metadata.deletionTimestamp: expected an RFC 3339 time string, got an object",
                "status.startTime: cannot parse \"2025-03-01 10:00\" as an RFC 3339 time (such as "
                "2025-01-02T15:04:05Z)"}));
  EXPECT_EQ(ctx.first_error_line(), 1);
  EXPECT_EQ(pod.start_time_ns, std::nullopt);
  EXPECT_FALSE(pod.deleting);
}

}  // namespace
}  // namespace gpusched

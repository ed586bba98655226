// How one object is read (src/io/object_loader.cc): apiVersion and kind
// select the type, strict decoding, PriorityClass validation, skipped kinds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

std::string Rejections(const Manifests& m) {
  std::string s;
  for (const auto& r : m.rejected) s += r.object + " | " + r.ToString() + "\n";
  return s;
}

const char* kPodSpec = "spec:\n  containers:\n  - name: c\n    image: i\n";

TEST(ObjectLoaderTest, StrictDecodingRefusesWhatTheApiServerRefuses) {
  struct Case {
    const char* name;
    std::string text;
    std::string rejected;  // Rejections(m)
  };
  const std::vector<Case> cases = {
      // A typo under a container silently dropped a GPU request before.
      {"unknown field",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n"
       "    resource:\n      limits: {nvidia.com/gpu: 1}\n",
       "Pod/default/p | t.yaml:8: Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown "
       "field \"spec.containers[0].resource\"\n"},
      {"an unquoted number as an annotation",
       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    gpu-fraction: 0.5\n" + std::string(kPodSpec),
       "Pod/default/p | t.yaml:6: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number "
       "into Go struct field ObjectMeta.metadata.annotations of type string\n"},
      {"a quoted number as replicas",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: \"5\"\n",
       "Deployment/default/d | t.yaml:5: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot "
       "unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n"},
      {"a key given twice",
       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  name: q\n" + std::string(kPodSpec),
       "Pod/default/q | t.yaml:5: Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: duplicate "
       "field \"metadata.name\" (lines 4 and 5)\n"},
      {"name: n is the boolean false",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n",
       "Node/ | t.yaml:3: Node in version \"v1\" cannot be handled as a Node: json: cannot unmarshal bool into Go "
       "struct field ObjectMeta.metadata.name of type string\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text);
    EXPECT_EQ(Rejections(m), c.rejected);
    EXPECT_TRUE(m.pods.empty());
  }
}

TEST(ObjectLoaderTest, YamlOneOneValuesReachTheModelAsKubectlReadsThem) {
  Manifests m = Load(R"(apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: &l
    zone: "a"
spec:
  unschedulable: yes
status:
  allocatable: {cpu: 010, pods: 0x6E, nvidia.com/gpu: 1e1}
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  labels:
    <<: &l {zone: "a"}
    tier: "x"
spec:
  nodeSelector: {<<: *l}
  containers: [{name: c, image: i}]
)");
  ASSERT_EQ(Rejections(m), "");
  ASSERT_EQ(m.nodes.size(), 1u);
  const Node& n = m.nodes[0].node;
  EXPECT_TRUE(n.unschedulable);
  EXPECT_EQ(n.allocatable.at("cpu").MilliValue(), 8000);
  EXPECT_EQ(n.allocatable.at("pods").Value(), 110);
  EXPECT_EQ(n.allocatable.at("nvidia.com/gpu").Value(), 10);
  EXPECT_EQ(n.meta.labels.at("zone"), "a");
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].pod.meta.labels.at("zone"), "a");
  EXPECT_EQ(m.pods[0].pod.meta.labels.at("tier"), "x");
  EXPECT_EQ(m.pods[0].pod.node_selector.at("zone"), "a");
}

TEST(ObjectLoaderTest, ApiVersionAndKindSelectTheType) {
  Manifests m = Load(
      "kind: Pod\nmetadata: {name: a}\n" + std::string(kPodSpec) +
      "---\napiVersion: apps/v1\nkind: Pod\nmetadata: {name: b}\n" + kPodSpec +
      "---\napiVersion: batch.example.io/v1alpha1\nkind: Job\nmetadata: {name: vj}\nspec: {minAvailable: 2}\n"
      "---\napiVersion: batch.example.io/v1alpha1\nkind: Job\nmetadata: {name: vj2}\n"
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1}\n"
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2}\n"
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c3}\n"
      "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: []\n"
      "---\napiVersion: v1\nmetadata: {name: nokind}\n");
  EXPECT_EQ(Rejections(m),
            "Pod/default/a | t.yaml:1: error validating data: apiVersion not set; if you choose to ignore these errors, turn "
            "validation off with --validate=false\n"
            "Pod/default/b | t.yaml:8: no matches for kind \"Pod\" in version \"apps/v1\"\n"
            "KubeSchedulerConfiguration | t.yaml:37: a KubeSchedulerConfiguration configures the scheduler: pass it "
            "with --config, not -f\n"
            " | t.yaml:41: Object 'Kind' is missing\n");
  EXPECT_EQ(Join(m.warnings),
            "t.yaml:16: skipping 2 Job (batch.example.io/v1alpha1) objects (the first \"vj\"): kind Job of "
            "batch.example.io/v1alpha1 is not the batch/v1 Job and is not modelled by gpusched\n"
            "t.yaml:25: skipping 3 ConfigMap objects (the first \"c1\"): kind ConfigMap does not take part in "
            "scheduling\n");
}

// pkg/apis/scheduling/validation's TestValidatePriorityClass table, plus the
// Priority admission plugin's single globalDefault, through the loader.
TEST(ObjectLoaderTest, PriorityClassValidatedAsTheApiServerDoes) {
  auto pc = [](const std::string& body) { return "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n" + body; };
  struct Case {
    const char* name;
    std::string text;
    std::string rejected;
  };
  const std::vector<Case> cases = {
      {"no description", pc("metadata: {name: tier1}\nvalue: 100\n"), ""},
      {"with description", pc("metadata: {name: tier1}\nvalue: 200\ndescription: Used for the highest priority pods.\n"),
       ""},
      {"system node critical", pc("metadata: {name: system-node-critical}\nvalue: 2000001000\n"), ""},
      // The API server drops a cluster-scoped object's namespace
      // (rest.EnsureObjectNamespaceMatchesRequestNamespace) before validation.
      {"with namespace", pc("metadata: {name: tier1, namespace: foo}\nvalue: 100\n"), ""},
      {"no value is 0", pc("metadata: {name: tier1}\n"), ""},
      {"invalid name", pc("metadata: {name: tier&1}\nvalue: 100\n"),
       "PriorityClass/tier&1 | t.yaml:3: The PriorityClass \"tier&1\" is invalid: metadata.name: Invalid value: "
       "\"tier&1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
       "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n"},
      {"incorrect system class value", pc("metadata: {name: system-node-critical}\nvalue: 0\n"),
       "PriorityClass/system-node-critical | t.yaml:3: The PriorityClass \"system-node-critical\" is invalid: "
       "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: "
       "value of system-node-critical PriorityClass must be 2000001000\n"},
      {"incorrect system class name", pc("metadata: {name: system-something}\nvalue: 2000001000\n"),
       "PriorityClass/system-something | t.yaml:3: The PriorityClass \"system-something\" is invalid: metadata.name: "
       "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: "
       "system-something is not a known system priority class\n"},
      {"too high", pc("metadata: {name: big}\nvalue: 1000000001\n"),
       "PriorityClass/big | t.yaml:4: The PriorityClass \"big\" is invalid: value: Forbidden: maximum allowed value of "
       "a user defined priority is 1000000000\n"},
      {"beyond int32", pc("metadata: {name: big}\nvalue: 3000000000\n"),
       "PriorityClass/big | t.yaml:4: PriorityClass in version \"v1\" cannot be handled as a PriorityClass: json: "
       "cannot unmarshal number 3000000000 into Go struct field PriorityClass.value of type int32\n"},
      {"preemption policy", pc("metadata: {name: p}\nvalue: 1\npreemptionPolicy: Sometimes\n"),
       "PriorityClass/p | t.yaml:5: The PriorityClass \"p\" is invalid: preemptionPolicy: Unsupported value: "
       "\"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"\n"},
      {"two global defaults",
       pc("metadata: {name: a}\nvalue: 1\nglobalDefault: true\n") + "---\n" +
           pc("metadata: {name: b}\nvalue: 2\nglobalDefault: true\n"),
       "PriorityClass/b | t.yaml:11: priorityclasses.scheduling.k8s.io \"b\" is forbidden: PriorityClass a is already "
       "marked as default. Only one default can exist\n"},
      {"a wrong group", "apiVersion: scheduling.k8s.io/v1beta1\nkind: PriorityClass\nmetadata: {name: x}\n",
       "PriorityClass/x | t.yaml:1: no matches for kind \"PriorityClass\" in version \"scheduling.k8s.io/v1beta1\"\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Rejections(Load(c.text)), c.rejected);
  }
  Manifests m = Load(pc("metadata: {name: low}\nvalue: -5\n") + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n" +
                     "spec:\n  priorityClassName: low\n  containers: [{name: c, image: i}]\n");
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].pod.Priority(), -5);
  EXPECT_EQ(m.pods[0].pod.preemption_policy, "PreemptLowerPriority");  // SetDefaults_PriorityClass
}

}  // namespace
}  // namespace gpusched

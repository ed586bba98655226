#include "gpusched/io/manifest_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

constexpr const char* kGpuPod = R"(apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    image: img
    resources:
      limits:
        nvidia.com/gpu: 2
)";

TEST(ManifestLoaderTest, PodLimitOnlyDefaultsRequest) {
  Manifests m = Load(kGpuPod);
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.pods.size(), 1u);
  const Pod& p = m.pods[0].pod;
  EXPECT_EQ(p.name(), "p");
  EXPECT_EQ(p.ns(), "default");
  EXPECT_EQ(p.scheduler_name, "default-scheduler");
  ASSERT_EQ(p.containers.size(), 1u);
  EXPECT_EQ(p.containers[0].requests.at("nvidia.com/gpu").Value(), 2);
  EXPECT_EQ(m.pods[0].line, 1);
}

TEST(ManifestLoaderTest, NodeAllocatableFallsBackToCapacity) {
  Manifests m = Load(R"(apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {nvidia.com/gpu.product: A100}
spec:
  unschedulable: true
  taints:
  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}
status:
  capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "4"}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status:
  capacity: {cpu: "8", pods: "110"}
  allocatable: {cpu: 7500m, pods: "100"}
)");
  ASSERT_TRUE(m.rejected.empty());
  ASSERT_EQ(m.nodes.size(), 2u);
  const Node& n1 = m.nodes[0].node;
  EXPECT_FALSE(n1.has_allocatable);
  EXPECT_EQ(n1.EffectiveAllocatable().at("nvidia.com/gpu").Value(), 4);
  EXPECT_TRUE(n1.unschedulable);
  ASSERT_EQ(n1.taints.size(), 1u);
  EXPECT_EQ(n1.taints[0].key, "nvidia.com/gpu");
  EXPECT_EQ(n1.taints[0].effect, "NoSchedule");
  EXPECT_EQ(n1.meta.labels.at("nvidia.com/gpu.product"), "A100");
  const Node& n2 = m.nodes[1].node;
  EXPECT_TRUE(n2.has_allocatable);
  EXPECT_EQ(n2.EffectiveAllocatable().at("cpu").MilliValue(), 7500);
  EXPECT_EQ(m.nodes[1].line, 13);
}

TEST(ManifestLoaderTest, KubectlJsonList) {
  Manifests m = Load(R"({
  "apiVersion": "v1",
  "items": [
    {
      "apiVersion": "v1",
      "kind": "Node",
      "metadata": {"name": "a"},
      "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110", "nvidia.com/gpu": "1"}}
    },
    {
      "apiVersion": "v1",
      "kind": "Pod",
      "metadata": {"name": "x", "namespace": "ml"},
      "spec": {"containers": [{"name": "c", "image": "i", "resources": {"limits": {"nvidia.com/gpu": 1}}}]},
      "status": {"phase": "Pending"}
    }
  ],
  "kind": "List",
  "metadata": {"resourceVersion": ""}
})",
                     "nodes.json");
  ASSERT_TRUE(m.rejected.empty());
  ASSERT_EQ(m.nodes.size(), 1u);
  EXPECT_EQ(m.nodes[0].node.name(), "a");
  EXPECT_EQ(m.nodes[0].line, 4);  // the item's opening brace
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].pod.ns(), "ml");
  EXPECT_EQ(m.pods[0].pod.phase, "Pending");
}

TEST(ManifestLoaderTest, WorkloadsExpandToPods) {
  Manifests m = Load(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: i}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  parallelism: 4
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 8}}}]
)");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.pods.size(), 3u + 1u + 2u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.pods[i].pod.owner, "Deployment/web");
    EXPECT_EQ(m.pods[i].pod.meta.labels.at("app"), "web");
    EXPECT_EQ(m.pods[i].pod.name().rfind("web-", 0), 0u);
  }
  EXPECT_EQ(m.pods[3].pod.name(), "db-0");
  EXPECT_EQ(m.pods[3].pod.ns(), "data");
  EXPECT_EQ(m.pods[4].pod.owner, "Job/train");
  EXPECT_EQ(m.pods[4].pod.containers[0].requests.at("nvidia.com/gpu").Value(), 8);
}

TEST(ManifestLoaderTest, ZeroReplicasWarns) {
  Manifests m = Load("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 0\n"
                     "  selector: {matchLabels: {app: web}}\n"
                     "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: i}]\n");
  EXPECT_TRUE(m.pods.empty());
  EXPECT_EQ(Join(m.warnings), "t.yaml:1: Deployment/default/web: 0 replicas: no pods\n");
}

TEST(ManifestLoaderTest, OtherKindsWarnNotFail) {
  Manifests m = Load("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n---\n"
                     "apiVersion: v1\nkind: Secret\nmetadata: {name: svc}\n");
  EXPECT_TRUE(m.rejected.empty());
  EXPECT_EQ(Join(m.warnings),
            "t.yaml:1: skipping ConfigMap \"cfg\": kind ConfigMap does not take part in scheduling\n"
            "t.yaml:5: skipping Secret \"svc\": kind Secret does not take part in scheduling\n");
}

struct RejectCase {
  const char* name;
  std::string text;
  std::string object;
  int line;
  std::string message;
};

TEST(ManifestLoaderTest, RejectionsNameObjectLineAndKubectlMessage) {
  const std::string pod_head = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: c\n"
                               "    image: i\n    resources:\n";
  const RejectCase cases[] = {
      {"fractional GPU limit", pod_head + "      limits:\n        nvidia.com/gpu: 0.5\n", "Pod/default/x", 11,
       "The Pod \"x\" is invalid: \n"
       "* spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer\n"
       "* spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer"},
      // Lines point at the nearest recorded field: a block map's line is that of its first key.
      {"request without limit", pod_head + "      requests:\n        nvidia.com/gpu: 1\n", "Pod/default/x", 10,
       "The Pod \"x\" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non "
       "overcommitable resources"},
      {"request differs from limit",
       pod_head + "      requests:\n        nvidia.com/gpu: 1\n      limits:\n        nvidia.com/gpu: 2\n",
       "Pod/default/x", 11,
       "The Pod \"x\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to "
       "nvidia.com/gpu limit of 2"},
      {"negative cpu", pod_head + "      requests:\n        cpu: -1\n", "Pod/default/x", 11,
       "The Pod \"x\" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be "
       "greater than or equal to 0"},
      {"cpu request above limit", pod_head + "      requests:\n        cpu: 2\n      limits:\n        cpu: 1\n",
       "Pod/default/x", 11,
       "The Pod \"x\" is invalid: spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or "
       "equal to cpu limit of 1"},
      {"bare gpu resource name", pod_head + "      limits:\n        gpu: 1\n", "Pod/default/x", 11,
       "The Pod \"x\" is invalid: \n"
       "* spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or "
       "fully qualified\n"
       "* spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for "
       "containers\n"
       "* spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or "
       "fully qualified\n"
       "* spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for "
       "containers"},
      {"malformed quantity", pod_head + "      limits:\n        nvidia.com/gpu: two\n", "Pod/default/x", 11,
       "Pod in version \"v1\" cannot be handled as a Pod: spec.containers[0].resources.limits[nvidia.com/gpu]: "
       "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      // Strict decoding: Go's encoding/json words a value of the wrong type.
      {"containers not a list", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: oops\n",
       "Pod/default/x", 5,
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field "
       "PodSpec.spec.containers of type []v1.Container"},
      {"no containers", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {}\n", "Pod/default/x", 4,
       "The Pod \"x\" is invalid: spec.containers: Required value"},
      {"bad name", "apiVersion: v1\nkind: Pod\nmetadata: {name: Bad_Name}\nspec:\n  containers: [{name: c, image: i}]\n",
       "Pod/default/Bad_Name", 3,
       "The Pod \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain "
       "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
       "character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {"missing kind", "apiVersion: v1\nmetadata: {name: x}\n", "", 1, "Object 'Kind' is missing"},
      {"not an object", "- a\n- b\n", "", 1,
       "expected a Kubernetes object (a map with apiVersion and kind), got a list"},
      {"fractional node capacity",
       "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable:\n    pods: \"110\"\n"
       "    nvidia.com/gpu: 1500m\n",
       "Node/n1", 7,
       "The Node \"n1\" is invalid: status.allocatable.nvidia.com/gpu: Invalid value: \"1500m\": must be an integer"},
      {"workload template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
                            "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
                            "    spec:\n      containers:\n      - name: c\n        image: i\n        resources:\n"
                            "          limits: {nvidia.com/gpu: 1.5}\n",
       "Deployment/default/web", 13,
       // Templates are not defaulted (SetDefaults_Pod only), so only the limit is reported.
       "The Deployment \"web\" is invalid: spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: "
       "Invalid value: \"1500m\": must be an integer"},
      {"toleration operator", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: [{name: c, image: i}]\n"
                              "  tolerations:\n  - {key: k, operator: In, value: v}\n",
       "Pod/default/x", 7,
       "The Pod \"x\" is invalid: spec.tolerations[0].operator: Unsupported value: \"In\": supported values: "
       "\"Equal\", \"Exists\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text);
    EXPECT_TRUE(m.pods.empty());
    ASSERT_EQ(m.rejected.size(), 1u);
    EXPECT_EQ(m.rejected[0].object, c.object);
    EXPECT_EQ(m.rejected[0].file, "t.yaml");
    EXPECT_EQ(m.rejected[0].line, c.line);
    EXPECT_EQ(m.rejected[0].message, c.message);
  }
}

// A trace CSV given as a manifest is rejected with where CSVs go.
TEST(ManifestLoaderTest, ATraceCsvSaysWhereItGoes) {
  Manifests m = Load("sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1024,1,T4\n", "nodes.csv");
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "nodes.csv:1: expected a Kubernetes object (a map with apiVersion and kind), got a scalar (a trace CSV is "
            "read by simulate: -f NODES.csv --workload PODS.csv)");
}

TEST(ManifestLoaderTest, BrokenDocumentDoesNotHideOthers) {
  Manifests m = Load(std::string("apiVersion: v1\nkind: Pod\nmetadata: {name: [unclosed\n---\n") + kGpuPod);
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].object, "");
  EXPECT_EQ(m.rejected[0].line, 4);
  EXPECT_EQ(m.rejected[0].message.rfind("cannot parse YAML at line 4, column ", 0), 0u) << m.rejected[0].message;
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].line, 5);
}

TEST(ManifestLoaderTest, DuplicatesRejectedAsTheApiServerDoes) {
  Manifests m = Load(std::string(kGpuPod) + "---\n" + kGpuPod);
  ASSERT_EQ(m.pods.size(), 1u);
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].object, "Pod/default/p");
  EXPECT_EQ(m.rejected[0].ToString(), "t.yaml:13: pods \"p\" already exists");
  Manifests n = Load("apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n");
  ASSERT_EQ(n.nodes.size(), 1u);
  ASSERT_EQ(n.rejected.size(), 1u);
  EXPECT_EQ(n.rejected[0].object, "Node/a");
  EXPECT_EQ(n.rejected[0].ToString(), "t.yaml:5: nodes \"a\" already exists");
}

TEST(ManifestLoaderTest, TerminatedPodsAndMissingPodCapacityWarn) {
  Manifests m = Load(std::string(kGpuPod) + "status: {phase: Succeeded}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n"
                                             "status: {allocatable: {cpu: 1}}\n");
  EXPECT_TRUE(m.pods.empty());
  EXPECT_EQ(m.nodes.size(), 1u);
  EXPECT_EQ(Join(m.warnings),
            "t.yaml:1: Pod/default/p: status.phase is Succeeded: a terminated pod holds no resources and is not "
            "scheduled\n"
            "t.yaml:14: Node/a: no \"pods\" in status.allocatable or status.capacity: kube-scheduler treats the node "
            "as full (\"Too many pods\"); kubelets report pods: \"110\"\n");
}

TEST(ManifestLoaderTest, GenerateNameIsDeterministic) {
  const std::string text = "apiVersion: v1\nkind: Pod\nmetadata: {generateName: worker-}\nspec:\n  containers: [{name: c, image: i}]\n";
  Manifests a = Load(text), b = Load(text);
  ASSERT_EQ(a.pods.size(), 1u);
  EXPECT_EQ(a.pods[0].pod.name().size(), std::string("worker-").size() + 5);
  EXPECT_EQ(a.pods[0].pod.name(), b.pods[0].pod.name());
  // Not from the file's name or the line: another document before it, or
  // another file name, gives the same name; two identical ones get two.
  Manifests c = Load("apiVersion: v1\nkind: Pod\nmetadata: {name: first}\nspec:\n  containers: [{name: c, image: i}]\n---\n" + text +
                         "---\n" + text,
                     "other.yaml");
  ASSERT_EQ(c.pods.size(), 3u);
  EXPECT_EQ(c.pods[1].pod.name(), a.pods[0].pod.name());
  EXPECT_NE(c.pods[2].pod.name(), c.pods[1].pod.name());
  EXPECT_EQ(c.pods[2].pod.name().rfind("worker-", 0), 0u);
}

TEST(ManifestLoaderTest, InitContainersSidecarsOverheadAndConstraints) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  priority: 1000
  schedulerName: my-scheduler
  nodeSelector: {nvidia.com/gpu.product: A100}
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  overhead: {cpu: 250m}
  initContainers:
  - {name: init, image: i, resources: {requests: {cpu: "2"}}}
  - {name: side, image: i, restartPolicy: Always, resources: {requests: {cpu: "1"}}}
  containers:
  - {name: c, image: i, resources: {requests: {cpu: "1"}}}
)");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  const Pod& p = m.pods[0].pod;
  EXPECT_EQ(p.Priority(), 1000);
  EXPECT_EQ(p.scheduler_name, "my-scheduler");
  EXPECT_EQ(p.node_selector.at("nvidia.com/gpu.product"), "A100");
  ASSERT_EQ(p.tolerations.size(), 1u);
  EXPECT_EQ(p.tolerations[0].op, "Exists");
  ASSERT_EQ(p.init_containers.size(), 2u);
  EXPECT_TRUE(p.init_containers[1].IsRestartableInit());
  EXPECT_EQ(p.overhead.at("cpu").MilliValue(), 250);
}

TEST(ManifestLoaderTest, NodeAffinityDecodedPodAffinityReported) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: nvidia.com/gpu.product, operator: In, values: [A100, H100]}
          matchFields:
          - {key: metadata.name, operator: NotIn, values: [bad-node]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 20
        preference:
          matchExpressions: [{key: nvidia.com/gpu.memory, operator: Gt, values: ["40000"]}]
    podAntiAffinity: {}
  containers: [{name: c, image: i}]
)");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.pods.size(), 1u);
  const auto& a = m.pods[0].pod.node_affinity;
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->has_required);
  ASSERT_EQ(a->required.size(), 1u);
  ASSERT_EQ(a->required[0].match_expressions.size(), 1u);
  EXPECT_EQ(a->required[0].match_expressions[0].values, (std::vector<std::string>{"A100", "H100"}));
  EXPECT_EQ(a->required[0].match_fields[0].op, "NotIn");
  ASSERT_EQ(a->preferred.size(), 1u);
  EXPECT_EQ(a->preferred[0].weight, 20);
  EXPECT_EQ(a->preferred[0].preference.match_expressions[0].op, "Gt");
  // An empty podAntiAffinity is read as such, without a warning.
  EXPECT_TRUE(m.warnings.empty());
  ASSERT_TRUE(m.pods[0].pod.pod_affinity);
  EXPECT_TRUE(m.pods[0].pod.pod_affinity->anti_affinity.has_value());
}

TEST(ManifestLoaderTest, InvalidNodeAffinityRejectedWithLine) {
  Manifests m = Load(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: gpu, operator: In}
  containers: [{name: c, image: i}]
)");
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].line, 10);
  EXPECT_EQ(m.rejected[0].message,
            "The Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
            "nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is "
            "'In' or 'NotIn'");
}

TEST(ManifestLoaderTest, PathsFilesDirectoriesAndErrors) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "gpusched_loader_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "b.yaml") << "apiVersion: v1\nkind: Node\nmetadata: {name: b}\n";
  std::ofstream(dir / "a.json") << R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}})";
  std::ofstream(dir / "notes.txt") << "not a manifest";
  std::ofstream(dir / "sub" / "c.yml") << "apiVersion: v1\nkind: Node\nmetadata: {name: c}\n";

  Manifests flat;
  ASSERT_TRUE(LoadManifestPaths({dir.string()}, LoadOptions{}, flat).ok());
  ASSERT_EQ(flat.nodes.size(), 2u);
  EXPECT_EQ(flat.nodes[0].node.name(), "a");  // name order
  EXPECT_EQ(flat.nodes[1].node.name(), "b");
  EXPECT_EQ(flat.nodes[0].file, (dir / "a.json").string());

  Manifests rec;
  ASSERT_TRUE(LoadManifestPaths({dir.string()}, LoadOptions{true}, rec).ok());
  EXPECT_EQ(rec.nodes.size(), 3u);

  Manifests missing;
  Status st = LoadManifestPaths({(dir / "nope.yaml").string()}, LoadOptions{}, missing);
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
  EXPECT_EQ(st.message(), "error: the path \"" + (dir / "nope.yaml").string() + "\" does not exist");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST(ManifestLoaderTest, PriorityClassesResolvedAsAdmissionDoes) {
  Manifests m;
  LoadManifestText(R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch}
value: -5
globalDefault: true
preemptionPolicy: Never
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {priorityClassName: high, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: c}
spec: {priorityClassName: system-node-critical, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: d}
spec: {priorityClassName: nope, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: e}
spec: {priority: 7, priorityClassName: nope, containers: [{name: c, image: i}]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: too-high}
value: 2000000000
)",
                   "t.yaml", m);
  ASSERT_EQ(m.pods.size(), 4u);
  EXPECT_EQ(m.pods[0].pod.Priority(), 1000);
  EXPECT_EQ(m.pods[1].pod.Priority(), -5);  // the globalDefault class
  EXPECT_EQ(m.pods[1].pod.priority_class_name, "batch");
  EXPECT_EQ(m.pods[1].pod.preemption_policy, "Never");
  EXPECT_EQ(m.pods[2].pod.Priority(), 2000001000);
  EXPECT_EQ(m.pods[3].pod.name(), "e");  // already carries spec.priority
  EXPECT_EQ(m.pods[3].pod.Priority(), 7);
  ASSERT_EQ(m.rejected.size(), 2u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:41: The PriorityClass \"too-high\" is invalid: value: Forbidden: maximum allowed value of a user "
            "defined priority is 1000000000");
  EXPECT_EQ(m.rejected[1].ToString(), "t.yaml:28: pods \"d\" is forbidden: no PriorityClass with name nope was found");
}

// spec.topologySpreadConstraints: decoded, validated with the API server's
// messages, the null-selector warning, matchLabelKeys merged into the
// selector of created pods; Services are read for their selectors.
TEST(ManifestLoaderTest, TopologySpreadConstraints) {
  Manifests m;
  LoadManifestText("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  topologySpreadConstraints: [{maxSkew: 1}]\n"
                   "  containers: [{name: c, image: i}]\n",
                   "t.yaml", m);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0], "t.yaml:5: Pod/default/p: spec.topologySpreadConstraints[0].labelSelector: a null "
                           "labelSelector results in matching no pod");
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:5: The Pod \"p\" is invalid: \n"
            "* spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty\n"
            "* spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"\": supported values: "
            "\"DoNotSchedule\", \"ScheduleAnyway\"");

  Manifests ok;
  LoadManifestText(R"(apiVersion: v1
kind: Service
metadata: {name: web, namespace: ml}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector: {matchLabels: {app: web}}
        matchLabelKeys: [pod-template-hash]
        minDomains: 2
        nodeTaintsPolicy: Honor
      containers: [{name: c, image: i}]
)",
                   "w.yaml", ok);
  EXPECT_TRUE(ok.rejected.empty());
  EXPECT_TRUE(ok.warnings.empty()) << ok.warnings[0];
  ASSERT_EQ(ok.api_objects.services.size(), 1u);
  EXPECT_EQ(ok.api_objects.services[0].ns, "ml");
  EXPECT_EQ(*ok.api_objects.services[0].selector, (LabelMap{{"app", "web"}}));
  ASSERT_EQ(ok.api_objects.spread_controllers.size(), 1u);
  EXPECT_EQ(ok.api_objects.spread_controllers[0].kind, "Deployment");
  ASSERT_EQ(ok.pods.size(), 1u);
  const auto& c = ok.pods[0].pod.Extras().topology_spread_constraints;
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].min_domains, 2);
  EXPECT_EQ(c[0].node_taints_policy, "Honor");
  // The created pod's pod-template-hash, merged as `In (value)`.
  ASSERT_EQ(c[0].label_selector->match_expressions.size(), 1u);
  EXPECT_EQ(c[0].label_selector->match_expressions[0].key, "pod-template-hash");
  EXPECT_EQ(c[0].label_selector->match_expressions[0].values,
            std::vector<std::string>{ok.pods[0].pod.meta.labels.at("pod-template-hash")});
}

}  // namespace
}  // namespace gpusched

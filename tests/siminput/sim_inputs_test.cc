#include "gpusched/siminput/sim_inputs.h"

#include <gtest/gtest.h>

#include <fstream>

namespace gpusched {
namespace {

const std::string kRoot = std::string(GPUSCHED_SOURCE_DIR);

TEST(SimInputsTest, ClusterFromManifestsAndTraceWorkload) {
  SimInputSpec spec;
  spec.cluster_paths = {kRoot + "/examples/simulate/cluster.yaml",
                        kRoot + "/data/alibaba-gpu-2023/openb_node_list_gpu_node.csv"};
  spec.workload = kRoot + "/data/alibaba-gpu-2023/openb_pod_list_multigpu20.csv";
  SimInputs in;
  ASSERT_TRUE(LoadSimInputs(spec, in).ok());
  ASSERT_EQ(in.initial_nodes.size(), 8u + 1213u);  // in the order of the paths
  EXPECT_EQ(in.initial_nodes[0].name(), "a100-1");
  EXPECT_EQ(in.initial_nodes[8].name(), "openb-node-0000");
  EXPECT_GT(in.workload.pods.size(), 8000u);
  EXPECT_TRUE(in.rejected.empty());
}

TEST(SimInputsTest, SyntheticSpecSeedUnlessTheUserGaveOne) {
  SimInputSpec spec;
  spec.cluster_paths = {kRoot + "/examples/simulate/cluster.yaml"};
  spec.workload = kRoot + "/examples/simulate/synthetic.yaml";
  SimInputs a, b, c;
  spec.seed = 99;  // not given: the spec's own seed (1) is used
  ASSERT_TRUE(LoadSimInputs(spec, a).ok());
  spec.seed = 1;
  ASSERT_TRUE(LoadSimInputs(spec, b).ok());
  spec.seed = 99;
  spec.seed_given = true;
  ASSERT_TRUE(LoadSimInputs(spec, c).ok());
  ASSERT_EQ(a.workload.pods.size(), 300u);
  EXPECT_EQ(a.workload.pods[5].arrival, b.workload.pods[5].arrival);
  EXPECT_NE(a.workload.pods[5].arrival, c.workload.pods[5].arrival);
  EXPECT_EQ(a.workload.node_events.size(), 2u);
}

TEST(SimInputsTest, DuplicateNodesKeepTheFirst) {
  SimInputSpec spec;
  const std::string csv = kRoot + "/data/alibaba-gpu-2023/openb_node_list_gpu_node.csv";
  spec.cluster_paths = {csv, csv};
  SimInputs in;
  ASSERT_TRUE(LoadSimInputs(spec, in).ok());
  EXPECT_EQ(in.initial_nodes.size(), 1213u);
  ASSERT_EQ(in.rejected.size(), 1213u);
  EXPECT_EQ(in.rejected[0].object, "Node/openb-node-0000");
  EXPECT_EQ(in.rejected[0].message, "nodes \"openb-node-0000\" already exists");
}

TEST(SimInputsTest, Errors) {
  SimInputSpec spec;
  spec.cluster_paths = {"/nonexistent/nodes.csv"};
  SimInputs in;
  Status st = LoadSimInputs(spec, in);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("/nonexistent/nodes.csv"), std::string::npos) << st.message();
  const std::string bad = ::testing::TempDir() + "/bad-synth.yaml";
  {
    std::ofstream f(bad);
    f << "apiVersion: gpusched.io/v1alpha1\nkind: SyntheticWorkload\npods: -3\narrivalRatePerHour: 5\nmix:\n- {gpus: 1}\n";
  }
  SimInputSpec s2;
  s2.workload = bad;
  SimInputs in2;
  st = LoadSimInputs(s2, in2);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("bad-synth.yaml:3"), std::string::npos) << st.message();
}

// Manifests with an invalid pod (its name on line 14) and a terminated one
// (from line 19).
constexpr const char* kManifestsWithProblems = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: "8"
    memory: 32Gi
    pods: "110"
---
apiVersion: v1
kind: Pod
metadata:
  name: bad_name
spec:
  containers:
  - {name: c, image: i}
---
apiVersion: v1
kind: Pod
metadata:
  name: done
spec:
  containers:
  - {name: c, image: i}
status:
  phase: Succeeded
---
apiVersion: v1
kind: Pod
metadata:
  name: good
spec:
  containers:
  - {name: c, image: i}
)";

// Each problem is reported once, with the workload the manifests feed
// (their pods join it), whether they are given as cluster or as workload.
TEST(SimInputsTest, ManifestProblemsAreReportedOnceWithTheWorkload) {
  const std::string path = ::testing::TempDir() + "/problems.yaml";
  {
    std::ofstream f(path);
    f << kManifestsWithProblems;
  }
  const std::string invalid =
      "The Pod \"bad_name\" is invalid: metadata.name: Invalid value: \"bad_name\": a lowercase RFC 1123 subdomain "
      "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric "
      "character (e.g. 'example.com', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  struct Case {
    const char* name;
    SimInputSpec spec;
  };
  Case cases[] = {{"cluster", {}}, {"workload", {}}};
  cases[0].spec.cluster_paths = {path};
  cases[1].spec.cluster_paths = {kRoot + "/examples/simulate/cluster.yaml"};
  cases[1].spec.workload = path;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    SimInputs in;
    ASSERT_TRUE(LoadSimInputs(c.spec, in).ok());
    EXPECT_TRUE(in.rejected.empty());
    ASSERT_EQ(in.workload.rejected.size(), 1u);
    EXPECT_EQ(in.workload.rejected[0].object, "Pod/default/bad_name");
    EXPECT_EQ(in.workload.rejected[0].file, path);
    EXPECT_EQ(in.workload.rejected[0].line, 14);
    EXPECT_EQ(in.workload.rejected[0].message, invalid);
    EXPECT_EQ(in.workload.warnings,
              std::vector<std::string>{path + ":19: Pod/default/done: status.phase is Succeeded: a terminated pod "
                                              "holds no resources and is not scheduled"});
    ASSERT_EQ(in.workload.pods.size(), 1u);
    EXPECT_EQ(in.workload.pods[0].pod.name(), "good");
  }
}

}  // namespace
}  // namespace gpusched

// End-to-end tests of --config, --explain and `gpusched explain`.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_util.h"
#include "gpusched/cli/cli.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kEx = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";

TEST(ExplainCliTest, ExplainJsonHasOneEntryPerNodeWithScores) {
  CliRun r = Cli({"schedule", "-f", kEx + "seed", "--policy", "kube-default", "--explain", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const auto& first = j["placements"][0];
  EXPECT_EQ(first["pod"], "training-job-a");
  const auto& e = first["explain"];
  ASSERT_EQ(e["nodes"].size(), 2u);
  EXPECT_EQ(e["nodes_to_find"], 2);
  EXPECT_EQ(e["start_index"], 0);
  // Both nodes are empty: TaintToleration 100 x 3 and LeastAllocated on the
  // 100m / 200Mi scoring defaults: (64000-100)*100/64000 = 99 for cpu, 99 for memory.
  for (const auto& n : e["nodes"]) {
    EXPECT_EQ(n["feasible"], true);
    EXPECT_EQ(n["total"], 399);
    ASSERT_EQ(n["scores"].size(), 2u);
    EXPECT_EQ(n["scores"][0], nlohmann::json::parse(
                                  R"({"plugin":"TaintToleration","raw":0,"normalized":100,"weight":3,"weighted":300})"));
    EXPECT_EQ(n["scores"][1], nlohmann::json::parse(
                                  R"({"plugin":"NodeResourcesFit","raw":99,"normalized":99,"weight":1,"weighted":99})"));
  }
  EXPECT_EQ(e["why"], "highest total score 399, tied on 2 nodes: chosen uniformly at random (seeded)");
  // kube-default prints DefaultPreemption's message.
  const auto& pending = j["pending"];
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0]["message"],
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No "
            "preemption victims found for incoming pod.");
  EXPECT_EQ(pending[0]["explain"]["nodes"][0]["filter"], "NodeResourcesFit");
  EXPECT_EQ(pending[0]["explain"]["nodes"][0]["code"], "Unschedulable");
  EXPECT_EQ(pending[0]["explain"]["nodes"][0]["reasons"][0], "Insufficient nvidia.com/gpu");
  // Every plugin of the default profile runs (DynamicResources was the last one missing).
  EXPECT_FALSE(j.contains("unimplemented_plugins"));
}

TEST(ExplainCliTest, ExplainOnePendingPod) {
  CliRun r = Cli({"explain", "-f", kEx + "mistakes/too-big", "training-8gpu"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "pod default/training-8gpu requests 8 nvidia.com/gpu\n"
            "policy first-fit, queue order fifo; the filter scan started at node 0 and looked for 1 feasible node(s)\n"
            "3 nodes: 0 feasible, 3 failed a filter\n"
            "  3 failed NodeResourcesFit: Insufficient nvidia.com/gpu\n"
            "\n"
            "  NODE        GPUS USED  FEASIBLE  FILTER               TOTAL  REASONS / SCORES (plugin raw->normalized x "
            "weight = weighted)\n"
            "  gpu-node-1        0/4  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  gpu-node-2        0/4  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  gpu-node-3        0/4  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "\n"
            "pending: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n"
            "\n"
            "diagnosis:\n"
            "  asked for:        8 nvidia.com/gpu on one node\n"
            "  largest node:     gpu-node-1 with 4 GPUs allocatable\n"
            "  free GPUs then:   gpu-node-1 4 of 4, gpu-node-2 4 of 4, gpu-node-3 4 of 4\n"
            "  can it ever fit:  no, not on this cluster as it is\n"
            "  why:              can never fit: it requests 8 nvidia.com/gpu but the largest node has 4 (12 across all 3 "
            "nodes, but a pod runs on one node and is never split across several); request at most 4 or add a bigger "
            "node\n"
            "  it would fit with: a smaller request (at most what the largest node has), or a bigger node\n");
}

TEST(ExplainCliTest, ExplainUnknownAndRejectedPods) {
  CliRun missing = Cli({"explain", "-f", kEx + "seed", "nobody"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "error: pod \"nobody\" is not in the input\n");
  CliRun rejected = Cli({"explain", "-f", kEx + "mistakes/fractional-gpu", "half-a-gpu"});
  EXPECT_EQ(rejected.code, 1);
  EXPECT_EQ(rejected.out.rfind("rejected, not scheduled: ", 0), 0u);
}

TEST(ExplainCliTest, ConfigProfilesAndBinPacking) {
  // With the GPU bin-packing profile (MostAllocated, GPU weight 5) a 1-GPU pod
  // goes to the fuller node; LeastAllocated (the default) sends it to the emptier one.
  std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/bp.yaml") << R"(apiVersion: v1
kind: Node
metadata: {name: empty}
status: {allocatable: {cpu: "32", memory: 128Gi, pods: "110", nvidia.com/gpu: "8"}}
---
apiVersion: v1
kind: Node
metadata: {name: busy}
status: {allocatable: {cpu: "32", memory: 128Gi, pods: "110", nvidia.com/gpu: "8"}}
---
apiVersion: v1
kind: Pod
metadata: {name: running}
spec:
  nodeName: busy
  containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 6}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: packed}
spec:
  schedulerName: gpu-binpack
  containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}, limits: {nvidia.com/gpu: 1}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: spread}
spec:
  containers: [{name: c, image: i, resources: {requests: {cpu: "1", memory: 1Gi}, limits: {nvidia.com/gpu: 1}}}]
)";
  CliRun r = Cli({"schedule", "-f", dir + "/bp.yaml", "--config", kEx + "config/gpu-binpack.yaml", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> where;
  for (const auto& p : j["placements"]) where[p["pod"]] = p["node"];
  EXPECT_EQ(where["packed"], "busy");
  EXPECT_EQ(where["spread"], "empty");
  EXPECT_EQ(j["summary"]["policy"], "kube-default");
  EXPECT_EQ(j["summary"]["order"], "priority");
}

TEST(ExplainCliTest, ExampleConfigsLoadAndBadConfigExits2) {
  for (const char* f : {"default.yaml", "gpu-binpack.yaml", "rtc.yaml"}) {
    SCOPED_TRACE(f);
    CliRun r = Cli({"schedule", "-f", kEx + "seed", "--config", kEx + "config/" + f});
    EXPECT_EQ(r.code, 0) << r.err;
  }
  std::string bad = ::testing::TempDir() + "/bad-config.yaml";
  std::ofstream(bad) << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                        "percentageOfNodesToScore: 150\n";
  CliRun r = Cli({"schedule", "-f", kEx + "seed", "--config", bad});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("error: " + bad + ":3: invalid KubeSchedulerConfiguration: percentageOfNodesToScore: Invalid value: 150", 0), 0u)
      << r.err;
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST(ExplainCliTest, GpuModelsBySelectorAffinityAndTaints) {
  CliRun r = Cli({"schedule", "-f", kEx + "gpu-models", "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 2u);
  EXPECT_EQ(j["placements"][0]["pod"], "train-a100");
  EXPECT_EQ(j["placements"][0]["node"], "a100-1");
  EXPECT_EQ(j["placements"][1]["pod"], "infer-t4");
  EXPECT_EQ(j["placements"][1]["node"], "t4-1");
  ASSERT_EQ(j["pending"].size(), 2u);
  for (const auto& p : j["pending"]) {
    EXPECT_EQ(p["message"],
              "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated "
              "taint(s). preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
    EXPECT_EQ(p["reason"], "no-eligible-node");
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Twelve 8-GPU nodes: n00..n05 run pods holding 8, 7, 6, 5, 4 and 3 GPUs
// (2 cpu and 8Gi per GPU), n11 has a taint; "train" asks 4 GPUs, 8 cpu and
// 32Gi, "huge" 9 GPUs.
std::string TwelveNodes() {
  const std::string path = ::testing::TempDir() + "/twelve-nodes.yaml";
  std::ofstream f(path);
  for (int i = 0; i < 12; ++i) {
    f << "apiVersion: v1\nkind: Node\nmetadata: {name: n" << (i < 10 ? "0" : "") << i << "}\n";
    if (i == 11) f << "spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}]}\n";
    f << "status: {allocatable: {cpu: \"32\", memory: 256Gi, pods: \"110\", nvidia.com/gpu: \"8\"}}\n---\n";
  }
  const int held[] = {8, 7, 6, 5, 4, 3};
  for (int i = 0; i < 6; ++i) {
    f << "apiVersion: v1\nkind: Pod\nmetadata: {name: run-" << i << "}\nspec:\n  nodeName: n0" << i
      << "\n  containers: [{name: c, image: i, resources: {requests: {cpu: \"" << 2 * held[i] << "\", memory: "
      << 8 * held[i] << "Gi}, limits: {nvidia.com/gpu: " << held[i] << "}}}]\n---\n";
  }
  f << "apiVersion: v1\nkind: Pod\nmetadata: {name: train}\nspec:\n  containers: [{name: c, image: i, resources: "
       "{requests: {cpu: \"8\", memory: 32Gi}, limits: {nvidia.com/gpu: 4}}}]\n---\n"
       "apiVersion: v1\nkind: Pod\nmetadata: {name: huge}\nspec:\n  containers: [{name: c, image: i, resources: "
       "{limits: {nvidia.com/gpu: 9}}}]\n";
  return path;
}

TEST(ExplainCliTest, RankedByScoreAndTruncated) {
  CliRun r = Cli({"explain", "-f", TwelveNodes(), "--policy", "kube-default", "--nodes", "5", "train"});
  ASSERT_EQ(r.code, 0) << r.err;
  // Empty nodes score highest: LeastAllocated (75 cpu + 87 memory) / 2 = 81,
  // balanced allocation (1 - |0.25 - 0.125| / 2) * 100 = 93, TaintToleration
  // 100 x 3; the tie is broken by the seeded generator.
  const std::string scores = "TaintToleration 0->100x3=300, NodeResourcesFit 81->81x1=81, "
                             "NodeResourcesBalancedAllocation 93->93x1=93\n";
  EXPECT_EQ(r.out,
            "pod default/train requests 4 nvidia.com/gpu, 8 cpu, 32Gi memory\n"
            "policy kube-default, queue order priority; the filter scan started at node 0 and looked for 12 feasible "
            "node(s)\n"
            "12 nodes: 7 feasible, 5 failed a filter\n"
            "  4 failed NodeResourcesFit: Insufficient nvidia.com/gpu\n"
            "  1 failed TaintToleration: node(s) had untolerated taint(s)\n"
            "\n"
            "  NODE  GPUS USED  FEASIBLE  FILTER               TOTAL  REASONS / SCORES (plugin raw->normalized x "
            "weight = weighted)\n"
            "  n08         0/8  yes       -                      474  " + scores +
            "  n06         0/8  yes       -                      474  " + scores +
            "  n07         0/8  yes       -                      474  " + scores +
            "  n09         0/8  yes       -                      474  " + scores +
            "  n10         0/8  yes       -                      474  " + scores +
            "  ... 7 more nodes, ranked the same way (--nodes all lists every node)\n"
            "\n"
            "chosen: n08 (highest total score 474, tied on 5 nodes: chosen uniformly at random (seeded))\n");
}

TEST(ExplainCliTest, AllNodesRankedFeasibleThenFailuresGrouped) {
  CliRun r = Cli({"explain", "-f", TwelveNodes(), "--policy", "kube-default", "--nodes", "all", "train"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string table = r.out.substr(r.out.find("  n10 "), r.out.find("\nchosen:") - r.out.find("  n10 "));
  EXPECT_EQ(table,
            "  n10         0/8  yes       -                      474  TaintToleration 0->100x3=300, NodeResourcesFit "
            "81->81x1=81, NodeResourcesBalancedAllocation 93->93x1=93\n"
            "  n05         3/8  yes       -                      456  TaintToleration 0->100x3=300, NodeResourcesFit "
            "67->67x1=67, NodeResourcesBalancedAllocation 89->89x1=89\n"
            "  n04         4/8  yes       -                      449  TaintToleration 0->100x3=300, NodeResourcesFit "
            "62->62x1=62, NodeResourcesBalancedAllocation 87->87x1=87\n"
            "  n03         5/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  n02         6/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  n01         7/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  n00         8/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  n11         0/8  no        TaintToleration          -  node(s) had untolerated taint(s)\n");
}

TEST(ExplainCliTest, PendingPodCountsFreeGpusAgainstItsNeed) {
  CliRun r = Cli({"explain", "-f", TwelveNodes(), "--policy", "kube-default", "--nodes", "3", "huge"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "pod default/huge requests 9 nvidia.com/gpu\n"
            "policy kube-default, queue order priority; the filter scan started at node 0 and looked for 12 feasible "
            "node(s)\n"
            "12 nodes: 0 feasible, 12 failed a filter\n"
            "  11 failed NodeResourcesFit: Insufficient nvidia.com/gpu\n"
            "  1 failed TaintToleration: node(s) had untolerated taint(s)\n"
            "\n"
            "  NODE  GPUS USED  FEASIBLE  FILTER               TOTAL  REASONS / SCORES (plugin raw->normalized x "
            "weight = weighted)\n"
            "  n06         0/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  n07         0/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  n09         0/8  no        NodeResourcesFit         -  Insufficient nvidia.com/gpu\n"
            "  ... 9 more nodes, ranked the same way (--nodes all lists every node)\n"
            "\n"
            "pending: 0/12 nodes are available: 1 node(s) had untolerated taint(s), 11 Insufficient nvidia.com/gpu. "
            "preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.\n"
            "\n"
            "diagnosis:\n"
            "  asked for:        9 nvidia.com/gpu on one node\n"
            "  largest node:     n00 with 8 GPUs allocatable\n"
            "  free GPUs then:   1 node with 0, 11 with 1-8\n"
            "  can it ever fit:  no, not on this cluster as it is\n"
            "  why:              can never fit: it requests 9 nvidia.com/gpu but the largest node has 8 (88 across all "
            "11 nodes, but a pod runs on one node and is never split across several); request at most 8 or add a "
            "bigger node\n"
            "  it would fit with: a smaller request (at most what the largest node has), or a bigger node\n");
}

// A pod with a GPU share says what share it asked for.
TEST(ExplainCliTest, GpuShareIsShownAsAskedFor) {
  const std::string path = ::testing::TempDir() + "/share.yaml";
  std::ofstream(path) << "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {cpu: \"8\", "
                         "memory: 64Gi, pods: \"110\", nvidia.com/gpu: \"1\"}}\n---\n"
                         "apiVersion: v1\nkind: Pod\nmetadata: {name: notebook, annotations: {gpu-fraction: \"0.5\"}}\n"
                         "spec: {containers: [{name: c, image: i}]}\n";
  CliRun r = Cli({"explain", "-f", path, "notebook"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "pod default/notebook requests 0.5 of a GPU (gpu-fraction: 0.5)");
  CliRun s = Cli({"schedule", "-f", path});
  EXPECT_NE(s.out.find("  GPUs: 0.5 requested, 1 capacity, 1 allocated (100%), 0 free; 1 of the allocated GPUs holds "
                       "GPU shares, which use 0.5 of it\n"),
            std::string::npos)
      << s.out;
}

TEST(ExplainCliTest, NamesInSeveralNamespacesAreRefused) {
  const std::string path = ::testing::TempDir() + "/namespaces.yaml";
  std::ofstream(path) << "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {cpu: \"8\", "
                         "memory: 64Gi, pods: \"110\", nvidia.com/gpu: \"1\"}}\n---\n"
                         "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: team-b}\n"
                         "spec: {containers: [{name: c, image: i}]}\n---\n"
                         "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: team-a}\n"
                         "spec: {containers: [{name: c, image: i}]}\n---\n"
                         "apiVersion: v1\nkind: Pod\nmetadata: {name: solo, namespace: team-a}\n"
                         "spec: {containers: [{name: c, image: i}]}\n";
  struct Case {
    const char* name;
    std::vector<std::string> args;
    int code;
    std::string out_first_line, err;
  } cases[] = {
      {"ambiguous", {"web"}, 2, "",
       "error: pod \"web\" is in 2 namespaces: team-b/web, team-a/web; name one with -n NAMESPACE or as "
       "NAMESPACE/web\n"},
      {"-n", {"-n", "team-a", "web"}, 0, "pod team-a/web requests nothing (a best-effort pod)", ""},
      {"namespace/name", {"team-b/web"}, 0, "pod team-b/web requests nothing (a best-effort pod)", ""},
      {"unique without -n", {"solo"}, 0, "pod team-a/solo requests nothing (a best-effort pod)", ""},
      {"not in that namespace", {"-n", "team-c", "web"}, 2, "",
       "error: pod \"team-c/web\" is not in the input (pods of that name: team-b/web, team-a/web)\n"},
      {"contradiction", {"-n", "team-a", "team-b/web"}, 2, "",
       "error: \"team-b/web\" names namespace \"team-b\" but -n gives \"team-a\"\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> args = {"explain", "-f", path};
    args.insert(args.end(), c.args.begin(), c.args.end());
    CliRun r = Cli(args);
    EXPECT_EQ(r.code, c.code);
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), c.out_first_line);
    EXPECT_EQ(r.err, c.err);
  }
}

// A pod no scheduler gpusched runs serves was never tried on the nodes:
// explain does not call it "can never fit".
TEST(ExplainCliTest, PodOfAnotherSchedulerIsNotAttempted) {
  CliRun r = Cli({"explain", "-f", std::string(GPUSCHED_SOURCE_DIR) + "/examples/mistakes/other-scheduler", "kai-train"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "pod default/kai-train requests 2 nvidia.com/gpu\n"
            "pending: (not handled by any profile)\n"
            "\n"
            "diagnosis:\n"
            "  asked for:        2 nvidia.com/gpu on one node\n"
            "  largest node:     gpu-node-1 with 4 GPUs allocatable\n"
            "  can it ever fit:  not attempted (see why)\n"
            "  why:              not scheduled: spec.schedulerName is \"kai-scheduler\" (NVIDIA KAI-Scheduler: queues, "
            "gang scheduling, GPU sharing), a scheduler gpusched does not run (it serves \"default-scheduler\"), so the "
            "pod waits for that scheduler; to model it with a gpusched policy, pass --scheduler-name "
            "kai-scheduler=POLICY (e.g. kai-scheduler=best-fit)\n"
            "  it would fit with: --scheduler-name NAME=POLICY, to model that scheduler with a gpusched policy\n");
}

}  // namespace
}  // namespace gpusched

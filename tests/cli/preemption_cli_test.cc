// `gpusched schedule` with DefaultPreemption on examples/preemption: the
// training Job queued first fills both nodes, the inference pods preempt
// one training pod (the PDB allows one disruption) and are placed where it
// ran. Exact output, as examples/preemption/README.md shows it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

// The example's schedule command with `training` (a file under
// examples/preemption/) as the low-priority workload, then `extra`.
std::vector<std::string> ExampleArgsWith(const std::string& training, std::vector<std::string> extra) {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/preemption/";
  std::vector<std::string> args = {"schedule", "-f", dir + "cluster.yaml", "-f", dir + "priorityclasses.yaml",
                                   "-f", dir + training, "-f", dir + "inference.yaml",
                                   "--policy", "kube-default", "--order", "fifo"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> ExampleArgs(std::vector<std::string> extra) {
  return ExampleArgsWith("training.yaml", std::move(extra));
}

TEST(PreemptionCliTest, ExampleTable) {
  CliRun r = Cli(ExampleArgs({}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "scheduling result:\n"
            "  training/llm-pretrain-0-5p9gs -> gpu-node-2\n"
            "  training/llm-pretrain-1-sb7kn -> gpu-node-2\n"
            "  training/llm-pretrain-3-8gzrd -> gpu-node-1\n"
            "  serving/llm-inference-nz7rhjqthn-qbd8g -> gpu-node-1\n"
            "  serving/llm-inference-nz7rhjqthn-gv9bc -> gpu-node-1\n"
            "\n"
            "node state after scheduling:\n"
            "  gpu-node-1: 8/8 GPUs used\n"
            "  gpu-node-2: 8/8 GPUs used\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  gpu-node-1: training/llm-pretrain-3-8gzrd [4,5,6,7], serving/llm-inference-nz7rhjqthn-qbd8g [0,1], serving/llm-inference-nz7rhjqthn-gv9bc [2,3]\n"
            "  gpu-node-2: training/llm-pretrain-0-5p9gs [0,1,2,3], training/llm-pretrain-1-sb7kn [4,5,6,7]\n"
            "\n"
            "preempted (evicted to make room for a higher-priority pod):\n"
            "  training/llm-pretrain-2-jv4nj on gpu-node-1, by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "\n"
            "summary: 2 nodes, 6 pods: 5 placed, 0 pending (0 can never fit), 1 preempted, 0 rejected\n"
            "  GPUs: 20 requested, 16 capacity, 16 allocated (100%), 0 free\n"
            "  1 pod was preempted (evicted to make room for higher-priority pods; see preempted)\n");
}

TEST(PreemptionCliTest, ExampleJson) {
  CliRun r = Cli(ExampleArgs({"-o", "json", "--explain"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["preempted"], nlohmann::json::parse(R"([{"pod": "llm-pretrain-2-jv4nj", "namespace": "training",
      "node": "gpu-node-1", "by": "serving/llm-inference-nz7rhjqthn-qbd8g"}])"));
  EXPECT_EQ(j["summary"]["preempted"], 1);
  EXPECT_EQ(j["summary"]["placed"], 5);
  int with_victims = 0;
  for (const auto& p : j["placements"]) {
    EXPECT_NE(p["pod"], "llm-pretrain-2-jv4nj");  // one outcome per pod
    if (!p.contains("preempted")) continue;
    ++with_victims;
    EXPECT_EQ(p["pod"], "llm-inference-nz7rhjqthn-qbd8g");
    EXPECT_EQ(p["preempted"], nlohmann::json::parse(R"(["training/llm-pretrain-2-jv4nj"])"));
    EXPECT_EQ(p["first_attempt"]["message"], "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
    EXPECT_TRUE(p["first_attempt"].contains("explain"));
  }
  EXPECT_EQ(with_victims, 1);
}

// In priority order (kube-default's) inference goes first and nothing is
// preempted: the last training pod waits.
TEST(PreemptionCliTest, PriorityOrderNeedsNoPreemption) {
  const std::string dir = std::string(GPUSCHED_SOURCE_DIR) + "/examples/preemption";
  CliRun r = Cli({"schedule", "-f", dir, "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["preempted"].empty());
  EXPECT_EQ(j["summary"]["pending"], 1);
}

// `simulate`: inference needing 6 GPUs evicts the training Job's pod (back
// from its last checkpoint, 2 minutes lost) and the bare notebook (gone,
// 90.5 minutes lost), after their grace periods.
TEST(PreemptionCliTest, SimulateExample) {
  CliRun r = Cli({"simulate", "-f", std::string(GPUSCHED_SOURCE_DIR) + "/examples/preemption/simulate/workload.yaml",
                  "--policy", "kube-default"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "simulated 3 pods on 1 node, queue order priority, seed 1\n"
            "\n"
            "  POLICY            PODS  FINISHED  RUNNING  PENDING  REJECTED  GPU ALLOC  FRAG   WAIT p50/p90/p99        JCT p50/p99\n"
            "  kube-default         3         2        0        0         0     70.0%  13.3%   0.0s/2.0m/2.0m          62.0m/5.03h\n"
            "\n"
            "  GPU ALLOC and FRAG are time-weighted means over the run; FRAG is FGD's fragmentation (free GPU share\n"
            "  no typical pod of this workload could use) as a % of GPU capacity; WAIT is arrival to first bind.\n"
            "\n"
            "preemption with kube-default: 1 preemption evicted 2 pods (by priority: 100=2), 6.17 GPU-hours of work lost; 1 bare pod gone, the others recreated by their controllers\n");
}

// `gpusched explain` names the preemptor of a victim, and a preemptor's
// first attempt and victims.
TEST(PreemptionCliTest, ExplainVictimAndPreemptor) {
  std::vector<std::string> args = ExampleArgs({"training/llm-pretrain-2-jv4nj"});
  args[0] = "explain";
  CliRun v = Cli(args);
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(v.out,
            "pod training/llm-pretrain-2-jv4nj requests 4 nvidia.com/gpu\n"
            "preempted: evicted from gpu-node-1 to make room for serving/llm-inference-nz7rhjqthn-qbd8g (higher "
            "priority); it no longer runs\n");
  args = ExampleArgs({"serving/llm-inference-nz7rhjqthn-qbd8g"});
  args[0] = "explain";
  CliRun p = Cli(args);
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_EQ(p.out.substr(0, p.out.find("policy kube-default")),
            "pod serving/llm-inference-nz7rhjqthn-qbd8g requests 2 nvidia.com/gpu\n"
            "first attempt: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n"
            "preemption evicted: training/llm-pretrain-2-jv4nj (on gpu-node-1); then:\n");
  EXPECT_NE(p.out.find("chosen: gpu-node-1"), std::string::npos) << p.out;
}

// --preempt-gangs on examples/preemption/gangs: a 4-pod PyTorchJob gang
// (minAvailable 4) fills the cluster; the first inference pod evicts one
// worker. upstream leaves the other 3 running (the gang is broken and the
// table's gangs section shows its 12 idle GPUs); whole evicts them too, and
// the first inference pod still lands on its nominated node.
std::vector<std::string> GangArgs(std::vector<std::string> extra) {
  return ExampleArgsWith("gangs/training.yaml", std::move(extra));
}

TEST(PreemptionCliTest, GangExampleUpstream) {
  CliRun r = Cli(GangArgs({}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, Cli(GangArgs({"--preempt-gangs", "upstream"})).out);
  EXPECT_EQ(r.out,
            "scheduling result:\n"
            "  training/llm-finetune-master-0 -> gpu-node-2\n"
            "  training/llm-finetune-worker-0 -> gpu-node-2\n"
            "  training/llm-finetune-worker-1 -> gpu-node-1\n"
            "  serving/llm-inference-nz7rhjqthn-qbd8g -> gpu-node-1\n"
            "  serving/llm-inference-nz7rhjqthn-gv9bc -> gpu-node-1\n"
            "\n"
            "node state after scheduling:\n"
            "  gpu-node-1: 8/8 GPUs used\n"
            "  gpu-node-2: 8/8 GPUs used\n"
            "\n"
            "gangs (members placed / needed):\n"
            "  training/llm-finetune: 3/4 placed, 0 pending, cannot start; 12 GPUs held idle by its placed members "
            "[placed one by one: its pods' scheduler does not gang]\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  gpu-node-1: training/llm-finetune-worker-1 [0,1,2,3], serving/llm-inference-nz7rhjqthn-qbd8g [4,5], "
            "serving/llm-inference-nz7rhjqthn-gv9bc [6,7]\n"
            "  gpu-node-2: training/llm-finetune-master-0 [0,1,2,3], training/llm-finetune-worker-0 [4,5,6,7]\n"
            "\n"
            "preempted (evicted to make room for a higher-priority pod):\n"
            "  training/llm-finetune-worker-2 on gpu-node-1, by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "  gang training/llm-finetune broken (below minCount 4) by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "\n"
            "summary: 2 nodes, 6 pods: 5 placed, 0 pending (0 can never fit), 1 preempted, 0 rejected\n"
            "  GPUs: 20 requested, 16 capacity, 16 allocated (100%), 0 free\n"
            "  1 pod was preempted (evicted to make room for higher-priority pods; see preempted)\n");
}

TEST(PreemptionCliTest, GangExampleWhole) {
  CliRun r = Cli(GangArgs({"--preempt-gangs", "whole"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "scheduling result:\n"
            "  serving/llm-inference-nz7rhjqthn-qbd8g -> gpu-node-1\n"
            "  serving/llm-inference-nz7rhjqthn-gv9bc -> gpu-node-2\n"
            "\n"
            "node state after scheduling:\n"
            "  gpu-node-1: 2/8 GPUs used\n"
            "  gpu-node-2: 2/8 GPUs used\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  gpu-node-1: serving/llm-inference-nz7rhjqthn-qbd8g [4,5]\n"
            "  gpu-node-2: serving/llm-inference-nz7rhjqthn-gv9bc [0,1]\n"
            "\n"
            "preempted (evicted to make room for a higher-priority pod):\n"
            "  training/llm-finetune-worker-2 on gpu-node-1, by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "  training/llm-finetune-master-0 on gpu-node-2, by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "  training/llm-finetune-worker-0 on gpu-node-2, by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "  training/llm-finetune-worker-1 on gpu-node-1, by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "  gang training/llm-finetune broken (below minCount 4) by serving/llm-inference-nz7rhjqthn-qbd8g\n"
            "\n"
            "summary: 2 nodes, 6 pods: 2 placed, 0 pending (0 can never fit), 4 preempted, 0 rejected\n"
            "  GPUs: 20 requested, 16 capacity, 4 allocated (25%), 12 free\n"
            "  4 pods were preempted (evicted to make room for higher-priority pods; see preempted)\n");
  CliRun j = Cli(GangArgs({"--preempt-gangs", "whole", "-o", "json"}));
  ASSERT_EQ(j.code, 0) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["gangs_broken_by_preemption"], nlohmann::json::parse(R"([{"gang": "training/llm-finetune",
      "min_count": 4, "by": "serving/llm-inference-nz7rhjqthn-qbd8g"}])"));
  EXPECT_EQ(doc["preempted"].size(), 4u);
  EXPECT_EQ(doc["preempted"][1]["by"], "serving/llm-inference-nz7rhjqthn-qbd8g");
  EXPECT_EQ(doc["preempted"][1]["node"], "gpu-node-2");
}

TEST(PreemptionCliTest, PreemptGangsFlagIsChecked) {
  for (const char* command : {"schedule", "simulate"}) {
    CliRun r = Cli({command, "-f", std::string(GPUSCHED_SOURCE_DIR) + "/examples/preemption/cluster.yaml",
                    "--preempt-gangs", "all"});
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_EQ(r.err, "error: unknown --preempt-gangs \"all\" (known: upstream, whole)\n") << command;
  }
}

// `simulate` on examples/preemption/gangs/simulate.yaml: the preemption
// lines of both modes, as docs/preemption.md shows them.
TEST(PreemptionCliTest, GangSimulateExample) {
  const std::string file = std::string(GPUSCHED_SOURCE_DIR) + "/examples/preemption/gangs/simulate.yaml";
  const std::pair<const char*, const char*> cases[] = {
      {"upstream",
       "preemption with kube-default: 1 preemption evicted 1 pod (by priority: 0=1), 0.03 GPU-hours of work lost; 0 "
       "bare pods gone, the others recreated by their controllers\n"
       "  gangs broken by preemption (--preempt-gangs upstream): 1 gang left below minCount, 0.03 GPU-hours of their "
       "work lost, 12.10 GPU-hours held idle by their members still running\n"},
      {"whole",
       "preemption with kube-default: 1 preemption evicted 4 pods (by priority: 0=4), 0.13 GPU-hours of work lost; 0 "
       "bare pods gone, the others recreated by their controllers\n"
       "  gangs broken by preemption (--preempt-gangs whole): 1 gang left below minCount, 0.13 GPU-hours of their "
       "work lost, 12.00 GPU-hours held idle by their members still running\n"},
  };
  for (const auto& [mode, want] : cases) {
    CliRun r = Cli({"simulate", "-f", file, "--policy", "kube-default", "--preempt-gangs", mode});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(want), std::string::npos) << mode << "\n" << r.out;
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// A dump as `kubectl get nodes,pods -o yaml` gives it: pods listed by name,
// so the list order is not the start order.
std::string WriteDump(const std::string& name, const std::string& pods) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << "apiVersion: v1\n"
                         "kind: List\n"
                         "items:\n"
                         "- apiVersion: v1\n"
                         "  kind: Node\n"
                         "  metadata: {name: node1}\n"
                         "  status:\n"
                         "    allocatable: {cpu: '64', memory: 256Gi, pods: '110', nvidia.com/gpu: '8'}\n"
                      << pods;
  return path;
}

std::string DumpPod(const std::string& name, int priority, int gpus, const std::string& node,
                    const std::string& status, const std::string& meta = "") {
  return "- apiVersion: v1\n"
         "  kind: Pod\n"
         "  metadata: {name: " + name + ", namespace: ml" + meta + "}\n"
         "  spec:\n" +
         (node.empty() ? "" : "    nodeName: " + node + "\n") +
         "    priority: " + std::to_string(priority) + "\n"
         "    containers:\n"
         "    - name: main\n"
         "      image: trainer\n"
         "      resources: {limits: {nvidia.com/gpu: " + std::to_string(gpus) + "}}\n"
         "  status: " + status + "\n";
}

// DefaultPreemption reprieves the earlier-started of two equal victims
// (MoreImportantPod reads status.startTime): train-b started first, so
// train-a, listed first, is evicted.
TEST(PreemptionCliTest, VictimByStartTimeNotListOrder) {
  const std::string dump = WriteDump(
      "preempt-start-time.yaml",
      DumpPod("train-a", 0, 4, "node1", "{phase: Running, startTime: '2025-03-02T10:00:00Z'}") +
          DumpPod("train-b", 0, 4, "node1", "{phase: Running, startTime: '2025-03-01T10:00:00Z'}") +
          DumpPod("serve", 1000, 4, "", "{phase: Pending}"));
  CliRun r = Cli({"schedule", "-f", dump, "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["preempted"], nlohmann::json::parse(R"([{"pod": "train-a", "namespace": "ml", "node": "node1",
      "by": "ml/serve"}])"));
}

// A preemptor nominated to a node where its earlier victim is still
// terminating (deletionTimestamp, DisruptionTarget by the scheduler) waits:
// PodEligibleToPreemptOthers. Without the nomination it preempts.
TEST(PreemptionCliTest, TerminatingVictimOnNominatedNode) {
  const std::string victim = DumpPod(
      "old-victim", 0, 4, "node1",
      "{phase: Running, startTime: '2025-03-01T10:00:00Z', conditions: [{type: DisruptionTarget, status: 'True', "
      "reason: PreemptionByScheduler}]}",
      ", deletionTimestamp: '2025-03-03T10:00:00Z'");
  const std::string filler =
      DumpPod("filler", 0, 4, "node1", "{phase: Running, startTime: '2025-03-01T09:00:00Z'}");
  const std::string waiting = WriteDump(
      "preempt-terminating.yaml",
      victim + filler + DumpPod("serve", 1000, 8, "", "{phase: Pending, nominatedNodeName: node1}"));
  CliRun r = Cli({"schedule", "-f", waiting, "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["preempted"].empty());
  ASSERT_EQ(j["pending"].size(), 1u);
  EXPECT_EQ(j["pending"][0]["message"],
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: not eligible due to a terminating "
            "pod on the nominated node.");

  const std::string fresh = WriteDump(
      "preempt-not-nominated.yaml", victim + filler + DumpPod("serve", 1000, 8, "", "{phase: Pending}"));
  r = Cli({"schedule", "-f", fresh, "--policy", "kube-default", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["preempted"].size(), 2u);
}

}  // namespace
}  // namespace gpusched

// A plugin that only the test's registry holds (tests/support/label_gate_plugin.h),
// through the whole command line: RunCli with that registry (cli.cc) runs it
// in schedule, explain and serve, as kube-scheduler built with
// app.WithPlugin would.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.h"
#include "gpusched/cli/cli.h"
#include "../support/label_gate_plugin.h"

namespace gpusched {
namespace {

// A plugin only the test's registry holds (tests/support/label_gate_plugin.h),
// enabled with a score weight and its own args by a KubeSchedulerConfiguration:
// RunCli with that registry runs it in schedule, explain and serve. Without
// it, the configuration is refused as kube-scheduler refuses an unknown plugin.
class RegistryCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / "label-gate";
    std::filesystem::create_directories(dir_);
    // n0 is empty and large (LeastAllocated prefers it), n1 a t4, n2 a
    // smaller a100: LabelGate (weight 5) keeps the pod off n0 and takes it to n2.
    std::ofstream(dir_ / "cluster.yaml") << R"(apiVersion: v1
kind: Node
metadata: {name: n0}
status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110", nvidia.com/gpu: "8"}}
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {gpu-tier: t4}}
status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110", nvidia.com/gpu: "8"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {gpu-tier: a100}}
status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110", nvidia.com/gpu: "8"}}
---
apiVersion: v1
kind: Pod
metadata: {name: train, namespace: ml}
spec:
  containers:
  - name: c
    image: trainer
    resources: {requests: {cpu: "4", memory: 16Gi}, limits: {nvidia.com/gpu: "1"}}
)";
    std::ofstream(dir_ / "config.yaml") << R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    multiPoint:
      enabled: [{name: LabelGate, weight: 5}]
  pluginConfig:
  - name: LabelGate
    args: {label: gpu-tier, prefer: a100}
)";
  }
  testing::CliRun Run(std::vector<std::string> args) {
    args.insert(args.begin(), "gpusched");
    std::ostringstream out, err;
    const int code = RunCli(args, out, err, registry_);
    return {code, out.str(), err.str()};
  }
  std::string Path(const char* name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
  const PluginRegistry registry_ = testing::RegistryWithLabelGate();
};

TEST_F(RegistryCliTest, ThrowAwayPluginRunsInScheduleAndExplain) {
  const testing::CliRun in_tree = testing::Cli({"schedule", "-f", Path("cluster.yaml"), "--config", Path("config.yaml")});
  EXPECT_EQ(in_tree.code, 2);
  EXPECT_EQ(in_tree.out, "");
  EXPECT_NE(in_tree.err.find("PreFilterPlugin \"LabelGate\" does not exist"), std::string::npos) << in_tree.err;

  const testing::CliRun schedule = Run({"schedule", "-f", Path("cluster.yaml"), "--config", Path("config.yaml")});
  EXPECT_EQ(schedule.code, 0) << schedule.err;
  EXPECT_EQ(schedule.err, "");
  EXPECT_EQ(schedule.out.substr(0, schedule.out.find("\n\n")), "scheduling result:\n  ml/train         -> n2");

  const testing::CliRun explain =
      Run({"explain", "-f", Path("cluster.yaml"), "--config", Path("config.yaml"), "-n", "ml", "train"});
  EXPECT_EQ(explain.code, 0) << explain.err;
  EXPECT_EQ(explain.out,
            "pod ml/train requests 1 nvidia.com/gpu, 4 cpu, 16Gi memory\n"
            "policy kube-default, queue order priority; the filter scan started at node 0 and looked for 3 feasible "
            "node(s)\n"
            "3 nodes: 2 feasible, 1 failed a filter\n"
            "  1 failed LabelGate: node(s) didn't have label gpu-tier\n"
            "\n"
            "  NODE  GPUS USED  FEASIBLE  FILTER               TOTAL  REASONS / SCORES (plugin raw->normalized x weight = "
            "weighted)\n"
            "  n2          0/8  yes       -                      975  TaintToleration 0->100x3=300, NodeResourcesFit "
            "75->75x1=75, NodeResourcesBalancedAllocation 100->100x1=100, LabelGate 100->100x5=500\n"
            "  n1          0/8  yes       -                      493  TaintToleration 0->100x3=300, NodeResourcesFit "
            "93->93x1=93, NodeResourcesBalancedAllocation 100->100x1=100, LabelGate 0->0x5=0\n"
            "  n0          0/8  no        LabelGate                -  node(s) didn't have label gpu-tier\n"
            "\n"
            "chosen: n2 (highest total score 975)\n");
}

// serve, in-process: SIGTERM and SIGINT are blocked in every thread before it
// starts, so that the signal the test sends at the end reaches serve's own
// signal thread (sigtimedwait) and nothing else.
TEST_F(RegistryCliTest, ThrowAwayPluginRunsInServe) {
  int port = 0;
  {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    socklen_t len = sizeof addr;
    ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    port = ntohs(addr.sin_port);
    close(fd);
  }
  sigset_t signals, old;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &signals, &old), 0);
  testing::CliRun served{};
  std::thread serve([&] {
    served = Run({"serve", "-f", Path("cluster.yaml"), "--config", Path("config.yaml"), "--listen",
                  "127.0.0.1:" + std::to_string(port)});
  });
  httplib::Client client("127.0.0.1", port);
  bool ready = false;
  for (int i = 0; i < 3000 && !ready; ++i) {  // until it listens (at most 30 s)
    httplib::Result r = client.Get("/readyz");
    ready = r && r->status == 200;
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(ready);
  const std::string args =
      R"({"pod":{"metadata":{"name":"serve-1","namespace":"ml","uid":"0b5a2f7e-0000-4000-8000-000000000001"},)"
      R"("spec":{"containers":[{"name":"c","image":"trainer","resources":{"requests":{"cpu":"4","memory":"16Gi"},)"
      R"("limits":{"nvidia.com/gpu":"1"}}}]}},"nodenames":["n0","n1","n2"]})";
  httplib::Result filter = client.Post("/filter", args, "application/json");
  httplib::Result prioritize = client.Post("/prioritize", args, "application/json");
  client.stop();
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  serve.join();
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, &old, nullptr), 0);
  ASSERT_TRUE(filter);
  EXPECT_EQ(filter->status, 200);
  EXPECT_EQ(filter->body,
            R"({"Nodes":null,"NodeNames":["n1","n2"],"FailedNodes":{},)"
            R"("FailedAndUnresolvableNodes":{"n0":"node(s) didn't have label gpu-tier"},"Error":""})");
  ASSERT_TRUE(prioritize);
  EXPECT_EQ(prioritize->status, 200);
  // The node ScheduleOne would bind (LabelGate's preferred a100) gets the top extender score.
  EXPECT_EQ(prioritize->body, R"([{"Host":"n0","Score":0},{"Host":"n1","Score":0},{"Host":"n2","Score":10}])");
  EXPECT_EQ(served.code, 0) << served.err;
}

}  // namespace
}  // namespace gpusched

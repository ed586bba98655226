#include "gpusched/report/json_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "gpusched/sched/plugins/filter_chain.h"
#include "../sched/test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

TEST(JsonWriterTest, FullDocument) {
  ClusterState c({GpuNode("a", 2, 4000, 8LL << 30, 10)});
  std::vector<Pod> pods = {GpuPod("p", 1, 1500), GpuPod("q", 4)};
  std::vector<const Pod*> ptrs = {&pods[0], &pods[1]};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(ptrs, c, s, QueueOrder::kFifo);
  std::vector<InputError> rejected = {{"Node/x", "n.yaml", 7, "bad node"}};
  std::vector<std::string> warnings = {"n.yaml:1: something"};
  std::ostringstream out;
  WriteJson(out, RunReport{c, ptrs, r, rejected, warnings, "first-fit", "fifo"});
  nlohmann::json got = nlohmann::json::parse(out.str());
  nlohmann::json want = nlohmann::json::parse(R"json({
    "placements": [{"pod": "p", "namespace": "default", "node": "a", "gpus": [0], "preexisting": false}],
    "pending": [{"pod": "q", "namespace": "default",
                 "message": "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.",
                 "forever": true, "reason": "too-large",
                 "diagnosis": "can never fit: it requests 4 nvidia.com/gpu but the largest node has 2; request at most 2 or add a bigger node"}],
    "preempted": [],
    "rejected": [{"object": "Node/x", "file": "n.yaml", "line": 7, "error": "bad node"}],
    "nodes": [{"name": "a", "gpus_total": 2, "gpus_used": 1,
               "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10", "nvidia.com/gpu": "2"},
               "requested": {"cpu": "1500m", "memory": "0", "pods": "1", "nvidia.com/gpu": "1"}}],
    "summary": {"policy": "first-fit", "order": "fifo", "nodes": 1, "pods": 2, "placed": 1, "preexisting": 0,
                "pending": 1, "pending_forever": 1, "preempted": 0, "rejected": 1, "gpus_capacity": 2, "gpus_requested": 5,
                "gpus_allocated": 1, "gpus_free": 1, "gpus_pending": 4,
                "gpu_milli_requested": 5000, "gpu_milli_pending": 4000, "gpus_holding_shares": 0,
                "gpu_milli_in_shares": 0,
                "verdict": "1 pending pod can never fit on this cluster as it is (see why pending)"},
    "warnings": ["n.yaml:1: something"]
  })json");
  EXPECT_EQ(got, want) << got.dump(2);
  // Keys come out in the documented order.
  EXPECT_EQ(out.str().find("\"placements\""), 4u);
}

// A cluster with device-plugin MIG devices and time-sliced replicas gets
// summary.device_plugin (report/device_plugin_gpus.h counts it); others not.
TEST(JsonWriterTest, DevicePluginSummary) {
  Node mig = GpuNode("a100", -1);
  mig.meta.labels = {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"}};
  mig.allocatable["nvidia.com/mig-3g.40gb"] = Quantity::FromInt(2);
  Node ts = GpuNode("t4", 8);
  ts.meta.labels = {{"nvidia.com/gpu.product", "Tesla-T4-SHARED"}, {"nvidia.com/gpu.replicas", "4"}};
  ClusterState c({mig, ts});
  std::vector<Pod> pods = {GpuPod("p", 2)};
  std::vector<const Pod*> ptrs = {&pods[0]};
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  BatchResult r = ScheduleBatch(ptrs, c, s, QueueOrder::kFifo);
  std::vector<InputError> rejected;
  std::vector<std::string> warnings;
  std::ostringstream out;
  WriteJson(out, RunReport{c, ptrs, r, rejected, warnings, "first-fit", "fifo"});
  nlohmann::json got = nlohmann::json::parse(out.str())["summary"]["device_plugin"];
  nlohmann::json want = nlohmann::json::parse(R"json({
    "mig": {"devices": 2, "nodes": 1, "gpu_milli": 1000, "held": 0, "held_gpu_milli": 0, "unsized": 0,
            "single_strategy_devices": 0, "single_strategy_pods": 0},
    "shared": [{"sharing": "time-slicing", "gpus": 2, "nodes": 1, "replicas": 8, "held": 2, "pods": 1,
                "pods_over_one_replica": 1}]
  })json");
  EXPECT_EQ(got, want) << got.dump(2);

  ClusterState plain({GpuNode("a", 2)});
  BatchResult r2 = ScheduleBatch(ptrs, plain, s, QueueOrder::kFifo);
  std::ostringstream out2;
  WriteJson(out2, RunReport{plain, ptrs, r2, rejected, warnings, "first-fit", "fifo"});
  EXPECT_FALSE(nlohmann::json::parse(out2.str())["summary"].contains("device_plugin"));
}

}  // namespace
}  // namespace gpusched

// Tests for src/model/node_gpus.cc. Sources: the FGD simulator's node format
// (kubernetes-scheduler-simulator example/test-cluster/node/pai-node-00.yaml:
// alibabacloud.com/gpu-count "2", gpu-milli "2000"); KAI-Scheduler's
// getNodeGpuMemory (pkg/scheduler/api/node_info/node_info.go): MiB below
// 1 TiB-in-MiB, else bytes divided by 1024*1024, floored to hundreds.
#include "gpusched/model/node_gpus.h"

#include <gtest/gtest.h>

#include <string>

namespace gpusched {
namespace {

Node AlibabaNode(const std::string& count, bool with_nvidia = false) {
  Node n;
  n.meta.name = "pai-node-00";
  n.has_allocatable = true;
  n.allocatable["alibabacloud.com/gpu-count"] = *Quantity::Parse(count);
  n.allocatable["alibabacloud.com/gpu-milli"] = *Quantity::Parse(std::to_string(std::stoi(count) * 1000));
  n.allocatable["cpu"] = *Quantity::Parse("64");
  if (with_nvidia) n.allocatable["nvidia.com/gpu"] = *Quantity::Parse("8");
  return n;
}

TEST(NodeGpusTest, AlibabaGpuCountIsTheDeviceCount) {
  Resources r = NodeAllocatableResources(AlibabaNode("2"));
  EXPECT_EQ(r.Scalar("nvidia.com/gpu"), 2);
  EXPECT_FALSE(r.HasScalar("alibabacloud.com/gpu-count"));  // moved, not copied
  EXPECT_EQ(r.Scalar("alibabacloud.com/gpu-milli"), 2000);
  EXPECT_EQ(r.milli_cpu, 64000);
}

TEST(NodeGpusTest, NvidiaGpuWinsOverAlibabaCount) {
  Resources r = NodeAllocatableResources(AlibabaNode("2", true));
  EXPECT_EQ(r.Scalar("nvidia.com/gpu"), 8);
  EXPECT_EQ(r.Scalar("alibabacloud.com/gpu-count"), 2);
}

TEST(NodeGpusTest, GpuMemoryLabel) {
  struct Case {
    const char* label;  // nullptr: absent
    int64_t want;
  };
  const Case cases[] = {
      {nullptr, -1},          {"81920", 81900},      {"23034", 23000}, {"16384", 16300},
      {"100", 100},           {"99", 0},             {"abc", -1},      {"", -1},
      {"1.5", -1},            {"+40960", 40900},     {"-5", 0},
      // 1 TiB or more "in MiB" is bytes (GFD issue #26): 85899345920 B = 81920 MiB.
      {"85899345920", 81900}, {"1048576", 0},  // 1 MiB, floored to 0
  };
  for (const Case& c : cases) {
    ObjectMeta m;
    if (c.label) m.labels["nvidia.com/gpu.memory"] = c.label;
    EXPECT_EQ(NodeGpuMemoryMib(m), c.want) << (c.label ? c.label : "(absent)");
  }
}

TEST(NodeGpusTest, MigProfile) {
  EXPECT_EQ(MigProfile("nvidia.com/mig-1g.10gb"), "1g.10gb");
  EXPECT_EQ(MigProfile("nvidia.com/mig-3g.40gb"), "3g.40gb");
  EXPECT_EQ(MigProfile("nvidia.com/gpu"), "");
  EXPECT_EQ(MigProfile("example.com/mig-1g.10gb"), "");
}

}  // namespace
}  // namespace gpusched

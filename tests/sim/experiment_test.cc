#include "gpusched/sim/experiment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpusched/model/quantity.h"

namespace gpusched {
namespace {

Node GpuNode(const std::string& name, int64_t gpus) {
  Node n;
  n.meta.name = name;
  n.has_allocatable = true;
  n.allocatable["cpu"] = Quantity::FromMilli(64000);
  n.allocatable["memory"] = Quantity::FromInt(1LL << 38, Quantity::Format::kBinarySI);
  n.allocatable["pods"] = Quantity::FromInt(110);
  n.allocatable["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  return n;
}

std::vector<Pod> OneGpuPods(int count) {
  std::vector<Pod> pods;
  for (int i = 0; i < count; ++i) {
    Pod p;
    p.meta.name = "p" + std::to_string(i);
    p.meta.namespace_ = "default";
    Container c;
    c.name = "c";
    c.limits["cpu"] = Quantity::FromMilli(1000);
    c.limits["nvidia.com/gpu"] = Quantity::FromInt(1);
    c.requests = c.limits;
    p.containers.push_back(c);
    pods.push_back(p);
  }
  return pods;
}

TEST(BucketSamplesTest, MeansPerBucketWithTheNeighbourWindowForGaps) {
  // merge_alloc_discrete.py: a bucket's mean, or the mean over x-1..x+1.
  std::vector<double> got = BucketSamples({{0, 10}, {0, 20}, {2, 30}, {9, 99}}, 4);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_DOUBLE_EQ(got[0], 15);
  EXPECT_DOUBLE_EQ(got[1], 20);  // (10 + 20 + 30) / 3
  EXPECT_DOUBLE_EQ(got[2], 30);
  EXPECT_DOUBLE_EQ(got[3], 30);  // only bucket 2 in 2..4
  EXPECT_TRUE(std::isnan(got[4]));
}

TEST(ExperimentTest, EveryPodPlacedFillsTheClusterLinearly) {
  // 4 one-GPU pods on 2 x 2 GPUs, no tuning: after pod k, arrived = used =
  // 25k %, so unallocated is 100 - x at x = 25, 50, 75, 100.
  ExperimentOptions opt;
  opt.policies = {"first-fit", "fgd"};
  opt.seeds = {42, 43};
  opt.tune_ratio = 1.0;
  opt.max_x = 100;
  ExperimentResult r = RunExperiment({GpuNode("a", 2), GpuNode("b", 2)}, OneGpuPods(4), opt);
  EXPECT_EQ(r.gpu_milli_capacity, 4000);
  ASSERT_EQ(r.runs.size(), 4u);
  for (const ExperimentRun& run : r.runs) {
    EXPECT_EQ(run.pods, 4);
    EXPECT_EQ(run.placed, 4);
    EXPECT_EQ(run.failed, 0);
    EXPECT_DOUBLE_EQ(run.alloc_pct[25], 25);
    EXPECT_DOUBLE_EQ(run.alloc_pct[26], 25);  // neighbour window
    EXPECT_DOUBLE_EQ(run.alloc_pct[100], 100);
    EXPECT_TRUE(std::isnan(run.alloc_pct[10]));
  }
  ASSERT_EQ(r.curves.size(), 2u);
  EXPECT_EQ(r.curves[1].policy, "fgd");
  EXPECT_DOUBLE_EQ(r.curves[0].unalloc_mean[50], 50);
  EXPECT_DOUBLE_EQ(r.curves[0].unalloc_sd[50], 0);
  EXPECT_DOUBLE_EQ(r.curves[0].unalloc_mean[100], 0);
}

TEST(ExperimentTest, TuningAppendsOrRemovesPodsToTheTarget) {
  struct Case {
    const char* name;
    int pods;
    int64_t gpus_per_node;
    double ratio;
    int64_t want_pods, want_placed;
  };
  const std::vector<Case> cases = {
      // 2 GPUs asked of 4: clones are appended while total + 1000 <= 6000.
      {"tune up to 150%", 2, 2, 1.5, 6, 4},
      // 6 GPUs asked of 2: random pods are removed while total > 2000.
      {"tune down to 100%", 6, 1, 1.0, 2, 2},
      {"no tuning", 3, 2, 0, 3, 3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ExperimentOptions opt;
    opt.policies = {"best-fit"};
    opt.seeds = {1};
    opt.tune_ratio = c.ratio;
    ExperimentResult r =
        RunExperiment({GpuNode("a", c.gpus_per_node), GpuNode("b", c.gpus_per_node)}, OneGpuPods(c.pods), opt);
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].pods, c.want_pods);
    EXPECT_EQ(r.runs[0].placed, c.want_placed);
    EXPECT_EQ(r.runs[0].failed, c.want_pods - c.want_placed);
  }
}

TEST(ExperimentTest, SameSeedsSameCurvesWhateverTheThreadCount) {
  std::vector<Node> nodes;
  for (int i = 0; i < 6; ++i) nodes.push_back(GpuNode("n" + std::to_string(i), i % 2 ? 4 : 8));
  std::vector<Pod> pods = OneGpuPods(10);
  for (int i = 0; i < 10; ++i) {  // a mix of shares and whole GPUs
    Pod p = pods[static_cast<size_t>(i)];
    p.meta.name = "s" + std::to_string(i);
    p.containers[0].limits.erase("nvidia.com/gpu");
    p.containers[0].requests = p.containers[0].limits;
    p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(100 * (i % 9 + 1));
    pods.push_back(p);
  }
  ExperimentOptions opt;
  opt.policies = {"fgd", "random", "gpu-packing"};
  opt.seeds = {42, 43, 44};
  opt.threads = 1;
  ExperimentResult a = RunExperiment(nodes, pods, opt);
  opt.threads = 3;
  ExperimentResult b = RunExperiment(nodes, pods, opt);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (size_t i = 0; i < a.runs.size(); ++i) {
    EXPECT_EQ(a.runs[i].placed, b.runs[i].placed);
    for (size_t x = 0; x < a.runs[i].alloc_pct.size(); ++x) {
      const double u = a.runs[i].alloc_pct[x], v = b.runs[i].alloc_pct[x];
      EXPECT_TRUE((std::isnan(u) && std::isnan(v)) || u == v) << "run " << i << " x " << x;
    }
  }
}

}  // namespace
}  // namespace gpusched

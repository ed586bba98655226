// The shipped Alibaba GPU trace (data/alibaba-gpu-2023) loads with the
// figures of the FGD paper, checked independently (python csv module). The
// loader's rules on small inputs are in trace_loader_test.cc.
#include <gtest/gtest.h>

#include <map>

#include "gpusched/model/gpu_request.h"
#include "gpusched/siminput/trace_loader.h"
#include "trace_test_util.h"

namespace gpusched {
namespace {

using trace_test::Join;
using trace_test::kTraceDir;
using trace_test::Render;

// The shipped node list `file`, which must load without a rejected row.
std::vector<Node> LoadShippedNodes(const std::string& file) {
  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  EXPECT_TRUE(LoadTraceNodes(kTraceDir + file, nodes, rejected).ok()) << file;
  EXPECT_EQ(Join(rejected), "") << file;
  return nodes;
}

int64_t GpuMilli(const Pod& p) {
  const ResourceList& r = p.containers[0].requests;
  if (auto it = r.find(kResourceGPU); it != r.end()) return it->second.Value() * 1000;
  if (auto it = p.meta.annotations.find(kAnnotationGpuMilli); it != p.meta.annotations.end())
    return std::stoll(it->second);
  return 0;
}

TEST(TraceLoaderTest, GpuNodeListMatchesThePaper) {
  const std::vector<Node> nodes = LoadShippedNodes("openb_node_list_gpu_node.csv");
  ASSERT_EQ(nodes.size(), 1213u);
  int64_t gpus = 0, milli_cpu = 0, memory_mib = 0;
  std::map<std::string, int64_t> per_model;
  for (const Node& n : nodes) {
    const ResourceList& a = n.allocatable;
    const int64_t g = a.at(std::string(kResourceGPU)).Value();
    gpus += g;
    milli_cpu += a.at("cpu").MilliValue();
    memory_mib += a.at("memory").Value() / (1024 * 1024);
    per_model[n.meta.labels.at(std::string(kLabelGpuCardModel))] += g;
    EXPECT_EQ(a.at("pods").Value(), 1001);
    EXPECT_TRUE(n.has_allocatable);
    EXPECT_EQ(n.capacity, n.allocatable);
  }
  EXPECT_EQ(gpus, 6212);
  EXPECT_EQ(milli_cpu, 107'018'000);  // 107,018 vCPU
  EXPECT_EQ(memory_mib, 503'828'480);
  EXPECT_EQ(per_model, (std::map<std::string, int64_t>{{"G2", 4392}, {"T4", 842}, {"G3", 312}, {"P100", 265},
                                                      {"V100M32", 204}, {"V100M16", 195}, {"A10", 2}}));
  // openb-node-0000,64000,262144,2,P100
  EXPECT_EQ(nodes[0].name(), "openb-node-0000");
  EXPECT_EQ(Render(nodes[0].allocatable), "cpu=64 memory=256Gi nvidia.com/gpu=2 pods=1001");
  EXPECT_EQ(Render(nodes[0].meta.labels), "alibabacloud.com/gpu-card-model=P100");
  // openb-node-1212,96000,393216,8,G2: 96000m prints canonically as 96.
  EXPECT_EQ(nodes.back().name(), "openb-node-1212");
  EXPECT_EQ(Render(nodes.back().allocatable), "cpu=96 memory=384Gi nvidia.com/gpu=8 pods=1001");
}

TEST(TraceLoaderTest, AllNodeListAddsCpuNodesWithoutGpuOrModel) {
  const std::vector<Node> nodes = LoadShippedNodes("openb_node_list_all_node.csv");
  ASSERT_EQ(nodes.size(), 1523u);
  int cpu_only = 0;
  for (const Node& n : nodes)
    if (!n.allocatable.contains(kResourceGPU) && n.meta.labels.empty()) ++cpu_only;
  EXPECT_EQ(cpu_only, 310);
  // openb-node-0000,32000,262144,0,
  EXPECT_EQ(Render(nodes[0].allocatable), "cpu=32 memory=256Gi pods=1001");
}

TEST(TraceLoaderTest, DefaultPodList) {
  Workload w;
  const std::string path = kTraceDir + "openb_pod_list_default.csv";
  ASSERT_TRUE(LoadTracePods(path, w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 8152u);
  int cpu_only = 0, sharing = 0, one_gpu = 0;
  std::map<int64_t, int> multi;
  std::map<std::string, int> qos;
  int64_t total_milli = 0;
  double arrivals = 0, durations = 0;
  for (const WorkloadPod& wp : w.pods) {
    const Pod& p = wp.pod;
    const int64_t milli = GpuMilli(p);
    total_milli += milli;
    if (milli == 0) {
      ++cpu_only;
    } else if (milli < 1000) {
      ++sharing;
      EXPECT_EQ(p.meta.annotations.at(std::string(kAnnotationGpuCount)), "1");
      EXPECT_FALSE(p.containers[0].requests.contains(kResourceGPU));
    } else if (milli == 1000) {
      ++one_gpu;
    } else {
      ++multi[milli / 1000];
    }
    ++qos[p.meta.labels.at(std::string(kLabelTraceQos))];
    // No limits: trace pods skip API validation and scheduling reads requests.
    EXPECT_TRUE(p.containers[0].limits.empty());
    EXPECT_FALSE(p.meta.annotations.contains(kAnnotationGpuCardModel));
    arrivals += wp.arrival;
    durations += wp.duration;
  }
  EXPECT_EQ(cpu_only, 1088);
  EXPECT_EQ(sharing, 3078);
  EXPECT_EQ(one_gpu, 3911);
  EXPECT_EQ(multi, (std::map<int64_t, int>{{2, 16}, {4, 15}, {8, 44}}));
  EXPECT_EQ(total_milli, 6'086'800);
  EXPECT_EQ(qos, (std::map<std::string, int>{{"BE", 3398}, {"Burstable", 100}, {"Guaranteed", 7}, {"LS", 4647}}));
  // Sums of creation_time and of (deletion - scheduled, or deletion -
  // creation for the 897 pods with no scheduled_time): pins the time rules.
  EXPECT_EQ(arrivals, 94'122'763'871.0);
  EXPECT_EQ(durations, 210'197'755.0);

  // openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0
  const WorkloadPod& first = w.pods[0];
  EXPECT_EQ(first.pod.name(), "openb-pod-0000");
  EXPECT_EQ(first.pod.ns(), "default");
  ASSERT_EQ(first.pod.containers.size(), 1u);
  EXPECT_EQ(first.pod.containers[0].name, "main");
  EXPECT_EQ(Render(first.pod.containers[0].requests), "cpu=12 memory=16Gi nvidia.com/gpu=1");
  EXPECT_EQ(first.arrival, 0);
  EXPECT_EQ(first.duration, 12'537'496);
  EXPECT_EQ(first.file, path);
  EXPECT_EQ(first.line, 2);
  // openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
  EXPECT_EQ(Render(w.pods[1].pod.containers[0].requests), "cpu=6 memory=12Gi");
  EXPECT_EQ(Render(w.pods[1].pod.meta.annotations), "alibabacloud.com/gpu-count=1 alibabacloud.com/gpu-milli=460");
  // Line 63, openb-pod-0061,11908,47104,1,1000,,BE,Pending,10001278,10001403, (never scheduled)
  const WorkloadPod& pending = w.pods[61];
  EXPECT_EQ(pending.pod.name(), "openb-pod-0061");
  EXPECT_EQ(pending.line, 63);
  EXPECT_EQ(pending.arrival, 10'001'278);
  EXPECT_EQ(pending.duration, 125);
  EXPECT_EQ(Render(pending.pod.containers[0].requests), "cpu=11908m memory=46Gi nvidia.com/gpu=1");
  // Line 19, openb-pod-0017,88000,327680,8,1000,,Burstable,Succeeded,9437497,10769854,9437497
  EXPECT_EQ(Render(w.pods[17].pod.containers[0].requests), "cpu=88 memory=320Gi nvidia.com/gpu=8");
  EXPECT_EQ(w.pods[17].duration, 10'769'854 - 9'437'497);
}

TEST(TraceLoaderTest, MultiGpuFileHasFiveColumnsAndNoTimes) {
  Workload w;
  ASSERT_TRUE(LoadTracePods(kTraceDir + "openb_pod_list_multigpu50.csv", w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 9061u);
  std::map<int64_t, int> by_milli_class;  // 0 cpu-only, 1 sharing, else whole GPUs
  int64_t total_milli = 0;
  for (const WorkloadPod& wp : w.pods) {
    const int64_t milli = GpuMilli(wp.pod);
    total_milli += milli;
    ++by_milli_class[milli == 0 ? 0 : (milli < 1000 ? -1 : milli / 1000)];
    EXPECT_EQ(wp.arrival, 0);
    EXPECT_EQ(wp.duration, -1);
    EXPECT_TRUE(wp.pod.meta.labels.empty());
  }
  EXPECT_EQ(by_milli_class, (std::map<int64_t, int>{{-1, 3078}, {0, 1088}, {1, 3911}, {2, 222}, {4, 206}, {8, 556}}));
  EXPECT_EQ(total_milli, 11'358'800);
  EXPECT_EQ(w.pods.back().pod.name(), "openb-pod-9060");
  EXPECT_EQ(w.pods.back().line, 9062);
}

TEST(TraceLoaderTest, GpuSpecFileAnnotatesCardModels) {
  Workload w;
  ASSERT_TRUE(LoadTracePods(kTraceDir + "openb_pod_list_gpuspec33.csv", w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 8152u);
  int with_model = 0, t4_only = 0, sharing_with_model = 0;
  for (const WorkloadPod& wp : w.pods) {
    auto it = wp.pod.meta.annotations.find(kAnnotationGpuCardModel);
    if (it == wp.pod.meta.annotations.end()) continue;
    ++with_model;
    if (it->second == "T4") ++t4_only;
    if (wp.pod.meta.annotations.contains(kAnnotationGpuMilli)) ++sharing_with_model;
  }
  EXPECT_EQ(with_model, 2388);
  EXPECT_EQ(t4_only, 1291);
  EXPECT_EQ(sharing_with_model, 884);
  // Line 11: openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,4975773,12902960,4975773
  EXPECT_EQ(w.pods[9].line, 11);
  EXPECT_EQ(Render(w.pods[9].pod.meta.annotations), "alibabacloud.com/gpu-card-model=V100M16|V100M32");
}

}  // namespace
}  // namespace gpusched

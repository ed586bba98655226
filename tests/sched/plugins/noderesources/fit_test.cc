// Ported from TestEnoughRequests, TestNotEnoughRequests and TestStorageRequests
// in k8s.io/kubernetes pkg/scheduler/framework/plugins/noderesources/fit_test.go.
// Pods, node usage and reasons are upstream's. Status codes follow v1.34+
// (PR #131345): a request above the node's whole allocatable is
// UnschedulableAndUnresolvable; upstream's older table says Unschedulable.
#include <gtest/gtest.h>

#include "gpusched/sched/plugins/noderesources/fit.h"
#include "gpusched/sched/api/pod_info.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

using testing::Res;
using testing::ResourcePod;
using testing::ToResources;
using Code = SchedStatus::Code;

constexpr const char* kA = "example.com/aaa";
constexpr const char* kB = "example.com/bbb";
constexpr const char* kK8sA = "kubernetes.io/something";
constexpr const char* kK8sB = "subdomain.kubernetes.io/something";
constexpr const char* kHugeA = "hugepages-2Mi";

// makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA)
NodeState MakeNodeState(int64_t milli_cpu, int64_t memory, int64_t pods, int64_t ext_a, int64_t storage, int64_t huge,
                        const Res& used) {
  NodeState s;
  s.allocatable.milli_cpu = milli_cpu;
  s.allocatable.memory = memory;
  s.allocatable.allowed_pods = pods;
  s.allocatable.ephemeral_storage = storage;
  s.allocatable.SetScalar(kA, ext_a);
  s.allocatable.SetScalar(kHugeA, huge);
  s.requested = ToResources(used);
  s.num_pods = 1;  // framework.NewNodeInfo(newResourcePod(used))
  return s;
}

struct FitCase {
  const char* name;
  Pod pod;
  Res used;
  Code code;
  std::vector<std::string> reasons;
};

void RunCases(const std::vector<FitCase>& cases, int64_t pods_allocatable, int64_t ext_a, int64_t storage,
              int64_t huge) {
  NodeResourcesFit fit;
  Node node;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    NodeState s = MakeNodeState(10, 20, pods_allocatable, ext_a, storage, huge, c.used);
    PodInfo info = PodInfo::Make(c.pod, 0);
    SchedStatus st = fit.Filter(info, node, s);
    EXPECT_EQ(st.code(), c.code);
    EXPECT_EQ(st.reasons(), c.reasons);
  }
}

TEST(NodeResourcesFitTest, EnoughRequests) {
  const std::vector<FitCase> cases = {
      {"no resources requested always fits", ResourcePod({}), {10, 20}, Code::kSuccess, {}},
      {"too many resources fails", ResourcePod({{1, 1}}), {10, 20}, Code::kUnschedulable,
       {"Insufficient cpu", "Insufficient memory"}},
      {"too many resources fails due to init container cpu", ResourcePod({{1, 1}}, {{3, 1}}), {8, 19},
       Code::kUnschedulable, {"Insufficient cpu"}},
      {"too many resources fails due to highest init container cpu", ResourcePod({{1, 1}}, {{3, 1}, {2, 1}}), {8, 19},
       Code::kUnschedulable, {"Insufficient cpu"}},
      {"too many resources fails due to init container memory", ResourcePod({{1, 1}}, {{1, 3}}), {9, 19},
       Code::kUnschedulable, {"Insufficient memory"}},
      {"too many resources fails due to highest init container memory", ResourcePod({{1, 1}}, {{1, 3}, {1, 2}}),
       {9, 19}, Code::kUnschedulable, {"Insufficient memory"}},
      {"init container fits because it's the max, not sum, of containers and init containers",
       ResourcePod({{1, 1}}, {{1, 1}}), {9, 19}, Code::kSuccess, {}},
      {"multiple init containers fit because it's the max, not sum, of containers and init containers",
       ResourcePod({{1, 1}}, {{1, 1}, {1, 1}}), {9, 19}, Code::kSuccess, {}},
      {"both resources fit", ResourcePod({{1, 1}}), {5, 5}, Code::kSuccess, {}},
      {"one resource memory fits", ResourcePod({{2, 1}}), {9, 5}, Code::kUnschedulable, {"Insufficient cpu"}},
      {"one resource cpu fits", ResourcePod({{1, 2}}), {5, 19}, Code::kUnschedulable, {"Insufficient memory"}},
      {"equal edge case", ResourcePod({{5, 1}}), {5, 19}, Code::kSuccess, {}},
      {"equal edge case for init container", ResourcePod({{4, 1}}, {{5, 1}}), {5, 19}, Code::kSuccess, {}},
      {"extended resource fits", ResourcePod({{0, 0, 0, {{kA, 1}}}}), {}, Code::kSuccess, {}},
      {"extended resource fits for init container", ResourcePod({}, {{0, 0, 0, {{kA, 1}}}}), {}, Code::kSuccess, {}},
      {"extended resource capacity enforced", ResourcePod({{1, 1, 0, {{kA, 10}}}}), {0, 0, 0, {{kA, 0}}},
       Code::kUnschedulableAndUnresolvable, {"Insufficient example.com/aaa"}},
      {"extended resource capacity enforced for init container", ResourcePod({}, {{1, 1, 0, {{kA, 10}}}}),
       {0, 0, 0, {{kA, 0}}}, Code::kUnschedulableAndUnresolvable, {"Insufficient example.com/aaa"}},
      {"extended resource allocatable enforced", ResourcePod({{1, 1, 0, {{kA, 1}}}}), {0, 0, 0, {{kA, 5}}},
       Code::kUnschedulable, {"Insufficient example.com/aaa"}},
      {"extended resource allocatable enforced for init container", ResourcePod({}, {{1, 1, 0, {{kA, 1}}}}),
       {0, 0, 0, {{kA, 5}}}, Code::kUnschedulable, {"Insufficient example.com/aaa"}},
      {"extended resource allocatable enforced for multiple containers",
       ResourcePod({{1, 1, 0, {{kA, 3}}}, {1, 1, 0, {{kA, 3}}}}), {0, 0, 0, {{kA, 2}}},
       Code::kUnschedulableAndUnresolvable, {"Insufficient example.com/aaa"}},
      {"extended resource allocatable admits multiple init containers",
       ResourcePod({}, {{1, 1, 0, {{kA, 3}}}, {1, 1, 0, {{kA, 3}}}}), {0, 0, 0, {{kA, 2}}}, Code::kSuccess, {}},
      {"extended resource allocatable enforced for multiple init containers",
       ResourcePod({}, {{1, 1, 0, {{kA, 6}}}, {1, 1, 0, {{kA, 3}}}}), {0, 0, 0, {{kA, 2}}},
       Code::kUnschedulableAndUnresolvable, {"Insufficient example.com/aaa"}},
      {"extended resource allocatable enforced for unknown resource", ResourcePod({{1, 1, 0, {{kB, 1}}}}), {},
       Code::kUnschedulableAndUnresolvable, {"Insufficient example.com/bbb"}},
      {"extended resource allocatable enforced for unknown resource for init container",
       ResourcePod({}, {{1, 1, 0, {{kB, 1}}}}), {}, Code::kUnschedulableAndUnresolvable,
       {"Insufficient example.com/bbb"}},
      {"kubernetes.io resource capacity enforced", ResourcePod({{1, 1, 0, {{kK8sA, 10}}}}), {},
       Code::kUnschedulableAndUnresolvable, {"Insufficient kubernetes.io/something"}},
      {"kubernetes.io resource capacity enforced for init container", ResourcePod({}, {{1, 1, 0, {{kK8sB, 10}}}}), {},
       Code::kUnschedulableAndUnresolvable, {"Insufficient subdomain.kubernetes.io/something"}},
      {"hugepages resource capacity enforced", ResourcePod({{1, 1, 0, {{kHugeA, 10}}}}), {0, 0, 0, {{kHugeA, 0}}},
       Code::kUnschedulableAndUnresolvable, {"Insufficient hugepages-2Mi"}},
      {"hugepages resource capacity enforced for init container", ResourcePod({}, {{1, 1, 0, {{kHugeA, 10}}}}),
       {0, 0, 0, {{kHugeA, 0}}}, Code::kUnschedulableAndUnresolvable, {"Insufficient hugepages-2Mi"}},
      {"hugepages resource allocatable enforced for multiple containers",
       ResourcePod({{1, 1, 0, {{kHugeA, 3}}}, {1, 1, 0, {{kHugeA, 3}}}}), {0, 0, 0, {{kHugeA, 2}}},
       Code::kUnschedulableAndUnresolvable, {"Insufficient hugepages-2Mi"}},
      {"resources + pod overhead fits", ResourcePod({{1, 1}}, {}, {3, 13}), {5, 5}, Code::kSuccess, {}},
      {"requests + overhead does not fit for memory", ResourcePod({{1, 1}}, {}, {1, 15}), {5, 5},
       Code::kUnschedulable, {"Insufficient memory"}},
  };
  RunCases(cases, 32, 5, 20, 5);
}

TEST(NodeResourcesFitTest, NotEnoughRequestsTooManyPods) {
  const std::vector<FitCase> cases = {
      {"even without specified resources predicate fails when there's no space for additional pod", ResourcePod({}),
       {10, 20}, Code::kUnschedulable, {"Too many pods"}},
      {"even if both resources fit predicate fails when there's no space for additional pod", ResourcePod({{1, 1}}),
       {5, 5}, Code::kUnschedulable, {"Too many pods"}},
      {"even for equal edge case predicate fails when there's no space for additional pod", ResourcePod({{5, 1}}),
       {5, 19}, Code::kUnschedulable, {"Too many pods"}},
      {"even for equal edge case predicate fails when there's no space for additional pod due to init container",
       ResourcePod({{5, 1}}, {{5, 1}}), {5, 19}, Code::kUnschedulable, {"Too many pods"}},
  };
  RunCases(cases, 1, 0, 0, 0);
}

TEST(NodeResourcesFitTest, StorageRequests) {
  const std::vector<FitCase> cases = {
      {"due to container scratch disk", ResourcePod({{1, 1}}), {10, 10}, Code::kUnschedulable, {"Insufficient cpu"}},
      {"pod fit", ResourcePod({{1, 1}}), {2, 10}, Code::kSuccess, {}},
      {"storage ephemeral local storage request exceeds allocatable", ResourcePod({{0, 0, 25}}), {2, 2},
       Code::kUnschedulableAndUnresolvable, {"Insufficient ephemeral-storage"}},
      {"pod fits", ResourcePod({{0, 0, 10}}), {2, 2}, Code::kSuccess, {}},
  };
  RunCases(cases, 32, 5, 20, 5);
}

TEST(NodeResourcesFitTest, ReasonOrderPodsCpuMemoryThenScalarsByName) {
  // Upstream walks scalars in Go map order; we walk them sorted by name.
  NodeResourcesFit fit;
  NodeState s = MakeNodeState(10, 20, 1, 0, 0, 0, {10, 20});
  Pod pod = ResourcePod({{1, 1, 0, {{"z.com/x", 1}, {"a.com/y", 1}}}});
  SchedStatus st = fit.Filter(PodInfo::Make(pod, 0), Node{}, s);
  EXPECT_EQ(st.reasons(), (std::vector<std::string>{"Too many pods", "Insufficient cpu", "Insufficient memory",
                                                    "Insufficient a.com/y", "Insufficient z.com/x"}));
}

TEST(NodeResourcesFitTest, GpuNotAdvertisedReadsAsZero) {
  NodeResourcesFit fit;
  NodeState s = MakeNodeState(10, 20, 32, 0, 0, 0, {});
  Pod pod = ResourcePod({{0, 0, 0, {{"nvidia.com/gpu", 1}}}});
  SchedStatus st = fit.Filter(PodInfo::Make(pod, 0), Node{}, s);
  EXPECT_EQ(st.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(st.reasons(), std::vector<std::string>{"Insufficient nvidia.com/gpu"});
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// "skip checking ignored extended resource" in TestEnoughRequests, plus the
// ignoredResourceGroups prefix rule of fitsRequest.
TEST(NodeResourcesFitTest, IgnoredResourcesAndGroups) {
  NodeState s = MakeNodeState(10, 20, 32, 5, 20, 5, {});
  Pod pod = ResourcePod({{1, 1, 0, {{kB, 1}, {"vendor.io/bar", 1}}}});
  PodInfo info = PodInfo::Make(pod, 0);
  EXPECT_EQ(NodeResourcesFit().Filter(info, Node{}, s).reasons(),
            (std::vector<std::string>{"Insufficient example.com/bbb", "Insufficient vendor.io/bar"}));
  NodeResourcesFit ignoring({"example.com/bbb"}, {"vendor.io"});
  EXPECT_TRUE(ignoring.Filter(info, Node{}, s).IsSuccess());
  EXPECT_FALSE(ignoring.Checks("vendor.io/bar"));
  EXPECT_TRUE(ignoring.Checks("cpu"));
  NodeResourcesFit only_res({"example.com/bbb"}, {});
  EXPECT_EQ(only_res.Filter(info, Node{}, s).reasons(), std::vector<std::string>{"Insufficient vendor.io/bar"});
}

}  // namespace
}  // namespace gpusched

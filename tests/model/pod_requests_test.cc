// Tests for gpusched::ComputePodRequests (src/model/pod_requests.cc), the
// effective pod request kube-scheduler's NodeResourcesFit uses:
//   max(sum(containers) + sum(sidecars),
//       max over init containers i of (init i + sidecars started before i))
//   + overhead
//
// Upstream sources:
//   github.com/kubernetes/component-helpers at tag kubernetes-1.35.0
//   (71c97d70a960fc0833d5566ea1eb5a8819d58221):
//     resource/helpers.go (PodRequests, AggregateContainerRequests)
//     resource/helpers_test.go (TestPodRequestsAndLimits,
//       TestPodRequestsAndLimitsWithoutOverhead, TestPodResourceRequests,
//       TestAggregateContainerRequestsAndLimits)
//   github.com/kubernetes/kubernetes
//     pkg/scheduler/framework/plugins/noderesources/fit.go (the worked
//       example in computePodResourceRequest's comment)
//     pkg/scheduler/framework/types_test.go (TestNewResource: how a
//       ResourceList becomes framework.Resource)
//     pkg/scheduler/framework/plugins/noderesources/resource_allocation.go
//       (the scorers' NonMissingContainerRequests defaults)
//
// Only the cases that fit the model are ported: gpusched has no pod-level
// resources and no status-based (in-place resize) requests, so the
// UseStatusResources / pod-level cases are left out, and PodResourcesOptions
// reduces to "overhead included". Expected ResourceLists are converted as
// framework.Resource does: cpu in milli-units, the rest in whole units.
// ComputePodRequests does no defaulting (DefaultPod does): a limit alone is
// not a request, as in upstream's "just-limit-no-overhead" case.
#include "gpusched/model/pod_requests.h"

#include <gtest/gtest.h>

#include "model_test_util.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/model/quantity.h"
#include "gpusched/model/resources.h"

namespace gpusched {
namespace {

using testing::Q;
using testing::RL;

Container C(ResourceList requests, ResourceList limits = {}) {
  return Container{"c", "image", std::move(requests), std::move(limits), "", {}};
}
Container Sidecar(ResourceList requests) { return Container{"s", "image", std::move(requests), {}, "Always", {}}; }

Resources Want(int64_t milli_cpu, int64_t memory = 0, std::vector<std::pair<std::string, int64_t>> scalars = {},
               int64_t ephemeral = 0) {
  Resources r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  r.ephemeral_storage = ephemeral;
  r.scalars = std::move(scalars);
  return r;
}

struct Case {
  const char* name;
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  ResourceList overhead;
  Resources expect;
};

void RunCases(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p;
    p.init_containers = c.init_containers;
    p.containers = c.containers;
    p.overhead = c.overhead;
    EXPECT_EQ(ComputePodRequests(p), c.expect);
  }
}

// helpers_test.go TestPodRequestsAndLimits (requests half). getPod gives the
// pod one container and one init container with the same resources.
TEST(PodRequestsTest, UpstreamPodRequestsAndLimits) {
  auto get_pod = [](ResourceList req, ResourceList lim, ResourceList overhead, const char* name, Resources want) {
    return Case{name, {C(req, lim)}, {C(req, lim)}, std::move(overhead), std::move(want)};
  };
  RunCases({
      get_pod({}, RL({{"cpu", "9"}}), {}, "just-limit-no-overhead", Want(0)),
      get_pod({}, {}, RL({{"cpu", "5"}, {"memory", "5"}}), "just-overhead", Want(5000, 5)),
      get_pod(RL({{"cpu", "1"}, {"memory", "10"}}), {}, RL({{"cpu", "5"}, {"memory", "5"}}), "req-and-overhead",
              Want(6000, 15)),
      get_pod(RL({{"cpu", "1"}, {"memory", "10"}}), RL({{"cpu", "2"}, {"memory", "12"}}),
              RL({{"cpu", "5"}, {"memory", "5"}}), "all-req-lim-and-overhead", Want(6000, 15)),
      get_pod(RL({{"cpu", "1"}, {"memory", "10"}}), RL({{"cpu", "2"}}), RL({{"cpu", "5"}, {"memory", "5"}}),
              "req-some-lim-and-overhead", Want(6000, 15)),
  });
}

// helpers_test.go TestPodRequestsAndLimitsWithoutOverhead runs PodRequests
// with ExcludeOverhead; gpusched always includes the overhead, so each pod is
// ported without one (the second case's overhead, cpu 3 / memory 8, is added
// back in a third expectation).
TEST(PodRequestsTest, UpstreamPodRequestsWithoutOverhead) {
  const std::vector<Container> two = {C(RL({{"cpu", "1"}, {"memory", "5"}}), RL({{"cpu", "2"}, {"memory", "10"}})),
                                      C(RL({{"cpu", "4"}, {"memory", "12"}}), RL({{"cpu", "8"}, {"memory", "24"}}))};
  const std::vector<Container> inits = {C(RL({{"cpu", "1"}, {"memory", "5"}}), RL({{"cpu", "1"}, {"memory", "5"}})),
                                        C(RL({{"cpu", "40"}, {"memory", "120"}}), RL({{"cpu", "80"}, {"memory", "240"}}))};
  RunCases({
      {"two container no overhead - should just be sum of containers", {}, two, {}, Want(5000, 17)},
      {"two container with overhead, overhead included", {}, two, RL({{"cpu", "3"}, {"memory", "8"}}), Want(8000, 25)},
      {"two container, massive init - should just be the largest init", inits, two, {}, Want(40000, 120)},
  });
}

// helpers_test.go TestPodResourceRequests (cases without status resources).
TEST(PodRequestsTest, UpstreamPodResourceRequests) {
  RunCases({
      {"nil options, larger init container", {C(RL({{"cpu", "4"}}))}, {C(RL({{"cpu", "1"}}))}, {}, Want(4000)},
      {"nil options, larger containers", {C(RL({{"cpu", "2"}}))}, {C(RL({{"cpu", "2"}})), C(RL({{"cpu", "3"}}))}, {},
       Want(5000)},
      {"pod overhead included", {C(RL({{"cpu", "2"}}), RL({{"cpu", "2"}}))},
       {C(RL({{"cpu", "2"}})), C(RL({{"cpu", "3"}}))}, RL({{"cpu", "1"}, {"memory", "1Gi"}}),
       Want(6000, 1073741824)},
      {"restartable init container", {Sidecar(RL({{"cpu", "1"}}))}, {C(RL({{"cpu", "1"}}))}, {}, Want(2000)},
      // max(5, restartable init containers(3+2+1) + regular(1)) = 7
      {"multiple restartable init containers",
       {C(RL({{"cpu", "5"}})), Sidecar(RL({{"cpu", "1"}})), Sidecar(RL({{"cpu", "2"}})), Sidecar(RL({{"cpu", "3"}}))},
       {C(RL({{"cpu", "1"}}))}, {}, Want(7000)},
      // init-2 requires 5 + the previously running restartable init
      // containers (1+2) = 8; the restartable init container that starts
      // after it doesn't count.
      {"multiple restartable and regular init containers",
       {C(RL({{"cpu", "5"}})), Sidecar(RL({{"cpu", "1"}})), Sidecar(RL({{"cpu", "2"}})), C(RL({{"cpu", "5"}})),
        Sidecar(RL({{"cpu", "3"}}))},
       {C(RL({{"cpu", "1"}}))}, {}, Want(8000)},
      {"restartable-init, init and regular", {Sidecar(RL({{"cpu", "10"}})), C(RL({{"cpu", "200"}}))},
       {C(RL({{"cpu", "100"}}))}, {}, Want(210000)},
  });
}

// helpers_test.go TestAggregateContainerRequestsAndLimits (requests half).
TEST(PodRequestsTest, UpstreamAggregateContainerRequests) {
  RunCases({
      {"one container with limits", {}, {C({}, RL({{"cpu", "9"}}))}, {}, Want(0)},
      {"one container with requests", {}, {C(RL({{"cpu", "9"}}))}, {}, Want(9000)},
      {"two containers with requests", {}, {C(RL({{"cpu", "9"}})), C(RL({{"cpu", "9"}}))}, {}, Want(18000)},
      {"regular and init containers with requests", {C(RL({{"cpu", "9"}}))}, {C(RL({{"cpu", "9"}}))}, {}, Want(9000)},
      {"regular, init and sidecar containers with requests", {Sidecar(RL({{"cpu", "8"}})), C(RL({{"cpu", "6"}}))},
       {C(RL({{"cpu", "9"}}))}, {}, Want(17000)},
      {"regular and init containers with limits", {C({}, RL({{"cpu", "9"}}))}, {C({}, RL({{"cpu", "9"}}))}, {},
       Want(0)},
  });
}

// fit.go computePodResourceRequest comment:
//   IC1: CPU 2, Memory 1G; IC2: CPU 2, Memory 3G; C1: CPU 2, Memory 1G;
//   C2: CPU 1, Memory 1G  ->  Result: CPU 3, Memory 3G.
// Each dimension takes its own maximum; "1G" is 10^9 bytes.
TEST(PodRequestsTest, FitGoWorkedExample) {
  RunCases({
      {"fit.go example", {C(RL({{"cpu", "2"}, {"memory", "1G"}})), C(RL({{"cpu", "2"}, {"memory", "3G"}}))},
       {C(RL({{"cpu", "2"}, {"memory", "1G"}})), C(RL({{"cpu", "1"}, {"memory", "1G"}}))}, {},
       Want(3000, 3000000000)},
  });
}

// The same rules over extended resources and ephemeral storage, which the
// scheduler keeps in framework.Resource's ScalarResources / EphemeralStorage
// (types_test.go TestNewResource: "scalar.test/scalar1" and hugepages are
// scalars; names that are neither standard nor scalar are dropped). Ours,
// derived from helpers.go: every resource name is maxed and summed on its own.
TEST(PodRequestsTest, ScalarsAndEphemeralStorage) {
  RunCases({
      {"GPUs of containers add up", {}, {C(RL({{"nvidia.com/gpu", "2"}})), C(RL({{"nvidia.com/gpu", "1"}}))}, {},
       Want(0, 0, {{"nvidia.com/gpu", 3}})},
      {"an init container's GPUs cover the containers'", {C(RL({{"nvidia.com/gpu", "4"}}))},
       {C(RL({{"nvidia.com/gpu", "1"}, {"cpu", "500m"}}))}, {}, Want(500, 0, {{"nvidia.com/gpu", 4}})},
      {"a sidecar's GPU adds to the containers' and to later init containers'",
       {Sidecar(RL({{"nvidia.com/gpu", "1"}})), C(RL({{"nvidia.com/gpu", "2"}}))},
       {C(RL({{"nvidia.com/gpu", "1"}}))}, {}, Want(0, 0, {{"nvidia.com/gpu", 3}})},
      {"a resource only an init container asks for is kept", {C(RL({{"example.com/fpga", "1"}}))},
       {C(RL({{"nvidia.com/gpu", "1"}}))}, {}, Want(0, 0, {{"example.com/fpga", 1}, {"nvidia.com/gpu", 1}})},
      {"ephemeral storage and hugepages", {C(RL({{"ephemeral-storage", "2Gi"}}))},
       {C(RL({{"ephemeral-storage", "1Gi"}, {"hugepages-2Mi", "4Mi"}, {"memory", "1Gi"}}))}, {},
       Want(0, 1073741824, {{"hugepages-2Mi", 4194304}}, 2147483648)},
      {"overhead adds extended resources too", {}, {C(RL({{"cpu", "1"}}))}, RL({{"example.com/a", "1"}}),
       Want(1000, 0, {{"example.com/a", 1}})},
      {"names that are neither standard nor scalar are dropped", {}, {C(RL({{"cpu", "1"}, {"disk", "10G"}}))}, {},
       Want(1000)},
  });
}

// ComputeNonZeroPodRequests: PodRequests with NonMissingContainerRequests
// {cpu: 100m, memory: 200Mi} (resource_allocation.go), where helpers.go
// applyNonMissing fills in only a missing key, per container and init
// container, and never the overhead. Cases ours, derived from that code.
TEST(PodRequestsTest, NonZeroRequests) {
  const int64_t mi200 = 200 * 1024 * 1024;
  struct NZCase {
    const char* name;
    std::vector<Container> init_containers, containers;
    ResourceList overhead;
    Resources expect;
  };
  const std::vector<NZCase> cases = {
      {"container without requests", {}, {C({})}, {}, Want(100, mi200)},
      {"explicit zero cpu stays zero", {}, {C(RL({{"cpu", "0"}}))}, {}, Want(0, mi200)},
      {"two containers without requests", {}, {C({}), C({})}, {}, Want(200, 2 * mi200)},
      {"init container defaults take part in the max", {C({})}, {C(RL({{"cpu", "50m"}, {"memory", "1Gi"}}))}, {},
       Want(100, 1073741824)},
      {"overhead is not defaulted", {}, {C(RL({{"cpu", "1"}, {"memory", "1Gi"}}))}, RL({{"cpu", "250m"}}),
       Want(1250, 1073741824)},
      {"GPU-only container", {}, {C(RL({{"nvidia.com/gpu", "1"}}))}, {}, Want(100, mi200, {{"nvidia.com/gpu", 1}})},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p;
    p.init_containers = c.init_containers;
    p.containers = c.containers;
    p.overhead = c.overhead;
    EXPECT_EQ(ComputeNonZeroPodRequests(p), c.expect);
  }
}

TEST(PodRequestsTest, PodGpuRequest) {
  EXPECT_EQ(PodGpuRequest(Want(0, 0, {{"nvidia.com/gpu", 3}})), 3);
  EXPECT_EQ(PodGpuRequest(Want(1000, 0, {{"example.com/a", 1}})), 0);
}

}  // namespace
}  // namespace gpusched

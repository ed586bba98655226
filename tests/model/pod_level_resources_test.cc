// Tests for src/model/pod_level_resources.cc and the pod-level part of
// src/model/pod_requests.cc.
//
// Upstream sources:
//   github.com/kubernetes/component-helpers at v0.35.0, resource/helpers_test.go:
//     TestPodLevelResourceRequests (ported below with its expected values;
//     expected ResourceLists converted as framework.Resource does: cpu in
//     milli, the rest in whole units, "storage" dropped since the scheduler
//     does not track it), TestIsSupportedPodLevelResource,
//     TestIsPodLevelResourcesSet (its requests cases, for IsPodLevelRequestsSet)
//   kubernetes pkg/apis/core/v1/defaults.go (defaultHugePagePodLimits,
//     defaultPodRequests): hand-worked cases
//   kubernetes pkg/apis/core/validation/validation.go (validatePodResources,
//     validatePodResourceName, validatePodResourceConsistency): messages
#include "gpusched/model/pod_level_resources.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/pod_requests.h"
#include "model_test_util.h"

namespace gpusched {
namespace {

using testing::Q;
using testing::RL;

Container C(ResourceList requests, ResourceList limits = {}) {
  return Container{"c", "image", std::move(requests), std::move(limits), "", {}};
}
Container Sidecar(ResourceList requests) { return Container{"s", "image", std::move(requests), {}, "Always", {}}; }

Pod PodLevel(ResourceList requests, ResourceList limits, std::vector<Container> containers = {},
             std::vector<Container> init = {}) {
  Pod p;
  p.meta.name = "p";
  p.containers = std::move(containers);
  p.init_containers = std::move(init);
  auto e = std::make_shared<PodSpecExtras>();
  e->resources = PodLevelResources{std::move(requests), std::move(limits), false};
  p.extras = std::move(e);
  return p;
}

Resources Want(int64_t milli_cpu, int64_t memory, std::vector<std::pair<std::string, int64_t>> scalars = {}) {
  Resources r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  for (auto& [n, v] : scalars) r.SetScalar(n, v);
  return r;
}

constexpr int64_t kMi = 1 << 20;
constexpr int64_t kGi = 1 << 30;

TEST(PodLevelResourcesTest, PodLevelResourceRequests) {
  struct Case {
    std::string name;
    ResourceList pod_requests, pod_limits;
    std::vector<Container> init, containers;
    Resources want;
  };
  const std::vector<Case> cases = {
      {"nil", {}, {}, {}, {}, Want(0, 0)},
      {"pod level memory resource with SkipPodLevelResources false", RL({{"memory", "2Mi"}}), {}, {}, {},
       Want(0, 2 * kMi)},
      {"pod level memory and container level cpu resources with SkipPodLevelResources false",
       RL({{"memory", "2Mi"}}), {}, {}, {C(RL({{"cpu", "2m"}}))}, Want(2, 2 * kMi)},
      {"pod level unsupported resources set at both pod-level and container-level with SkipPodLevelResources false",
       RL({{"storage", "2Mi"}}), {}, {}, {C(RL({{"storage", "3Mi"}}))}, Want(0, 0)},
      {"pod level unsupported resources set at pod-level with SkipPodLevelResources false", RL({{"storage", "2Mi"}}),
       {}, {}, {C(RL({{"memory", "3Mi"}}))}, Want(0, 3 * kMi)},
      {"only container level resources set with SkipPodLevelResources false", {}, {}, {},
       {C(RL({{"memory", "3Mi"}, {"cpu", "2m"}}))}, Want(2, 3 * kMi)},
      {"both container-level and pod-level resources set with SkipPodLevelResources false",
       RL({{"memory", "6Mi"}, {"cpu", "8m"}}), {}, {}, {C(RL({{"memory", "3Mi"}, {"cpu", "2m"}}))}, Want(8, 6 * kMi)},
      {"container-level resources and init container set with SkipPodLevelResources false", {}, {},
       {C(RL({{"memory", "5Mi"}, {"cpu", "4m"}}))}, {C(RL({{"memory", "3Mi"}, {"cpu", "2m"}}))}, Want(4, 5 * kMi)},
      {"container-level resources and sidecar container set with SkipPodLevelResources false", {}, {},
       {Sidecar(RL({{"memory", "5Mi"}, {"cpu", "4m"}}))}, {C(RL({{"memory", "3Mi"}, {"cpu", "2m"}}))},
       Want(6, 8 * kMi)},
      {"container-level resources, init and sidecar container set with SkipPodLevelResources false", {}, {},
       {Sidecar(RL({{"memory", "5Mi"}, {"cpu", "4m"}})), C(RL({{"memory", "6Mi"}, {"cpu", "8m"}}))},
       {C(RL({{"memory", "3Mi"}, {"cpu", "2m"}}))}, Want(12, 11 * kMi)},
      {"pod-level resources, container-level resources, init and sidecar container set with SkipPodLevelResources "
       "false",
       RL({{"memory", "15Mi"}, {"cpu", "18m"}}), {},
       {Sidecar(RL({{"memory", "5Mi"}, {"cpu", "4m"}})), C(RL({{"memory", "6Mi"}, {"cpu", "8m"}}))},
       {C(RL({{"memory", "3Mi"}, {"cpu", "2m"}}))}, Want(18, 15 * kMi)},
      {"pod-level resources, hugepage request/limit single page size",
       RL({{"memory", "10Mi"}, {"hugepages-2Mi", "2Mi"}}), RL({{"hugepages-2Mi", "2Mi"}}), {}, {},
       Want(0, 10 * kMi, {{"hugepages-2Mi", 2 * kMi}})},
      {"pod-level resources, hugepage request/limit multiple page sizes",
       RL({{"cpu", "1"}, {"hugepages-2Mi", "2Mi"}, {"hugepages-1Gi", "1Gi"}}),
       RL({{"hugepages-2Mi", "2Mi"}, {"hugepages-1Gi", "1Gi"}}), {}, {},
       Want(1000, 0, {{"hugepages-1Gi", kGi}, {"hugepages-2Mi", 2 * kMi}})},
      {"pod-level resources, container-level resources, hugepage request/limit single page size",
       RL({{"cpu", "1"}, {"hugepages-2Mi", "10Mi"}}), RL({{"hugepages-2Mi", "10Mi"}}), {},
       {C(RL({{"hugepages-2Mi", "6Mi"}}), RL({{"hugepages-2Mi", "6Mi"}}))},
       Want(1000, 0, {{"hugepages-2Mi", 10 * kMi}})},
      {"pod-level resources, container-level resources, hugepage request/limit multiple page sizes",
       RL({{"cpu", "1"}, {"hugepages-2Mi", "10Mi"}, {"hugepages-1Gi", "2Gi"}}),
       RL({{"hugepages-2Mi", "10Mi"}, {"hugepages-1Gi", "2Gi"}}), {},
       {C(RL({{"cpu", "1"}, {"hugepages-1Gi", "2Gi"}}), RL({{"hugepages-1Gi", "2Gi"}}))},
       Want(1000, 0, {{"hugepages-1Gi", 2 * kGi}, {"hugepages-2Mi", 10 * kMi}})},
      {"pod-level resources, container-level resources, hugepage request/limit multiple page sizes between "
       "pod-level and container-level",
       RL({{"cpu", "1"}, {"hugepages-2Mi", "10Mi"}}), RL({{"hugepages-2Mi", "10Mi"}}), {},
       {C(RL({{"memory", "4Mi"}, {"hugepages-1Gi", "1Gi"}}), RL({{"hugepages-1Gi", "1Gi"}}))},
       Want(1000, 4 * kMi, {{"hugepages-1Gi", kGi}, {"hugepages-2Mi", 10 * kMi}})},
  };
  for (const auto& c : cases) {
    Pod p = PodLevel(c.pod_requests, c.pod_limits, c.containers, c.init);
    if (c.name == "nil") p.extras.reset();
    EXPECT_EQ(ComputePodRequests(p), c.want) << c.name;
  }
}

// The scorers' defaults (100m / 200Mi per container without a request) are
// applied to the containers' aggregate; a pod-level request still wins.
TEST(PodLevelResourcesTest, NonZeroRequestsKeepThePodLevelValue) {
  Pod p = PodLevel(RL({{"cpu", "3"}}), {}, {C({}), C({})});
  EXPECT_EQ(ComputeNonZeroPodRequests(p), Want(3000, 2 * 200 * kMi));
  EXPECT_EQ(ComputePodRequests(p), Want(3000, 0));
}

// Overhead is added after the pod-level value replaces the aggregate.
TEST(PodLevelResourcesTest, OverheadAddsToThePodLevelRequest) {
  Pod p = PodLevel(RL({{"memory", "1Gi"}}), {}, {C(RL({{"memory", "100Mi"}}))});
  p.overhead = RL({{"memory", "10Mi"}});
  EXPECT_EQ(ComputePodRequests(p), Want(0, kGi + 10 * kMi));
}

TEST(PodLevelResourcesTest, IsSupportedPodLevelResource) {
  EXPECT_TRUE(IsSupportedPodLevelResource("cpu"));
  EXPECT_TRUE(IsSupportedPodLevelResource("memory"));
  EXPECT_FALSE(IsSupportedPodLevelResource("ephemeral-storage"));
  EXPECT_TRUE(IsSupportedPodLevelResource("hugepages-2Mi"));
  EXPECT_TRUE(IsSupportedPodLevelResource("hugepages-1Gi"));
  EXPECT_FALSE(IsSupportedPodLevelResource("nvidia.com/gpu"));
}

TEST(PodLevelResourcesTest, IsPodLevelRequestsSet) {
  Pod none;
  EXPECT_FALSE(IsPodLevelRequestsSet(none));                                            // nil resources struct
  EXPECT_FALSE(IsPodLevelRequestsSet(PodLevel({}, {})));                                 // empty resources struct
  EXPECT_FALSE(IsPodLevelRequestsSet(PodLevel(RL({{"ephemeral-storage", "1Mi"}}), {})));  // only unsupported
  EXPECT_FALSE(IsPodLevelRequestsSet(PodLevel({}, RL({{"cpu", "1m"}}))));                 // limits only
  EXPECT_TRUE(IsPodLevelRequestsSet(PodLevel(RL({{"ephemeral-storage", "1Mi"}, {"cpu", "1m"}}), {})));
}

TEST(PodLevelResourcesTest, Defaulting) {
  struct Case {
    std::string name;
    Pod pod;
    ResourceList want_requests, want_limits;
  };
  std::vector<Case> cases;
  // No container requests: the pod-level request takes the pod limit.
  cases.push_back({"limit only", PodLevel({}, RL({{"cpu", "2"}}), {C({})}), RL({{"cpu", "2"}}), RL({{"cpu", "2"}})});
  // Container requests: the pod-level request is their aggregate.
  cases.push_back({"limit and container requests",
                   PodLevel({}, RL({{"memory", "1Gi"}}),
                            {C(RL({{"memory", "100Mi"}})), C(RL({{"memory", "200Mi"}}))}),
                   RL({{"memory", "300Mi"}}), RL({{"memory", "1Gi"}})});
  // Requests only: no pod-level limits, nothing defaulted.
  cases.push_back({"requests only", PodLevel(RL({{"cpu", "1"}}), {}, {C(RL({{"memory", "1Gi"}}))}),
                   RL({{"cpu", "1"}}), {}});
  // defaultHugePagePodLimits: the containers' hugepage limit becomes the pod's,
  // and then the pod request.
  cases.push_back({"hugepages",
                   PodLevel(RL({{"memory", "1Gi"}}), {},
                            {C(RL({{"hugepages-2Mi", "4Mi"}}), RL({{"hugepages-2Mi", "4Mi"}}))}),
                   RL({{"hugepages-2Mi", "4Mi"}, {"memory", "1Gi"}}), RL({{"hugepages-2Mi", "4Mi"}})});
  for (auto& c : cases) {
    DefaultPodLevelResources(c.pod);
    ASSERT_TRUE(c.pod.Extras().resources) << c.name;
    EXPECT_EQ(c.pod.Extras().resources->requests, c.want_requests) << c.name;
    EXPECT_EQ(c.pod.Extras().resources->limits, c.want_limits) << c.name;
  }
}

// Defaulting never changes extras another copy of the pod shares.
TEST(PodLevelResourcesTest, DefaultingCopiesSharedExtras) {
  Pod a = PodLevel({}, RL({{"cpu", "2"}}), {C({})});
  Pod b = a;
  DefaultPodLevelResources(a);
  EXPECT_EQ(a.Extras().resources->requests, RL({{"cpu", "2"}}));
  EXPECT_TRUE(b.Extras().resources->requests.empty());
}

TEST(PodLevelResourcesTest, Validation) {
  struct Case {
    std::string name;
    Pod pod;
    std::vector<std::string> want;
  };
  std::vector<Case> cases;
  cases.push_back({"valid", PodLevel(RL({{"cpu", "2"}, {"memory", "1Gi"}}), RL({{"cpu", "4"}}),
                                     {C(RL({{"cpu", "1"}, {"memory", "512Mi"}}))}),
                   {}});
  Pod claims = PodLevel({}, {});
  {
    auto e = std::make_shared<PodSpecExtras>(*claims.extras);
    e->resources->has_claims = true;
    claims.extras = e;
  }
  cases.push_back({"claims", claims, {"spec.resources.claims: Forbidden: claims cannot be set for Resources at pod-level"}});
  cases.push_back({"unsupported resource", PodLevel(RL({{"ephemeral-storage", "1Gi"}}), {}),
                   {"spec.resources.requests[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported "
                    "values: \"cpu\", \"hugepages-\", \"memory\""}});
  cases.push_back({"extended resource", PodLevel({}, RL({{"nvidia.com/gpu", "1"}})),
                   {"spec.resources.limits[nvidia.com/gpu]: Unsupported value: \"nvidia.com/gpu\": supported values: "
                    "\"cpu\", \"hugepages-\", \"memory\""}});
  cases.push_back({"bad name", PodLevel(RL({{"gpu", "1"}}), {}),
                   {"spec.resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully "
                    "qualified"}});
  cases.push_back({"request above limit", PodLevel(RL({{"cpu", "2"}}), RL({{"cpu", "1"}})),
                   {"spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"}});
  cases.push_back({"aggregate container requests above the pod's",
                   PodLevel(RL({{"memory", "1Gi"}}), {},
                            {C(RL({{"memory", "800Mi"}})), C(RL({{"memory", "400Mi"}}))}),
                   {"spec.resources.requests[memory]: Invalid value: \"1Gi\": must be greater than or equal to "
                    "aggregate container requests of 1200Mi"}});
  cases.push_back({"a container limit above the pod's", PodLevel({}, RL({{"cpu", "1"}}), {C({}, RL({{"cpu", "2"}}))}),
                   {"spec.resources.containers[0][cpu].limits: Invalid value: \"2\": must be less than or equal to "
                    "pod limits of 1"}});
  // A container's GPU has no pod-level counterpart to compare with.
  cases.push_back({"container GPUs", PodLevel(RL({{"cpu", "2"}}), {}, {C(RL({{"nvidia.com/gpu", "1"}}))}), {}});
  for (const auto& c : cases) {
    std::vector<FieldError> errs;
    ValidatePodLevelResources(c.pod, "spec.resources", errs);
    std::vector<std::string> got;
    for (const auto& e : errs) got.push_back(e.ToString());
    EXPECT_EQ(got, c.want) << c.name;
  }
}

TEST(PodLevelResourcesTest, AggregateContainerRequestsKeepsQuantities) {
  Pod p = PodLevel({}, {}, {C(RL({{"memory", "800Mi"}})), C(RL({{"memory", "400Mi"}}))},
                   {C(RL({{"memory", "1Gi"}, {"cpu", "500m"}}))});
  EXPECT_EQ(AggregateContainerRequests(p), RL({{"cpu", "500m"}, {"memory", "1200Mi"}}));
  EXPECT_EQ(AggregateContainerRequests(p).at("memory").String(), "1200Mi");
}

}  // namespace
}  // namespace gpusched

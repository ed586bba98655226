// Tests for src/sched/framework/dynamic_resources_verdict.cc: the statuses kube-scheduler's
// DynamicResources plugin gives a pod with resource claims, from
//   pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go
//     (PreEnqueue -> foreachPodResourceClaim),
//   pkg/scheduler/util/assumecache (NotFoundError: could not find %v %q, with
//     the claim cache's description "ResourceClaim"),
//   k8s.io/dynamic-resource-allocation resourceclaim (ErrClaimNotFound:
//     pod "ns/name": ResourceClaim not created yet; IsForPod).
// PreFilter, Filter and Reserve: tests/sched/plugins/dynamicresources/dynamic_resources_test.cc.
#include "gpusched/sched/framework/dynamic_resources_verdict.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"
#include "../test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::ClaimPod;
using testing::GpuPod;

ResourceClaimSpec Spec(const std::string& cls) {
  ResourceClaimSpec s;
  ExactDeviceRequest e;
  e.device_class_name = cls;
  s.requests.push_back(DeviceRequest{"gpu", e, {}});
  return s;
}

ResourceClaim Claim(const std::string& name, const std::string& cls) {
  ResourceClaim c;
  c.meta.name = name;
  c.meta.namespace_ = "default";
  c.spec = Spec(cls);
  return c;
}

ResourceClaimTemplate Template(const std::string& name, const std::string& cls) {
  ResourceClaimTemplate t;
  t.meta.name = name;
  t.meta.namespace_ = "default";
  t.spec = Spec(cls);
  return t;
}

DraObjects Objects() {
  DraObjects d;
  d.claims["default/team-a-gpu"] = Claim("team-a-gpu", "gpu.nvidia.com");
  d.templates["default/single-gpu"] = Template("single-gpu", "gpu.nvidia.com");
  d.templates["default/mig"] = Template("mig", "mig.nvidia.com");
  d.device_classes["gpu.nvidia.com"].meta.name = "gpu.nvidia.com";
  ResourceSlice s;
  s.meta.name = "s";
  s.driver = "gpu.nvidia.com";
  s.node_name = "a";
  s.devices.resize(2);
  d.slices.push_back(s);
  return d;
}

TEST(DynamicResourcesPreEnqueueTest, NoClaimsOrClaimsThatResolveNoVerdict) {
  DraObjects d = Objects();
  Pod p = GpuPod("p", 1);
  EXPECT_FALSE(EvaluateDynamicResources(PodInfo::Make(p, 0), &d).has_value());
  // Found: the plugin's PreFilter and Filter decide (tests/sched/plugins/dynamicresources/).
  Pod t = ClaimPod({{"gpu", "", "single-gpu", "", false}});
  EXPECT_FALSE(EvaluateDynamicResources(PodInfo::Make(t, 0), &d).has_value());
  Pod c = ClaimPod({{"gpu", "team-a-gpu", "", "", false}});
  EXPECT_FALSE(EvaluateDynamicResources(PodInfo::Make(c, 0), &d).has_value());
  Pod none = ClaimPod({{"gpu", "", "single-gpu", "", true}});  // status: no claim needed
  EXPECT_FALSE(EvaluateDynamicResources(PodInfo::Make(none, 0), &d).has_value());
}

TEST(DynamicResourcesPreEnqueueTest, Verdicts) {
  struct Case {
    std::string name;
    Pod pod;
    std::string message;
    std::string text;
  };
  std::vector<Case> cases;
  cases.push_back({"missing claim", ClaimPod({{"shared-gpu", "team-b-gpu", "", "", false}}),
                   "could not find ResourceClaim \"default/team-b-gpu\"",
                   "not attempted: its resource claim \"shared-gpu\" names ResourceClaim \"team-b-gpu\", which is not "
                   "in the input; kube-scheduler's DynamicResources plugin keeps the pod out of its queue until the "
                   "claim can be used (add it to the input; one listed under rejected needs fixing first)"});
  cases.push_back({"missing template", ClaimPod({{"gpu", "", "nope", "", false}}),
                   "pod \"default/train\": ResourceClaim not created yet",
                   "not attempted: its resource claim \"gpu\" comes from ResourceClaimTemplate \"nope\", which is not "
                   "in the input, so the resourceclaim controller cannot create the claim; kube-scheduler's "
                   "DynamicResources plugin keeps the pod out of its queue until the claim can be used (add it to the "
                   "input; one listed under rejected needs fixing first)"});
  cases.push_back({"generated claim named in the status but absent",
                   ClaimPod({{"gpu", "", "single-gpu", "train-gpu-x7k2p", true}}),
                   "could not find ResourceClaim \"default/train-gpu-x7k2p\"",
                   "not attempted: its resource claim \"gpu\" was given (status.resourceClaimStatuses) ResourceClaim "
                   "\"train-gpu-x7k2p\", which is not in the input; kube-scheduler's DynamicResources plugin keeps the "
                   "pod out of its queue until the claim can be used (add it to the input; one listed under rejected "
                   "needs fixing first)"});
  cases.push_back({"generated claim of another pod", ClaimPod({{"gpu", "", "single-gpu", "team-a-gpu", true}}),
                   "ResourceClaim default/team-a-gpu was not created for pod default/train (pod is not owner)",
                   "not attempted: its resource claim \"gpu\" was given ResourceClaim \"team-a-gpu\", which another pod "
                   "owns; kube-scheduler's DynamicResources plugin keeps the pod out of its queue until the claim can be "
                   "used (add it to the input; one listed under rejected needs fixing first)"});
  DraObjects d = Objects();
  d.claims["default/team-a-gpu"].owner_kind = "Pod";
  d.claims["default/team-a-gpu"].owner_uid = "someone-else";
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::optional<DraVerdict> v = EvaluateDynamicResources(PodInfo::Make(tc.pod, 0), &d);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->message, tc.message);
    EXPECT_EQ(v->diagnosis.kind, Diagnosis::Kind::kDraClaimMissing);
    EXPECT_TRUE(v->diagnosis.forever);
    EXPECT_EQ(v->diagnosis.text, tc.text);
  }
}

TEST(DynamicResourcesPreEnqueueTest, NoObjectsAtAll) {
  Pod p = ClaimPod({{"gpu", "", "single-gpu", "", false}});
  std::optional<DraVerdict> v = EvaluateDynamicResources(PodInfo::Make(p, 0), nullptr);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->message, "pod \"default/train\": ResourceClaim not created yet");
}

}  // namespace
}  // namespace gpusched

// Tests for src/sched/framework/dynamic_resources_verdict.cc: the statuses kube-scheduler's
// DynamicResources plugin gives a pod with resource claims, from
//   pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go
//     (PreEnqueue -> foreachPodResourceClaim; PreFilter's "request %s: device
//     class %s does not exist"; Filter's "cannot allocate all claims"),
//   pkg/scheduler/util/assumecache (NotFoundError: could not find %v %q, with
//     the claim cache's description "ResourceClaim"),
//   k8s.io/dynamic-resource-allocation resourceclaim (ErrClaimNotFound:
//     pod "ns/name": ResourceClaim not created yet),
//   dynamicresources_test.go "missing-class" (the PreFilter message).
// The Filter plugin alone: tests/sched/plugins/dynamic_resources_test.cc.
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

TEST(DynamicResourcesTest, NoClaimsNoVerdict) {
  ClusterState c({GpuNode("a", 1)});
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  Pod p = GpuPod("p", 1);
  DraObjects d = Objects();
  EXPECT_FALSE(EvaluateDynamicResources(PodInfo::Make(p, 0), &d, c, s).has_value());
}

TEST(DynamicResourcesTest, Verdicts) {
  struct Case {
    std::string name;
    Pod pod;
    bool preemption;
    std::string message;
    Diagnosis::Kind kind;
    std::string text_prefix;
  };
  std::vector<Case> cases;
  cases.push_back({"missing claim", ClaimPod({{"shared-gpu", "team-b-gpu", "", "", false}}), false,
                   "could not find ResourceClaim \"default/team-b-gpu\"", Diagnosis::Kind::kDraClaimMissing,
                   "not attempted: its resource claim \"shared-gpu\" names ResourceClaim \"team-b-gpu\", which is not "
                   "in the input; kube-scheduler's DynamicResources plugin keeps the pod out of its queue until the "
                   "claim exists (add it to the input)"});
  cases.push_back({"missing template", ClaimPod({{"gpu", "", "nope", "", false}}), false,
                   "pod \"default/train\": ResourceClaim not created yet", Diagnosis::Kind::kDraClaimMissing,
                   "not attempted: its resource claim \"gpu\" comes from ResourceClaimTemplate \"nope\", which is not "
                   "in the input, so the resourceclaim controller cannot create the claim"});
  cases.push_back({"generated claim named in the status but absent",
                   ClaimPod({{"gpu", "", "single-gpu", "train-gpu-x7k2p", true}}), false,
                   "could not find ResourceClaim \"default/train-gpu-x7k2p\"", Diagnosis::Kind::kDraClaimMissing,
                   "not attempted: its resource claim \"gpu\" was given (status.resourceClaimStatuses) ResourceClaim "
                   "\"train-gpu-x7k2p\", which is not in the input"});
  cases.push_back({"missing device class", ClaimPod({{"gpu", "", "mig", "", false}}), false,
                   "0/2 nodes are available: request gpu: device class mig.nvidia.com does not exist.",
                   Diagnosis::Kind::kDraClaimMissing,
                   "can never fit: request \"gpu\" of \"mig\" asks for DeviceClass \"mig.nvidia.com\", which is not in "
                   "the input"});
  cases.push_back({"missing device class, with DefaultPreemption", ClaimPod({{"gpu", "", "mig", "", false}}), true,
                   "0/2 nodes are available: request gpu: device class mig.nvidia.com does not exist. preemption: 0/2 "
                   "nodes are available: 2 Preemption is not helpful for scheduling.",
                   Diagnosis::Kind::kDraClaimMissing, "can never fit: request \"gpu\""});
  // Claims found: every node that passes the other filters cannot allocate
  // them; the tainted node reports its taint (Filter order).
  cases.push_back({"template", ClaimPod({{"gpu", "", "single-gpu", "", false}}), false,
                   "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) had untolerated taint(s).",
                   Diagnosis::Kind::kDraNotModelled,
                   "not placed: it asks for devices through DRA (1 resource claim) and gpusched does not model DRA "
                   "device allocation yet, so it cannot tell whether the input's 1 ResourceSlice could satisfy it "
                   "(kube-scheduler might place the pod); it is never scheduled as if it needed no GPU"});
  cases.push_back({"claim, with DefaultPreemption", ClaimPod({{"gpu", "team-a-gpu", "", "", false}}), true,
                   "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) had untolerated taint(s). "
                   "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
                   Diagnosis::Kind::kDraNotModelled, "not placed:"});
  cases.push_back({"no claim needed (status says none was made)", ClaimPod({{"gpu", "", "single-gpu", "", true}}),
                   false, "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) had untolerated taint(s).",
                   Diagnosis::Kind::kDraNotModelled, "not placed:"});
  Node tainted = GpuNode("tainted", 1);
  tainted.taints.push_back(Taint{"dedicated", "x", "NoSchedule"});
  ClusterState c({GpuNode("a", 1), tainted});
  DraObjects d = Objects();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, tc.preemption);
    std::optional<DraVerdict> v = EvaluateDynamicResources(PodInfo::Make(tc.pod, 0), &d, c, s);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->message, tc.message);
    EXPECT_EQ(v->diagnosis.kind, tc.kind);
    EXPECT_TRUE(v->diagnosis.forever);
    EXPECT_EQ(v->diagnosis.text.substr(0, tc.text_prefix.size()), tc.text_prefix);
  }
}

// Preemption cannot help: even with lower-priority pods to evict, the claims
// still cannot be allocated, which the dry run reports per node.
TEST(DynamicResourcesTest, PreemptionDryRunStillFailsOnClaims) {
  ClusterState c({GpuNode("a", 1, 1000)});
  Pod low = GpuPod("low", 0, 1000);
  PodInfo li = PodInfo::Make(low, 1);
  c.Bind(0, li.requests, li.non_zero_requests, 1, /*priority=*/0);
  Pod p = ClaimPod({{"gpu", "team-a-gpu", "", "", false}});
  p.priority = 100;
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
  DraObjects d = Objects();
  std::optional<DraVerdict> v = EvaluateDynamicResources(PodInfo::Make(p, 0), &d, c, s);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->message,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 cannot allocate all "
            "claims.");
}

TEST(DynamicResourcesTest, NoObjectsAtAll) {
  ClusterState c({GpuNode("a", 1)});
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1);
  Pod p = ClaimPod({{"gpu", "", "single-gpu", "", false}});
  std::optional<DraVerdict> v = EvaluateDynamicResources(PodInfo::Make(p, 0), nullptr, c, s);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->message, "pod \"default/train\": ResourceClaim not created yet");
}

}  // namespace
}  // namespace gpusched

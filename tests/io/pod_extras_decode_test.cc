// Tests for src/io/pod_extras_decode.cc through the manifest loader:
// spec.schedulingGates, spec.resources (pod-level), spec.resourceClaims,
// containers' resources.claims and status.resourceClaimStatuses decoded,
// defaulted and validated with the API server's messages and their lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/model/pod_requests.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

TEST(PodExtrasDecodeTest, SchedulingGates) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  schedulingGates: [{name: example.com/quota}, {name: kueue.x-k8s.io/admission}]\n"
      "  containers: [{name: c, image: i}]\n");
  ASSERT_TRUE(m.rejected.empty());
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].pod.Extras().scheduling_gates,
            (std::vector<std::string>{"example.com/quota", "kueue.x-k8s.io/admission"}));
  EXPECT_TRUE(m.warnings.empty());
}

TEST(PodExtrasDecodeTest, PodLevelResourcesUsedForRequestsWithoutWarning) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  resources:\n    requests: {cpu: \"4\", memory: 8Gi}\n    limits: {memory: 16Gi}\n"
      "  containers:\n  - {name: a, image: i, resources: {requests: {cpu: \"1\"}}}\n"
      "  - {name: b, image: i, resources: {limits: {nvidia.com/gpu: 1}}}\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_TRUE(m.warnings.empty()) << Join(m.warnings);
  Resources r = ComputePodRequests(m.pods[0].pod);
  EXPECT_EQ(r.milli_cpu, 4000);
  EXPECT_EQ(r.memory, 8LL << 30);
  EXPECT_EQ(r.Scalar("nvidia.com/gpu"), 1);
}

TEST(PodExtrasDecodeTest, PodLevelRequestsDefaultedFromLimits) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  resources: {limits: {cpu: \"2\"}}\n"
      "  containers: [{name: c, image: i}]\n");
  ASSERT_TRUE(m.rejected.empty());
  EXPECT_EQ(ComputePodRequests(m.pods[0].pod).milli_cpu, 2000);
}

TEST(PodExtrasDecodeTest, ResourceClaimsAndStatuses) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  resourceClaims:\n  - {name: gpu, resourceClaimTemplateName: single-gpu}\n"
      "  - {name: shared, resourceClaimName: team-a}\n"
      "  containers:\n  - {name: c, image: i, resources: {claims: [{name: gpu}, {name: shared, request: r}]}}\n"
      "status:\n  resourceClaimStatuses: [{name: gpu, resourceClaimName: p-gpu-x7k2p}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  const auto& claims = m.pods[0].pod.Extras().resource_claims;
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_EQ(claims[0].name, "gpu");
  EXPECT_EQ(claims[0].resource_claim_template_name, "single-gpu");
  EXPECT_TRUE(claims[0].generated_known);
  EXPECT_EQ(claims[0].generated, "p-gpu-x7k2p");
  EXPECT_EQ(claims[1].resource_claim_name, "team-a");
  EXPECT_FALSE(claims[1].generated_known);
  ASSERT_EQ(m.pods[0].pod.containers[0].claims.size(), 2u);
  EXPECT_EQ(m.pods[0].pod.containers[0].claims[1].request, "r");
}

TEST(PodExtrasDecodeTest, RejectionsNameTheLine) {
  struct Case {
    const char* name;
    std::string text;
    int line;
    std::string message;
  };
  const Case cases[] = {
      {"duplicate gate",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  schedulingGates:\n  - name: a\n  - name: a\n"
       "  containers: [{name: c, image: i}]\n",
       7, "The Pod \"p\" is invalid: spec.schedulingGates[1]: Duplicate value: \"a\""},
      {"gated pod with a node",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: n1\n  schedulingGates: [{name: a}]\n"
       "  containers: [{name: c, image: i}]\n",
       5, "The Pod \"p\" is invalid: spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"},
      {"pod-level GPU",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  resources:\n    limits: {nvidia.com/gpu: 1}\n"
       "  containers: [{name: c, image: i}]\n",
       6,
       "The Pod \"p\" is invalid: spec.resources.limits[nvidia.com/gpu]: Unsupported value: \"nvidia.com/gpu\": "
       "supported values: \"cpu\", \"hugepages-\", \"memory\""},
      {"container claim not in the pod",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
       "  - {name: c, image: i, resources: {claims: [{name: gpu}]}}\n",
       6,
       "The Pod \"p\" is invalid: spec.containers[0].resources.claims[0]: Not found: \"gpu\": must be one of the "
       "names in pod.spec.resourceClaims which is empty"},
      {"gates not a list",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  schedulingGates: a\n"
       "  containers: [{name: c, image: i}]\n",
       5, "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.schedulingGates of type []v1.PodSchedulingGate"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text);
    ASSERT_EQ(m.rejected.size(), 1u);
    EXPECT_EQ(m.rejected[0].line, c.line);
    EXPECT_EQ(m.rejected[0].message, c.message);
    EXPECT_TRUE(m.pods.empty());
  }
}

// A template's gates and pod-level resources reach every replica.
TEST(PodExtrasDecodeTest, WorkloadTemplates) {
  Manifests m = Load(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n"
      "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
      "    spec:\n      schedulingGates: [{name: example.com/gate}]\n"
      "      resources: {requests: {cpu: \"3\"}}\n      containers: [{name: c, image: i}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.pods.size(), 2u);
  for (const auto& lp : m.pods) {
    EXPECT_TRUE(lp.pod.IsSchedulingGated());
    EXPECT_EQ(ComputePodRequests(lp.pod).milli_cpu, 3000);
  }
}

}  // namespace
}  // namespace gpusched

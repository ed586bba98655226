// Tests for src/io/dra_decode.cc through the manifest loader: ResourceClaim,
// ResourceClaimTemplate, ResourceSlice and DeviceClass objects (resource.k8s.io
// v1 and the beta shapes) are read, counted in one summary line, and never
// reported as an unknown kind.
#include <gtest/gtest.h>

#include <string>

#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

const char* kObjects =
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.nvidia.com}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpu}\n"
    "spec:\n  driver: gpu.nvidia.com\n  nodeName: n1\n  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices: [{name: gpu-0}, {name: gpu-1}]\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: single-gpu, namespace: ml}\n"
    "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly: {deviceClassName: gpu.nvidia.com}\n"
    "---\n"
    "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: shared}\n"
    "spec:\n  devices:\n    requests:\n    - {name: gpu, deviceClassName: gpu.nvidia.com, count: 2}\n"
    "    - name: mig\n      firstAvailable: [{name: small, deviceClassName: mig.nvidia.com}, "
    "{name: big, deviceClassName: gpu.nvidia.com}]\n"
    "status:\n  allocation: {devices: {results: []}}\n";

TEST(DraDecodeTest, ObjectsReadAndCounted) {
  Manifests m = Load(kObjects);
  EXPECT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(Join(m.warnings),
            "read 1 ResourceClaim, 1 ResourceClaimTemplate, 1 ResourceSlice (gpu.nvidia.com: 2 devices on 1 node), "
            "1 DeviceClass: gpusched does not allocate DRA devices yet, so pods with spec.resourceClaims stay pending "
            "with the reason kube-scheduler gives (see their diagnosis)\n");
  ASSERT_EQ(m.dra.device_classes.count("gpu.nvidia.com"), 1u);
  ASSERT_EQ(m.dra.slices.size(), 1u);
  EXPECT_EQ(m.dra.slices[0].node_name, "n1");
  EXPECT_EQ(m.dra.slices[0].devices, 2);
  const ClaimSpec& t = m.dra.templates.at("ml/single-gpu");
  ASSERT_EQ(t.requests.size(), 1u);
  EXPECT_EQ(t.requests[0].device_classes, std::vector<std::string>{"gpu.nvidia.com"});
  const ClaimSpec& c = m.dra.claims.at("default/shared");
  EXPECT_TRUE(c.allocated);
  ASSERT_EQ(c.requests.size(), 2u);
  EXPECT_EQ(c.requests[0].count, 2);
  EXPECT_EQ(c.requests[1].device_classes, (std::vector<std::string>{"mig.nvidia.com", "gpu.nvidia.com"}));
}

TEST(DraDecodeTest, ListsDuplicatesAndOtherGroups) {
  Manifests m = Load(
      "apiVersion: v1\nkind: List\nitems:\n"
      "- {apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: gpu.nvidia.com}}\n"
      "- {apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: gpu.nvidia.com}}\n"
      "- {apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: {name: Bad_Name}}\n"
      "- {apiVersion: example.com/v1, kind: ResourceClaim, metadata: {name: other}}\n");
  ASSERT_EQ(m.rejected.size(), 2u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:5: deviceclasses.resource.k8s.io \"gpu.nvidia.com\" already exists");
  EXPECT_EQ(m.rejected[1].object, "ResourceClaim/default/Bad_Name");
  EXPECT_EQ(m.rejected[1].message.substr(0, 69),
            "The ResourceClaim \"Bad_Name\" is invalid: metadata.name: Invalid value");
  // A kind of the same name in another group is not DRA's.
  EXPECT_EQ(Join(m.warnings),
            "t.yaml:7: skipping ResourceClaim (example.com/v1) \"other\": kind ResourceClaim does not take part in scheduling\n"
            "read 1 DeviceClass: gpusched does not allocate DRA devices yet, so pods with spec.resourceClaims stay "
            "pending with the reason kube-scheduler gives (see their diagnosis)\n");
}

TEST(DraDecodeTest, DecodeErrorsNameTheField) {
  Manifests m = Load("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                     "spec:\n  devices:\n    requests: oops\n");
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:6: ResourceClaim in version \"v1\" cannot be handled as a ResourceClaim: "
            "spec.devices.requests: expected a list, got a scalar");
}

}  // namespace
}  // namespace gpusched

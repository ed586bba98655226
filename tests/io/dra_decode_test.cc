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
  // Read, and not warned about: DynamicResources uses them.
  EXPECT_EQ(Join(m.warnings), "");
  EXPECT_EQ(m.dra.Summary(),
            "1 ResourceClaim, 1 ResourceClaimTemplate, 1 ResourceSlice (gpu.nvidia.com: 2 devices on 1 node), "
            "1 DeviceClass");
  ASSERT_EQ(m.dra.device_classes.count("gpu.nvidia.com"), 1u);
  ASSERT_EQ(m.dra.slices.size(), 1u);
  EXPECT_EQ(m.dra.slices[0].node_name, "n1");
  EXPECT_EQ(m.dra.slices[0].devices.size(), 2u);
  EXPECT_EQ(m.dra.slices[0].pool.name, "n1");
  EXPECT_EQ(m.dra.slices[0].pool.resource_slice_count, 1);
  const ResourceClaimTemplate& t = m.dra.templates.at("ml/single-gpu");
  ASSERT_EQ(t.spec.requests.size(), 1u);
  ASSERT_TRUE(t.spec.requests[0].exactly.has_value());
  EXPECT_EQ(t.spec.requests[0].exactly->device_class_name, "gpu.nvidia.com");
  EXPECT_EQ(t.spec.requests[0].exactly->count, 1);
  // v1beta1's flat request is v1's `exactly`.
  const ResourceClaim& c = m.dra.claims.at("default/shared");
  EXPECT_TRUE(c.allocation.has_value());
  ASSERT_EQ(c.spec.requests.size(), 2u);
  ASSERT_TRUE(c.spec.requests[0].exactly.has_value());
  EXPECT_EQ(c.spec.requests[0].exactly->count, 2);
  EXPECT_FALSE(c.spec.requests[1].exactly.has_value());
  ASSERT_EQ(c.spec.requests[1].first_available.size(), 2u);
  EXPECT_EQ(c.spec.requests[1].first_available[0].name, "small");
  EXPECT_EQ(c.spec.requests[1].first_available[0].device_class_name, "mig.nvidia.com");
  EXPECT_EQ(c.spec.requests[1].first_available[1].device_class_name, "gpu.nvidia.com");
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
            "t.yaml:7: skipping ResourceClaim (example.com/v1) \"other\": kind ResourceClaim does not take part in scheduling\n");
}

TEST(DraDecodeTest, ClassicDraAndUnservedVersionsAreNoMatchTaintRulesSkipped) {
  Manifests m = Load(
      "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\nmetadata: {name: ts, namespace: demo}\n"
      "spec: {resourceClassName: gpu.nvidia.com}\n---\n"
      "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\nmetadata: {name: gpu.nvidia.com}\n"
      "driverName: gpu.resource.nvidia.com\n---\n"
      "apiVersion: resource.k8s.io/v2\nkind: DeviceClass\nmetadata: {name: gpu}\n---\n"
      "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata: {name: maintenance}\n");
  ASSERT_EQ(m.rejected.size(), 3u);
  const std::string classic =
      " (classic DRA with ResourceClass and parametersRef, removed in Kubernetes v1.31: write it as a "
      "resource.k8s.io/v1 claim with a DeviceClass)";
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:1: no matches for kind \"ResourceClaim\" in version \"resource.k8s.io/v1alpha2\"" + classic);
  EXPECT_EQ(m.rejected[0].object, "ResourceClaim/demo/ts");
  EXPECT_EQ(m.rejected[1].ToString(),
            "t.yaml:6: no matches for kind \"ResourceClass\" in version \"resource.k8s.io/v1alpha2\"" + classic);
  EXPECT_EQ(m.rejected[1].object, "ResourceClass/gpu.nvidia.com");
  EXPECT_EQ(m.rejected[2].ToString(), "t.yaml:11: no matches for kind \"DeviceClass\" in version \"resource.k8s.io/v2\"");
  EXPECT_EQ(Join(m.warnings),
            "t.yaml:15: skipping DeviceTaintRule (resource.k8s.io/v1alpha3) \"maintenance\": DeviceTaintRule "
            "(DRADeviceTaints) is not modelled by gpusched: the taints it puts on devices are not applied (taints in "
            "the ResourceSlices are)\n");
}

// What decodes is validated as the API server validates it
// (model/dra/dra_validation.h); the line is the first error's field (for
// `spec` itself, its first line).
TEST(DraDecodeTest, InvalidObjectsAreRefusedInKubectlsWords) {
  Manifests m = Load(
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: all}\n"
      "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
      "        exactly: {deviceClassName: gpu.nvidia.com, allocationMode: All, count: 2}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: all-ok}\n"
      "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n"
      "        exactly: {deviceClassName: gpu.nvidia.com, allocationMode: All}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
      "spec:\n  driver: gpu.nvidia.com\n  pool: {name: n, resourceSliceCount: 1}\n"
      "  devices: [{name: gpu-0}]\n");
  ASSERT_EQ(m.rejected.size(), 2u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:9: The ResourceClaimTemplate \"all\" is invalid: spec.spec.devices.requests[0].exactly.count: "
            "Invalid value: 2: must not be specified when allocationMode is 'All'");
  EXPECT_EQ(m.rejected[1].ToString(),
            "t.yaml:25: The ResourceSlice \"s\" is invalid: spec: Required value: exactly one of `nodeName`, "
            "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
  ASSERT_EQ(m.dra.templates.count("default/all-ok"), 1u);
  EXPECT_EQ(m.dra.templates.at("default/all-ok").spec.requests[0].exactly->count, 0);  // not defaulted with All
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

namespace gpusched {
namespace {

// What the NVIDIA DRA driver publishes (kubernetes-sigs/dra-driver-nvidia-gpu
// issue 719's slice, trimmed) and what a claim with selectors, constraints
// and an allocation reads as, field by field.
TEST(DraDecodeTest, DevicesAttributesCapacityAndAllocation) {
  Manifests m = Load(
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpu}\n"
      "spec:\n  driver: gpu.nvidia.com\n  nodeName: n1\n  pool: {name: n1, generation: 3, resourceSliceCount: 1}\n"
      "  devices:\n  - name: gpu-1\n    attributes:\n      architecture: {string: Ampere}\n"
      "      cudaComputeCapability: {version: 8.0.0}\n      minor: {int: 1}\n"
      "      resource.kubernetes.io/pcieRoot: {string: pci0000:00}\n"
      "    capacity:\n      memory: {value: 80Gi}\n---\n"
      "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata: {name: old}\n"
      "spec:\n  driver: gpu.nvidia.com\n  allNodes: true\n  pool: {name: net, generation: 1, resourceSliceCount: 1}\n"
      "  devices:\n  - name: d\n    basic: {attributes: {ok: {bool: true}}, capacity: {mem: {value: 1Gi}}}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: pair, namespace: ml}\n"
      "spec:\n  devices:\n    requests:\n    - name: gpus\n      exactly:\n        deviceClassName: gpu.nvidia.com\n"
      "        allocationMode: ExactCount\n        count: 2\n"
      "        selectors: [{cel: {expression: \"device.attributes['gpu.nvidia.com'].architecture == 'Ampere'\"}}]\n"
      "    constraints: [{matchAttribute: resource.kubernetes.io/pcieRoot}]\n"
      "status:\n  allocation:\n    devices:\n      results:\n"
      "      - {request: gpus, driver: gpu.nvidia.com, pool: n1, device: gpu-1}\n"
      "    nodeSelector:\n      nodeSelectorTerms:\n      - matchFields: [{key: metadata.name, operator: In, values: [n1]}]\n"
      "  reservedFor: [{resource: pods, name: trainer-0, uid: u1}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.dra.slices.size(), 2u);
  const Device& d = m.dra.slices[0].devices.at(0);
  EXPECT_EQ(d.name, "gpu-1");
  EXPECT_EQ(m.dra.slices[0].pool.generation, 3);
  EXPECT_EQ(d.attributes.at("architecture"), (DeviceAttribute{DeviceAttribute::Kind::kString, 0, false, "Ampere"}));
  EXPECT_EQ(d.attributes.at("cudaComputeCapability"), (DeviceAttribute{DeviceAttribute::Kind::kVersion, 0, false, "8.0.0"}));
  EXPECT_EQ(d.attributes.at("minor"), (DeviceAttribute{DeviceAttribute::Kind::kInt, 1}));
  EXPECT_EQ(d.capacity.at("memory").value.String(), "80Gi");
  const ResourceSlice& old = m.dra.slices[1];
  EXPECT_TRUE(old.all_nodes);
  EXPECT_EQ(old.devices.at(0).attributes.at("ok"), (DeviceAttribute{DeviceAttribute::Kind::kBool, 0, true}));
  EXPECT_EQ(old.devices.at(0).capacity.at("mem").value.String(), "1Gi");
  const ResourceClaim& c = m.dra.claims.at("ml/pair");
  ASSERT_TRUE(c.spec.requests.at(0).exactly.has_value());
  EXPECT_EQ(c.spec.requests[0].exactly->selectors,
            std::vector<std::string>{"device.attributes['gpu.nvidia.com'].architecture == 'Ampere'"});
  ASSERT_EQ(c.spec.constraints.size(), 1u);
  EXPECT_EQ(c.spec.constraints[0].match_attribute, "resource.kubernetes.io/pcieRoot");
  ASSERT_TRUE(c.allocation.has_value());
  ASSERT_EQ(c.allocation->results.size(), 1u);
  EXPECT_EQ(c.allocation->results[0].device, "gpu-1");
  ASSERT_TRUE(c.allocation->node_selector.has_value());
  EXPECT_EQ(c.allocation->node_selector->at(0).match_fields.at(0).values, std::vector<std::string>{"n1"});
  ASSERT_EQ(c.reserved_for.size(), 1u);
  EXPECT_EQ(c.reserved_for[0].name, "trainer-0");
}

TEST(DraDecodeTest, BadQuantityAndAttributeNameTheField) {
  Manifests m = Load(
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
      "spec:\n  driver: d\n  nodeName: n\n  pool: {name: n, resourceSliceCount: 1}\n"
      "  devices:\n  - name: a\n    capacity: {memory: {value: lots}}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: t}\n"
      "spec:\n  driver: d\n  nodeName: n\n  pool: {name: n, resourceSliceCount: 1}\n"
      "  devices:\n  - name: a\n    attributes: {x: {int: 1, string: one}}\n");
  ASSERT_EQ(m.rejected.size(), 2u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:10: ResourceSlice in version \"v1\" cannot be handled as a ResourceSlice: "
            "spec.devices[0].capacity.memory.value: quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(m.rejected[1].ToString(),
            "t.yaml:21: ResourceSlice in version \"v1\" cannot be handled as a ResourceSlice: "
            "spec.devices[0].attributes.x: exactly one value must be specified");
}

}  // namespace
}  // namespace gpusched

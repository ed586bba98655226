// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: network-attached devices and node selectors, admin access, matchAttribute constraints, class and claim configs.
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"network-attached-device",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices =
             unwrapResourceSlices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(nodeLabelSelector(regionKey, region1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"unsuccessful-allocation-network-attached-device",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices =
             unwrapResourceSlices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA));
         // Wrong region, no devices available.
         tc.node = node(node2, region2);
         tc.expectResults = {};
       }},
      {"many-network-attached-devices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 4)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
             sliceWithOneDevice(slice1, nodeSelectionAll, pool2, driverA),
             sliceWithOneDevice(slice1, nodeLabelSelector(planetKey, planetValueEarth), pool3, driverA),
             sliceWithOneDevice(slice1, localNodeSelector(node1), pool4, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             [&] {
               NodeSel o;
               o = std::vector<NodeSelectorTerm>{[&] {
                 NodeSelectorTerm o;
                 o.match_expressions =
                     std::vector<NodeSelectorRequirement>{[&] {
                                                            NodeSelectorRequirement o;
                                                            o.key = regionKey;
                                                            o.op = "In";
                                                            o.values = std::vector<std::string>{region1};
                                                            return o;
                                                          }(),
                                                          [&] {
                                                            NodeSelectorRequirement o;
                                                            o.key = planetKey;
                                                            o.op = "In";
                                                            o.values = std::vector<std::string>{planetValueEarth};
                                                            return o;
                                                          }()};
                 o.match_fields = std::vector<NodeSelectorRequirement>{[&] {
                   NodeSelectorRequirement o;
                   o.key = fieldNameKey;
                   o.op = "In";
                   o.values = std::vector<std::string>{node1};
                   return o;
                 }()};
                 return o;
               }()};
               return o;
             }(),
             deviceAllocationResult(req0, driverA, pool1, device1, false),
             deviceAllocationResult(req0, driverA, pool2, device1, false),
             deviceAllocationResult(req0, driverA, pool3, device1, false),
             deviceAllocationResult(req0, driverA, pool4, device1, false))};
       }},
      {"local-and-network-attached-devices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices =
             unwrapResourceSlices(sliceWithOneDevice(slice1, nodeLabelSelector(regionKey, region1), pool1, driverA),
                                  sliceWithOneDevice(slice1, node1, pool2, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req0, driverA, pool2, device1, false))};
       }},
      {"several-different-drivers",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req0, classB));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
             sliceWithOneDevice(slice1, node1, pool1, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false))};
       }},
      {"already-allocated-devices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.allocatedDevices =
             std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"admin-access-disabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = false};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequest(claim0, req0, classA);
           c.spec.requests[0].exactly->admin_access = true;
           return std::vector<ClaimW>{c};
         }();
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError = "claim claim-0, request req-0: admin access is requested, but the feature is disabled";
       }},
      {"admin-access-enabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequest(claim0, req0, classA);
           c.spec.requests[0].exactly->admin_access = true;
           return std::vector<ClaimW>{c};
         }();
         tc.allocatedDevices =
             std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))};
       }},
      {"with-constraint",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0,
                                       std::vector<DeviceConstraint>{[&] {
                                                                       DeviceConstraint o;
                                                                       o.match_attribute = std::string(intAttribute);
                                                                       return o;
                                                                     }(),
                                                                     [&] {
                                                                       DeviceConstraint o;
                                                                       o.match_attribute =
                                                                           std::string(versionAttribute);
                                                                       return o;
                                                                     }(),
                                                                     [&] {
                                                                       DeviceConstraint o;
                                                                       o.match_attribute = std::string(stringAttribute);
                                                                       return o;
                                                                     }(),
                                                                     [&] {
                                                                       DeviceConstraint o;
                                                                       o.match_attribute = std::string(boolAttribute);
                                                                       return o;
                                                                     }()},
                                       request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil,
                                                          AttrMap{{"driverVersion", VersionAttr("1.0.0")},
                                                                  {"numa", IntAttr(int64(1))},
                                                                  {"stringAttribute", StrAttr("stringAttributeValue")},
                                                                  {"boolAttribute", BoolAttr(true)}}),
                                                   device(device2, nil,
                                                          AttrMap{{"driverVersion", VersionAttr("1.0.0")},
                                                                  {"numa", IntAttr(int64(1))},
                                                                  {"stringAttribute", StrAttr("stringAttributeValue")},
                                                                  {"boolAttribute", BoolAttr(true)}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1, driverA, pool1, device2, false))};
       }},
      {"with-constraint-non-existent-attribute",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA, [&] {
           DeviceConstraint o;
           o.match_attribute = std::string(nonExistentAttribute);
           return o;
         }()));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"with-constraint-not-matching-int-attribute",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, std::vector<DeviceConstraint>{[&] {
                                                           DeviceConstraint o;
                                                           o.match_attribute = std::string(intAttribute);
                                                           return o;
                                                         }()},
                                                         request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, nil, AttrMap{{"numa", IntAttr(int64(1))}}),
                                                           device(device2, nil, AttrMap{{"numa", IntAttr(int64(2))}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"with-constraint-not-matching-int-attribute-all-devices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects([&]() -> ClaimW {
           auto claim_ = claimWithRequests(claim0, std::vector<DeviceConstraint>{[&] {
                                             DeviceConstraint o;
                                             o.match_attribute = std::string(intAttribute);
                                             return o;
                                           }()},
                                           request(req0, classA, 0));
           claim_.spec.requests[0].exactly->allocation_mode = "All";
           return claim_;
         }());
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, nil, AttrMap{{"numa", IntAttr(int64(1))}}),
                                                           device(device2, nil, AttrMap{{"numa", IntAttr(int64(2))}})));
         tc.node = node(node1, region1);
         tc.expectError =
             "claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint "
             "would not be satisfied";
       }},
      {"with-constraint-not-matching-string-attribute",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, std::vector<DeviceConstraint>{[&] {
                                                           DeviceConstraint o;
                                                           o.match_attribute = std::string(stringAttribute);
                                                           return o;
                                                         }()},
                                                         request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, AttrMap{{"stringAttribute", StrAttr("stringAttributeValue")}}),
                              device(device2, nil, AttrMap{{"stringAttribute", StrAttr("stringAttributeValue2")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"with-constraint-not-matching-bool-attribute",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, std::vector<DeviceConstraint>{[&] {
                                                           DeviceConstraint o;
                                                           o.match_attribute = std::string(boolAttribute);
                                                           return o;
                                                         }()},
                                                         request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, nil, AttrMap{{"boolAttribute", BoolAttr(true)}}),
             device(device2, nil, AttrMap{{"boolAttribute", BoolAttr(false)}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"with-constraint-not-matching-version-attribute",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, std::vector<DeviceConstraint>{[&] {
                                                           DeviceConstraint o;
                                                           o.match_attribute = std::string(versionAttribute);
                                                           return o;
                                                         }()},
                                                         request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, nil, AttrMap{{"driverVersion", VersionAttr("1.0.0")}}),
             device(device2, nil, AttrMap{{"driverVersion", VersionAttr("2.0.0")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"with-constraint-for-request",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, std::vector<DeviceConstraint>{[&] {
                                                           DeviceConstraint o;
                                                           o.requests = std::vector<std::string>{req0};
                                                           o.match_attribute = std::string(versionAttribute);
                                                           return o;
                                                         }()},
                                                         request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, nil, AttrMap{{"driverVersion", VersionAttr("1.0.0")}}),
             device(device2, nil, AttrMap{{"driverVersion", VersionAttr("2.0.0")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1, driverA, pool1, device2, false))};
       }},
      {"with-constraint-for-request-retry",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0,
                                       std::vector<DeviceConstraint>{[&] {
                                                                       DeviceConstraint o;
                                                                       o.requests = std::vector<std::string>{req0};
                                                                       o.match_attribute =
                                                                           std::string(versionAttribute);
                                                                       return o;
                                                                     }(),
                                                                     [&] {
                                                                       DeviceConstraint o;
                                                                       o.match_attribute = std::string(stringAttribute);
                                                                       return o;
                                                                     }()},
                                       request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA,
             device(device1, nil, AttrMap{{"driverVersion", VersionAttr("1.0.0")}, {"stringAttribute", StrAttr("a")}}),
             device(device2, nil, AttrMap{{"driverVersion", VersionAttr("2.0.0")}, {"stringAttribute", StrAttr("b")}}),
             device(device3, nil,
                    AttrMap{{"driverVersion", VersionAttr("3.0.0")}, {"stringAttribute", StrAttr("b")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device2, false),
                                              deviceAllocationResult(req1, driverA, pool1, device3, false))};
       }},
      {"with-class-device-config",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(classWithConfig(classA, driverA, "classAttribute"));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResultWithConfigs(
             localNodeSelector(node1), objects(deviceAllocationResult(req0, driverA, pool1, device1, false)),
             std::vector<AllocConfig>{[&] {
               AllocConfig o;
               o.source = "FromClass";
               o.requests = std::vector<std::string>{req0};
               o.config = deviceConfiguration(driverA, "classAttribute");
               return o;
             }()})};
       }},
      {"with-class-device-config-with-multiple-request-and-configs",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, std::vector<DeviceConstraint>{}, request(req0, classA, 1),
                                       request(req1, classA, 1), request(req2, classB, 1)));
         tc.classes = objects(classWithConfig(classA, driverA, "classAttribute-A"),
                              classWithConfig(classB, driverB, "classAttribute-B"));
         tc.slices = unwrap(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 2),
                            sliceWithOneDevice(slice2, node1, pool1, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResultWithConfigs(
             localNodeSelector(node1),
             objects(deviceAllocationResult(req0, driverA, pool1, device0, false),
                     deviceAllocationResult(req1, driverA, pool1, device1, false),
                     deviceAllocationResult(req2, driverB, pool1, device1, false)),
             std::vector<AllocConfig>{[&] {
                                        AllocConfig o;
                                        o.source = "FromClass";
                                        o.requests = std::vector<std::string>{req0, req1};
                                        o.config = deviceConfiguration(driverA, "classAttribute-A");
                                        return o;
                                      }(),
                                      [&] {
                                        AllocConfig o;
                                        o.source = "FromClass";
                                        o.requests = std::vector<std::string>{req2};
                                        o.config = deviceConfiguration(driverB, "classAttribute-B");
                                        return o;
                                      }()})};
       }},
      {"claim-with-device-config",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithDeviceConfig(claim0, req0, classA, driverA, "deviceAttribute"));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResultWithConfig(localNodeSelector(node1), driverA, "FromClaim",
                                                        "deviceAttribute",
                                                        deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
  };
}

class AllocatorConstraintsConfigsTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorConstraintsConfigsTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorConstraintsConfigsTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

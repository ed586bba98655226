// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: firstAvailable (DRAPrioritizedList).
//
// Not ported: none of this file's cases. Two cases also check upstream's count of
// allocateOne calls (expectNumAllocateOneInvocations): the search takes as many steps.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"prioritized-list-first-unavailable",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1))));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))};
       }},
      {"prioritized-list-non-available",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classB, 2), subRequest(subReq1, classA, 2))));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA),
                                          sliceWithOneDevice(slice2, node1, pool2, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"prioritized-list-device-config",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(
             claim(claim0)
                 .withRequests(
                     requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 2)))
                 .withConfigs(objects(
                     deviceClaimConfig(std::vector<std::string>{req0SubReq0}, deviceConfiguration(driverA, "foo")),
                     deviceClaimConfig(std::vector<std::string>{req0SubReq1}, deviceConfiguration(driverB, "bar")))));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverB, device(device1, nil, AttrMap{}), device(device2, nil, AttrMap{})));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResultWithConfigs(localNodeSelector(node1),
                                         objects(deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false),
                                                 deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false)),
                                         std::vector<AllocConfig>{[&] {
                                           AllocConfig o;
                                           o.source = "FromClaim";
                                           o.requests = std::vector<std::string>{req0SubReq1};
                                           o.config = deviceConfiguration(driverB, "bar");
                                           return o;
                                         }()})};
       }},
      {"prioritized-list-class-config",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classA, 2), subRequest(subReq1, classB, 2))));
         tc.classes = objects(classWithConfig(classA, driverA, "foo"), classWithConfig(classB, driverB, "bar"));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverB, device(device1, nil, nil), device(device2, nil, nil)),
             sliceWithDevices(slice2, node1, pool2, driverA, device(device3, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResultWithConfigs(localNodeSelector(node1),
                                         objects(deviceAllocationResult(req0SubReq1, driverB, pool1, device1, false),
                                                 deviceAllocationResult(req0SubReq1, driverB, pool1, device2, false)),
                                         std::vector<AllocConfig>{[&] {
                                           AllocConfig o;
                                           o.source = "FromClass";
                                           o.requests = std::vector<std::string>{req0SubReq1};
                                           o.config = deviceConfiguration(driverB, "bar");
                                           return o;
                                         }()})};
       }},
      {"prioritized-list-subrequests-with-expressions",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req0, classA, 1)
                 .withSelectors(Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0)", driverA)),
             requestWithPrioritizedList(
                 req1,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)),
                 subRequest(subReq1, classA, 2,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)", driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{"memory", q("2Gi")}}, nil),
             device(device2, QMap{{"memory", q("2Gi")}}, nil), device(device3, QMap{{"memory", q("1Gi")}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device3, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false))};
       }},
      {"prioritized-list-subrequests-with-constraints-ref-parent-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(
             claim(claim0)
                 .withConstraints([&] {
                   DeviceConstraint o;
                   o.requests = std::vector<std::string>{req0, req1};
                   o.match_attribute = std::string(versionAttribute);
                   return o;
                 }())
                 .withRequests(deviceRequest(req0, classA, 1)
                                   .withSelectors(Sprintf(
                                       R"(device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0)", driverA)),
                               requestWithPrioritizedList(
                                   req1,
                                   subRequest(subReq0, classA, 1,
                                              Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)",
                                                      driverA)),
                                   subRequest(subReq1, classA, 1,
                                              Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0)",
                                                      driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, pool1, driverA,
                 device(device1, QMap{{"memory", q("8Gi")}}, AttrMap{{"driverVersion", VersionAttr("1.0.0")}})),
             sliceWithDevices(
                 slice2, node1, pool2, driverA,
                 device(device2, QMap{{"memory", q("2Gi")}}, AttrMap{{"driverVersion", VersionAttr("2.0.0")}}),
                 device(device3, QMap{{"memory", q("1Gi")}}, AttrMap{{"driverVersion", VersionAttr("1.0.0")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool2, device3, false))};
       }},
      {"prioritized-list-subrequests-with-constraints-ref-sub-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(
             claim(claim0)
                 .withConstraints([&] {
                   DeviceConstraint o;
                   o.requests = std::vector<std::string>{req0, req1SubReq0};
                   o.match_attribute = std::string(versionAttribute);
                   return o;
                 }())
                 .withRequests(deviceRequest(req0, classA, 1)
                                   .withSelectors(Sprintf(
                                       R"(device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0)", driverA)),
                               requestWithPrioritizedList(
                                   req1,
                                   subRequest(subReq0, classA, 1,
                                              Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)",
                                                      driverA)),
                                   subRequest(subReq1, classA, 1,
                                              Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0)",
                                                      driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, QMap{{"memory", q("8Gi")}},
                                                                  AttrMap{{"driverVersion", VersionAttr("1.0.0")}})),
                                          sliceWithDevices(slice2, node1, pool2, driverA,
                                                           device(device2, QMap{{"memory", q("2Gi")}},
                                                                  AttrMap{{"driverVersion", VersionAttr("2.0.0")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool2, device2, false))};
       }},
      {"prioritized-list-subrequests-with-allocation-mode-all",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects([&]() -> ClaimW {
           auto claim_ = claim(claim0).withRequests(
               requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classA, 1)));
           claim_.spec.requests[0].first_available[0].allocation_mode = "All";
           claim_.spec.requests[0].first_available[0].count = 0;
           return claim_;
         }());
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false))};
       }},
      {"prioritized-list-allocation-mode-all-multiple-requests",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req0, classA, 1),
             requestWithPrioritizedList(req1, subRequest(subReq0, classA, 0).withAllocationMode("All"),
                                        subRequest(subReq1, classA, 1))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool1, device2, false))};
       }},
      {"prioritized-list-disabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = false};
         tc.claimsToAllocate = objects([&]() -> ClaimW {
           auto claim_ = claim(claim0).withRequests(requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1)));
           return claim_;
         }());
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError =
             "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is disabled";
       }},
      {"prioritized-list-multi-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req1, classA, 1)
                 .withSelectors(Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0)", driverA)),
             requestWithPrioritizedList(
                 req0,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0)", driverA)),
                 subRequest(subReq1, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, QMap{{"memory", q("8Gi")}}, AttrMap{})),
             sliceWithDevices(slice2, node1, pool2, driverA, device(device2, QMap{{"memory", q("4Gi")}}, AttrMap{})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req1, driverA, pool1, device1, false),
                                              deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false))};
       }},
      {"prioritized-list-with-backtracking",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(
                 req0,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0)", driverA)),
                 subRequest(subReq1, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA))),
             deviceRequest(req1, classA, 1)
                 .withSelectors(Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("8Gi")) >= 0)", driverA))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, QMap{{"memory", q("8Gi")}}, AttrMap{})),
             sliceWithDevices(slice2, node1, pool2, driverA, device(device2, QMap{{"memory", q("4Gi")}}, AttrMap{})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool2, device2, false),
                                              deviceAllocationResult(req1, driverA, pool1, device1, false))};
       }},
      {"prioritized-list-too-many-in-first-subrequest",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classB, 500), subRequest(subReq1, classA, 1))));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))};
       }},
      {"prioritized-list-allocation-mode-all",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(
             req0, subRequest(subReq0, classA, 0).withAllocationMode("All"), subRequest(subReq1, classA, 1))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device2)};
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))};
       }},
      {"prioritized-list-max-allocation-limit-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classA, 32), subRequest(subReq1, classA, 32 / 2)),
             requestWithPrioritizedList(req1, subRequest(subReq0, classA, 32), subRequest(subReq1, classA, 32 / 2))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 32 * 2));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             localNodeSelector(node1),
             Spread(Concat(multipleDeviceAllocationResults(req0SubReq1, driverA, pool1, 32 / 2, 0),
                           multipleDeviceAllocationResults(req1SubReq1, driverA, pool1, 32 / 2, 32 / 2))))};
         tc.expectNumAllocateOneInvocations = 75;
       }},
      {"prioritized-list-max-allocation-allocation-mode-all",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classA, 0).withAllocationMode("All"),
                                        subRequest(subReq1, classA, 2)),
             deviceRequest(req1, classB, 2)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithMultipleDevices(slice1, node1, pool1, driverA, 32 - 1),
                                          sliceWithMultipleDevices(slice2, node1, pool2, driverB, 2));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, "device-0", false),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, "device-1", false),
                                              deviceAllocationResult(req1, driverB, pool2, "device-0", false),
                                              deviceAllocationResult(req1, driverB, pool2, "device-1", false))};
         tc.expectNumAllocateOneInvocations = 42;
       }},
  };
}

class AllocatorPrioritizedListTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorPrioritizedListTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorPrioritizedListTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: consumable capacity (DRAConsumableCapacity): allowMultipleAllocations devices, capacity requests and request policies.
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"consumable-capacity-disabled-feature",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceBindingAndStatus = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrap(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError =
             "claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled";
       }},
      {"consumable-capacity-disabled-feature-with-prioritized-list",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1).withCapacityRequest(one),
                                        subRequest(subReq1, classA, 1).withCapacityRequest(one))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrap(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError =
             "claim claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is "
             "disabled";
       }},
      {"consumable-capacity-multi-allocatable-device-with-missing-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity1, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity1, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
                                       claim(claim1).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(
                 localNodeSelector(node1),
                 deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil)),
             allocationResult(
                 localNodeSelector(node1),
                 deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil))};
       }},
      {"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
                                       claim(claim1).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations(),
             device(device2, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}})),
                             allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device2)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)),
                                       claim(claim1).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity0, two}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)),
                     claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity0, two}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}})),
                             allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)),
                                       claimWithRequests(claim1, nil, request(req0, classA, 1)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, four}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}})),
                             allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-zero-request-policy",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)),
                                       claimWithRequests(claim1, nil, request(req0, classA, 1)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil)
                                  .withAllowMultipleAllocations()
                                  .withCapacityRequestPolicyValidValues(zero, QMap{{capacity0, one}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, zero}})),
                             allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, zero}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-violates-zero-request-policy",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil)
                                  .withAllowMultipleAllocations()
                                  .withCapacityRequestPolicyValidValues(zero, QMap{{capacity0, one}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)),
                     claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, four}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}})),
                             allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-range-policy-step",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(
             claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(3, BinarySI))));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, four}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, four}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-valid-values-policy",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(
             claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(2, BinarySI))));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA,
             device(device1, nil, nil)
                 .withAllowMultipleAllocations()
                 .withCapacityRequestPolicyValidValues(one, QMap{{capacity0, four}}, std::vector<Quantity>{two})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(
             claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(2, BinarySI))));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA,
             device(device1, nil, nil)
                 .withAllowMultipleAllocations()
                 .withCapacityRequestPolicyValidValues(one, QMap{{capacity0, three}}, std::vector<Quantity>{three})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, three}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)),
                     claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate = objects(
             claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(6, BinarySI))));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil)
                                  .withAllowMultipleAllocations()
                                  .withCapacityRequestPolicyRange(QMap{{capacity0, NewQuantity(10, BinarySI)}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
         tc.allocatedCapacityDevices =
             std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), QMap{{capacity0, two}}}};
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, four}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
         tc.allocatedCapacityDevices =
             std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), QMap{{capacity0, two}}}};
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, two}}),
                                                   device(device2, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device2)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
  };
}

class AllocatorConsumableCapacityTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorConsumableCapacityTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorConsumableCapacityTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: consumable capacity (DRAConsumableCapacity: allowMultipleAllocations, capacity requests and request policies, share ids) and distinctAttribute constraints.
//
// Not ported: none; "with-distinct-constraints-unknown-type-attribute" is kept but
// skipped: it needs a device attribute without a value, which the model cannot express.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"consumable-capacity-disabled-feature", [&](AllocatorCase& tc) {
        tc.features = Features{.DeviceBindingAndStatus = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrap(sliceWithOneDevice(slice1, node1, pool1, driverA));
        tc.node = node(node1, region1);
        tc.expectResults = {};
        tc.expectError = "claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled";
      }},
      {"consumable-capacity-disabled-feature-with-prioritized-list", [&](AllocatorCase& tc) {
        tc.features = Features{.PrioritizedList = true, .DeviceBindingAndStatus = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1).withCapacityRequest(one), subRequest(subReq1, classA, 1).withCapacityRequest(one))));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrap(sliceWithOneDevice(slice1, node1, pool1, driverA));
        tc.node = node(node1, region1);
        tc.expectResults = {};
        tc.expectError = "claim claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is disabled";
      }},
      {"consumable-capacity-multi-allocatable-device-with-missing-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity1, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity1, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)), claim(claim1).withRequests(deviceRequest(req0, classA, 1)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil)), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil))};
      }},
      {"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)), claim(claim1).withRequests(deviceRequest(req0, classA, 1)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations(), device(device2, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}})), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)), claim(claim1).withRequests(deviceRequest(req0, classA, 1)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)), claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}})), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)), claimWithRequests(claim1, nil, request(req0, classA, 1)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}})), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-zero-request-policy", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)), claimWithRequests(claim1, nil, request(req0, classA, 1)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(zero, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil)));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, zero}})), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, zero}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-violates-zero-request-policy", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(zero, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil)));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)), claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}})), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-range-policy-step", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(3, BinarySI))));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, four}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-valid-values-policy", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(2, BinarySI))));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(one, std::map<std::string, Quantity, std::less<>>{{capacity0, four}}, std::vector<Quantity>{two})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(2, BinarySI))));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyValidValues(one, std::map<std::string, Quantity, std::less<>>{{capacity0, three}}, std::vector<Quantity>{three})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, three}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)), claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(NewQuantity(6, BinarySI))));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, NewQuantity(10, BinarySI)}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
        tc.allocatedCapacityDevices = std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), std::map<std::string, Quantity, std::less<>>{{capacity0, two}}}};
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
        tc.allocatedCapacityDevices = std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), std::map<std::string, Quantity, std::less<>>{{capacity0, two}}}};
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}}), device(device2, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-with-multi-allocatable-device-backtrack", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.match_attribute = std::string(stringAttribute); return o; }()).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two), deviceRequest(req1, classA, 1).withCapacityRequest(two)), claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device2, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"stringAttribute", StrAttr("stringAttributeValue1")}}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}}), device(device1, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"stringAttribute", StrAttr("stringAttributeValue2")}}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}), deviceRequestAllocationResult(req1, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}})), allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-subrequest", [&](AllocatorCase& tc) {
        tc.features = Features{.PrioritizedList = true, .ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1).withCapacityRequest(four), subRequest(subReq1, classA, 1).withCapacityRequest(two), subRequest(subReq1, classA, 1))));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0SubReq1, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
        tc.allocatedCapacityDevices = std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), std::map<std::string, Quantity, std::less<>>{{capacity0, two}}}};
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(two)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}, nil).withAllowMultipleAllocations(), device(device2, nil, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(two)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}, nil).withAllowMultipleAllocations(), device(device2, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one), allDeviceRequest(req1, classA).withCapacityRequest(one)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}, nil).withAllowMultipleAllocations(), device(device2, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}), deviceRequestAllocationResult(req1, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}), deviceRequestAllocationResult(req1, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.allocatedCapacityDevices = std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), std::map<std::string, Quantity, std::less<>>{{capacity0, one}}}};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(one)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}, nil).withAllowMultipleAllocations(), device(device2, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}), deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}))};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one), allDeviceRequest(req1, classA).withCapacityRequest(one)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations(), device(device2, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.allocatedCapacityDevices = std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), std::map<std::string, Quantity, std::less<>>{{capacity0, one}}}};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(one)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations(), device(device2, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}))};
      }},
      {"consumable-capacity-dedicated-device-with-consumable-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, false));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil)));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
      }},
      {"consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)), claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, false));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, false));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, std::map<std::string, Quantity, std::less<>>{{capacity0, one}}, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
        tc.allocatedCapacityDevices = std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), std::map<std::string, Quantity, std::less<>>{{capacity0, one}}}};
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"allow-multiple-allocations-with-partitionable-device", [&](AllocatorCase& tc) {
        tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true, .ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0)", driverA)), subRequest(subReq1, classA, 1, Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)))));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, fromCounters, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, std::map<std::string, Quantity, std::less<>>{{"memory", q("4Gi")}})).withAllowMultipleAllocations(), device(device2, fromCounters, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, std::map<std::string, Quantity, std::less<>>{{"memory", q("6Gi")}})).withAllowMultipleAllocations(), device(device3, fromCounters, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, std::map<std::string, Quantity, std::less<>>{{"memory", q("4Gi")}})).withAllowMultipleAllocations()), sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, counterSet(counterSet1, std::map<std::string, Quantity, std::less<>>{{"memory", q("8Gi")}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{"memory", q("4Gi")}}), deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device3).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{"memory", q("4Gi")}}))};
      }},
      {"consumable-capacity-with-partitionable-device-multiple-capacity-pools", [&](AllocatorCase& tc) {
        // This test case combines integration of PrioritizedList, PartitionableDevices, and ConsumableCapacity features.
        tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true, .ConsumableCapacity = true};
        // There are two basic requests (req0 and req2), requesting 1 and 2 units of capacity0, respectively.
        // In addition, there is one request (req1) with a prioritized list.
        // The prioritized request prefers devices with capacity0 >= 4 over those with capacity0 >= 2.
        tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one), deviceRequest(req2, classA, 1).withCapacityRequest(two), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, Sprintf(R"(device.capacity["%s"]["%s"].compareTo(quantity("4")) >= 0)", driverA, capacity0)).withCapacityRequest(one), subRequest(subReq1, classA, 1, Sprintf(R"(device.capacity["%s"]["%s"].compareTo(quantity("2")) >= 0)", driverA, capacity0)).withCapacityRequest(one))));
        tc.classes = objects(deviceClass(classA, driverA));
        // There three device option consuming counters from the PartitionableDevices's CounterSet.
        // All devices can be allocated multiple times with `allowMultipleAllocations=true`.
        // CounterSet (4, 8)
        //   device1, device2, and device3 consume (2,4), (4,4), and (2,4) for (capacity0, capacity1) respectively.
        //   i.e., only two options are valid those are [device1, device3] or [device2].
        // Capacity.RequestPolicy of ConsumableCapacity forces the capacity1 consuming with range policy (min,step,max)=(2,2,4).
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, fromCounters, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}), deviceCounterConsumption(counterSet2, std::map<std::string, Quantity, std::less<>>{{capacity1, four}})).withAllowMultipleAllocations().withCapacityRequestPolicyRange((std::map<std::string, Quantity, std::less<>>{{capacity1, four}})), device(device2, fromCounters, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, std::map<std::string, Quantity, std::less<>>{{capacity0, four}}), deviceCounterConsumption(counterSet2, std::map<std::string, Quantity, std::less<>>{{capacity1, four}})).withAllowMultipleAllocations().withCapacityRequestPolicyRange((std::map<std::string, Quantity, std::less<>>{{capacity1, four}})), device(device3, fromCounters, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}), deviceCounterConsumption(counterSet2, std::map<std::string, Quantity, std::less<>>{{capacity1, four}})).withAllowMultipleAllocations().withCapacityRequestPolicyRange((std::map<std::string, Quantity, std::less<>>{{capacity1, four}}))), sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, counterSet(counterSet1, std::map<std::string, Quantity, std::less<>>{{capacity0, four}}), counterSet(counterSet2, std::map<std::string, Quantity, std::less<>>{{capacity1, q("8")}})));
        tc.node = node(node1, region1);
        // Expected results:
        //   - [req0] The scheduler should be able to allocate device1 to req0.
        //     1 unit of capacity0 is consumed according to the requested capacity, and 2 units of capacity1 are consumed according to the RequestPolicy.
        //   - [req2] device1 does not have enough capacity0 remaining for req2, which requests 2 units (only 1 unit remains).
        //     The scheduler must also skip device2 due to the CounterSet constraint.
        //     Therefore, device3 is allocated to req2, providing 2 units of capacity0 and 2 units of capacity1.
        //   - [req1] The first prioritized subrequest of req1 cannot find a device because device2 cannot be selected.
        //     The second prioritized subrequest is then chosen and consumes the remaining 1 unit of capacity0 on device1.
        //     Consequently, device1 is allocated to subreq1 of req1 with 1 unit of capacity0 and 2 units of capacity1.
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}, {capacity1, two}}), deviceRequestAllocationResult(req2, driverA, pool1, device3).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}, {capacity1, two}}), deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, one}, {capacity1, two}}))};
      }},
      {"with-distinct-constraints", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.distinct_attribute = std::string(boolAttribute); o.requests = std::vector<std::string>{req0, req1}; return o; }(), [&] { DeviceConstraint o; o.distinct_attribute = std::string(versionAttribute); o.requests = std::vector<std::string>{req0, req1, req2}; return o; }(), [&] { DeviceConstraint o; o.distinct_attribute = std::string(intAttribute); o.requests = std::vector<std::string>{req0, req1, req2, req3}; return o; }()).withRequests(deviceRequest(req0, classA, 1), deviceRequest(req1, classA, 1), deviceRequest(req2, classA, 1), deviceRequest(req3, classA, 1)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"driverVersion", VersionAttr("1.0.0")}, {"numa", IntAttr(int64(0))}, {"boolAttribute", BoolAttr(true)}}).withAllowMultipleAllocations(), device(device2, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"driverVersion", VersionAttr("1.0.1")}, {"numa", IntAttr(int64(1))}, {"boolAttribute", BoolAttr(false)}}).withAllowMultipleAllocations(), device(device3, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"driverVersion", VersionAttr("1.0.2")}, {"numa", IntAttr(int64(2))}, {"boolAttribute", BoolAttr(true)}}).withAllowMultipleAllocations(), device(device4, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"driverVersion", VersionAttr("1.0.0")}, {"numa", IntAttr(int64(3))}, {"boolAttribute", BoolAttr(true)}}).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil), deviceRequestAllocationResult(req1, driverA, pool1, device2).withConsumedCapacity(fixedShareID, nil), deviceRequestAllocationResult(req2, driverA, pool1, device3).withConsumedCapacity(fixedShareID, nil), deviceRequestAllocationResult(req3, driverA, pool1, device4).withConsumedCapacity(fixedShareID, nil))};
      }},
      {"with-distinct-constraints-attribute-not-set", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.distinct_attribute = std::string(boolAttribute); o.requests = std::vector<std::string>{req0}; return o; }()).withRequests(deviceRequest(req0, classA, 1)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"with-distinct-constraints-unknown-type-attribute", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.distinct_attribute = std::string(boolAttribute); o.requests = std::vector<std::string>{req0}; return o; }()).withRequests(deviceRequest(req0, classA, 1)));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"boolAttribute", DeviceAttribute{} /*no value: unknown type*/}}).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
        tc.expectError = "unsupported attribute value";
      },
       // Skipped: the model's DeviceAttribute always holds one of its four kinds, so an attribute
       // without a value cannot be written; upstream's error for it comes from CEL's conversion.
       "needs a device attribute without a value, which the model cannot express"},
      {"with-distinct-constraints-with-subrequests", [&](AllocatorCase& tc) {
        tc.features = Features{.PrioritizedList = true, .ConsumableCapacity = true};
        // There are three requests, all preferring the boolAttribute.
        // However, the DeviceConstraint applies only to the first two requests.
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.distinct_attribute = std::string(boolAttribute); o.requests = std::vector<std::string>{req0, req1}; return o; }()).withRequests(requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1, Sprintf(R"(device.attributes["%s"].boolAttribute)", driverA)), subRequest(subReq1, classA, 1)), requestWithPrioritizedList(req1, subRequest(subReq0, classA, 1, Sprintf(R"(device.attributes["%s"].boolAttribute)", driverA)), subRequest(subReq1, classA, 1)), requestWithPrioritizedList(req2, subRequest(subReq0, classA, 1, Sprintf(R"(device.attributes["%s"].boolAttribute)", driverA)), subRequest(subReq1, classA, 1))));
        tc.classes = objects(deviceClass(classA, driverA));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"boolAttribute", BoolAttr(true)}}).withAllowMultipleAllocations(), device(device2, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"boolAttribute", BoolAttr(false)}}).withAllowMultipleAllocations()));
        tc.node = node(node1, region1);
        // Because the constraint applies only to req0 and req1,
        // subreq0 cannot satisfy req1, so device2 (subreq1) is allocated instead.
        // However, req2 has no such constraint and can use device1 (subreq0).
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0SubReq0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil), deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device2).withConsumedCapacity(fixedShareID, nil), deviceRequestAllocationResult(req2SubReq0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, nil))};
      }},
      {"distinct-constraint-one-multi-allocatable-device-with-distinct-constraint", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.distinct_attribute = std::string(stringAttribute); return o; }()).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one), deviceRequest(req1, classA, 1).withCapacityRequest(one)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"stringAttribute", StrAttr("stringAttributeValue")}}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, two}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{};
      }},
      {"distinct-constraint-two-multi-allocatable-devices-with-distinct-constraint", [&](AllocatorCase& tc) {
        tc.features = Features{.ConsumableCapacity = true};
        tc.claimsToAllocate = objects(claim(claim0).withConstraints([&] { DeviceConstraint o; o.distinct_attribute = std::string(stringAttribute); return o; }()).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two), deviceRequest(req1, classA, 1).withCapacityRequest(two)));
        tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
        tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"stringAttribute", StrAttr("stringAttributeValue1")}}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})), sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device2, nil, std::map<std::string, DeviceAttribute, std::less<>>{{"stringAttribute", StrAttr("stringAttributeValue2")}}).withAllowMultipleAllocations().withCapacityRequestPolicyRange(std::map<std::string, Quantity, std::less<>>{{capacity0, four}})));
        tc.node = node(node1, region1);
        tc.expectResults = std::vector<AllocationResult>{allocationResult(localNodeSelector(node1), deviceRequestAllocationResult(req0, driverA, pool1, device1).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}), deviceRequestAllocationResult(req1, driverA, pool1, device2).withConsumedCapacity(fixedShareID, std::map<std::string, Quantity, std::less<>>{{capacity0, two}}))};
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

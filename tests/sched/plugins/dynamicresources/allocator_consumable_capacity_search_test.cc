// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: consumable capacity in the search: backtracking, subrequests, "All" requests, capacity in use, dedicated and shared devices, partitionable devices.
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"consumable-capacity-with-multi-allocatable-device-backtrack",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0)
                         .withConstraints([&] {
                           DeviceConstraint o;
                           o.match_attribute = std::string(stringAttribute);
                           return o;
                         }())
                         .withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two),
                                       deviceRequest(req1, classA, 1).withCapacityRequest(two)),
                     claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(two)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device2, nil, AttrMap{{"stringAttribute", StrAttr("stringAttributeValue1")}})
                                  .withAllowMultipleAllocations()
                                  .withCapacityRequestPolicyRange(QMap{{capacity0, two}}),
                              device(device1, nil, AttrMap{{"stringAttribute", StrAttr("stringAttributeValue2")}})
                                  .withAllowMultipleAllocations()
                                  .withCapacityRequestPolicyRange(QMap{{capacity0, four}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}),
                                              deviceRequestAllocationResult(req1, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}})),
                             allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device2)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-subrequest",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(
             req0, subRequest(subReq0, classA, 1).withCapacityRequest(four),
             subRequest(subReq1, classA, 1).withCapacityRequest(two), subRequest(subReq1, classA, 1))));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0SubReq1, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity",
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
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(two)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, two}}, nil).withAllowMultipleAllocations(),
             device(device2, nil, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-capacity",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(two)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, two}}, nil).withAllowMultipleAllocations(),
             device(device2, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one),
                                                allDeviceRequest(req1, classA).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, two}}, nil).withAllowMultipleAllocations(),
             device(device2, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}),
                                              deviceRequestAllocationResult(req1, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}),
                                              deviceRequestAllocationResult(req1, driverA, pool1, device2)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.allocatedCapacityDevices =
             std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), QMap{{capacity0, one}}}};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, two}}, nil).withAllowMultipleAllocations(),
             device(device2, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device2)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}))};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one),
                                                allDeviceRequest(req1, classA).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations(),
             device(device2, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.allocatedCapacityDevices =
             std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), QMap{{capacity0, one}}}};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(allDeviceRequest(req0, classA).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations(),
             device(device2, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device2)
                                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}}))};
       }},
      {"consumable-capacity-dedicated-device-with-consumable-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, false));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, QMap{{capacity0, one}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)),
                     claim(claim1).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, false));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil).withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"allow-multiple-allocations-exclude-multi-allocatable-device-by-class-selector",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, false));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity0, one}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices =
             unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                   device(device1, nil, nil)
                                                       .withAllowMultipleAllocations()
                                                       .withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-allocatable",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.allocatedCapacityDevices =
             std::map<DeviceId, CapMap>{{MakeDeviceID(driverA, pool1, device1), QMap{{capacity0, one}}}};
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil).withCapacityRequestPolicyRange(QMap{{capacity0, two}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"allow-multiple-allocations-with-partitionable-device",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true, .ConsumableCapacity = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req0, classA, 1),
             requestWithPrioritizedList(
                 req1,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0)", driverA)),
                 subRequest(subReq1, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)))));
         tc.classes = objects(classWithAllowMultipleAllocations(classA, driverA, true));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withAllowMultipleAllocations(),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}}))
                     .withAllowMultipleAllocations(),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withAllowMultipleAllocations()),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                                  .withConsumedCapacity(fixedShareID, QMap{{"memory", q("4Gi")}}),
                                              deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device3)
                                                  .withConsumedCapacity(fixedShareID, QMap{{"memory", q("4Gi")}}))};
       }},
      {"consumable-capacity-with-partitionable-device-multiple-capacity-pools",
       [&](AllocatorCase& tc) {
         // This test case combines integration of PrioritizedList, PartitionableDevices, and ConsumableCapacity
         // features.
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true, .ConsumableCapacity = true};
         // There are two basic requests (req0 and req2), requesting 1 and 2 units of capacity0, respectively.
         // In addition, there is one request (req1) with a prioritized list.
         // The prioritized request prefers devices with capacity0 >= 4 over those with capacity0 >= 2.
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req0, classA, 1).withCapacityRequest(one),
             deviceRequest(req2, classA, 1).withCapacityRequest(two),
             requestWithPrioritizedList(
                 req1,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"]["%s"].compareTo(quantity("4")) >= 0)", driverA, capacity0))
                     .withCapacityRequest(one),
                 subRequest(subReq1, classA, 1,
                            Sprintf(R"(device.capacity["%s"]["%s"].compareTo(quantity("2")) >= 0)", driverA, capacity0))
                     .withCapacityRequest(one))));
         tc.classes = objects(deviceClass(classA, driverA));
         // There three device option consuming counters from the PartitionableDevices's CounterSet.
         // All devices can be allocated multiple times with `allowMultipleAllocations=true`.
         // CounterSet (4, 8)
         //   device1, device2, and device3 consume (2,4), (4,4), and (2,4) for (capacity0, capacity1) respectively.
         //   i.e., only two options are valid those are [device1, device3] or [device2].
         // Capacity.RequestPolicy of ConsumableCapacity forces the capacity1 consuming with range policy
         // (min,step,max)=(2,2,4).
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{capacity0, two}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{capacity1, four}}))
                     .withAllowMultipleAllocations()
                     .withCapacityRequestPolicyRange((QMap{{capacity1, four}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{capacity0, four}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{capacity1, four}}))
                     .withAllowMultipleAllocations()
                     .withCapacityRequestPolicyRange((QMap{{capacity1, four}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{capacity0, two}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{capacity1, four}}))
                     .withAllowMultipleAllocations()
                     .withCapacityRequestPolicyRange((QMap{{capacity1, four}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{capacity0, four}}),
                                  counterSet(counterSet2, QMap{{capacity1, q("8")}})));
         tc.node = node(node1, region1);
         // Expected results:
         //   - [req0] The scheduler should be able to allocate device1 to req0.
         //     1 unit of capacity0 is consumed according to the requested capacity, and 2 units of capacity1 are
         //     consumed according to the RequestPolicy.
         //   - [req2] device1 does not have enough capacity0 remaining for req2, which requests 2 units (only 1 unit
         //   remains).
         //     The scheduler must also skip device2 due to the CounterSet constraint.
         //     Therefore, device3 is allocated to req2, providing 2 units of capacity0 and 2 units of capacity1.
         //   - [req1] The first prioritized subrequest of req1 cannot find a device because device2 cannot be selected.
         //     The second prioritized subrequest is then chosen and consumes the remaining 1 unit of capacity0 on
         //     device1. Consequently, device1 is allocated to subreq1 of req1 with 1 unit of capacity0 and 2 units of
         //     capacity1.
         tc.expectResults = {
             allocationResult(localNodeSelector(node1),
                              deviceRequestAllocationResult(req0, driverA, pool1, device1)
                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}, {capacity1, two}}),
                              deviceRequestAllocationResult(req2, driverA, pool1, device3)
                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, two}, {capacity1, two}}),
                              deviceRequestAllocationResult(req1SubReq1, driverA, pool1, device1)
                                  .withConsumedCapacity(fixedShareID, QMap{{capacity0, one}, {capacity1, two}}))};
       }},
  };
}

class AllocatorConsumableCapacitySearchTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorConsumableCapacitySearchTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorConsumableCapacitySearchTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

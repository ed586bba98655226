// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: partitionable devices with binding conditions and taints, and the validation of counter sets and their consumers.
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"partitionable-devices-with-binding-conditions",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                            std::vector<std::string>{"BindingFailed"})),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {[&] {
           AllocationResult o;
           SetDevices(o, [&] {
             DeviceAllocationResultGo o;
             o.results = std::vector<DeviceRequestAllocationResult>{deviceRequestAllocationResultWithBindingConditions(
                 req0, driverA, pool1, device1, std::vector<std::string>{"IsPrepare"},
                 std::vector<std::string>{"BindingFailed"})};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"partitionable-devices-with-binding-conditions-multiple",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                            std::vector<std::string>{"BindingFailed"}),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare2"},
                                            std::vector<std::string>{"BindingFailed2"})),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {[&] {
           AllocationResult o;
           SetDevices(o, [&] {
             DeviceAllocationResultGo o;
             o.results = std::vector<DeviceRequestAllocationResult>{
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1,
                                                                    std::vector<std::string>{"IsPrepare"},
                                                                    std::vector<std::string>{"BindingFailed"}),
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2,
                                                                    std::vector<std::string>{"IsPrepare2"},
                                                                    std::vector<std::string>{"BindingFailed2"})};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"partitionable-devices-with-binding-conditions-some-devices-no-conditions",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 3)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("2Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                            std::vector<std::string>{"BindingFailed"}),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("2Gi")}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsReady"},
                                            std::vector<std::string>{"BindingTimeout"})),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {[&] {
           AllocationResult o;
           SetDevices(o, [&] {
             DeviceAllocationResultGo o;
             o.results = std::vector<DeviceRequestAllocationResult>{
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1,
                                                                    std::vector<std::string>{"IsPrepare"},
                                                                    std::vector<std::string>{"BindingFailed"}),
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, nil, nil),
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device3,
                                                                    std::vector<std::string>{"IsReady"},
                                                                    std::vector<std::string>{"BindingTimeout"})};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"partitionable-devices-with-binding-conditions-multi-slices",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 4), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                            std::vector<std::string>{"BindingFailed"})),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 4), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})),
             sliceWithDevices(
                 slice3, node1, resourcePool(pool1, 4), driverA,
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice4, node1, resourcePool(pool1, 4), driverA,
                                  counterSet(counterSet2, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {[&] {
           AllocationResult o;
           SetDevices(o, [&] {
             DeviceAllocationResultGo o;
             o.results = std::vector<DeviceRequestAllocationResult>{
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, nil, nil),
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device1,
                                                                    std::vector<std::string>{"IsPrepare"},
                                                                    std::vector<std::string>{"BindingFailed"})};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"partitionable-devices-with-binding-conditions-and-taints",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true, .DeviceTaints = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, pool1, driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                            std::vector<std::string>{"BindingFailed"})
                     .withTaints([&] {
                       DeviceTaint o;
                       o.key = "key1";
                       o.value = "value1";
                       o.effect = "NoSchedule";
                       return o;
                     }()),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"partitionable-devices-with-binding-conditions-and-taints-tolerated",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true, .DeviceTaints = true, .DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(
             claimWithRequests(claim0, nil, request(req0, classA, 2)).withTolerations(tolerationNoScheduleKey1));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                            std::vector<std::string>{"BindingFailed"})
                     .withTaints([&] {
                       DeviceTaint o;
                       o.key = "key1";
                       o.value = "value1";
                       o.effect = "NoSchedule";
                       return o;
                     }()),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {[&] {
           AllocationResult o;
           SetDevices(o, [&] {
             DeviceAllocationResultGo o;
             o.results = std::vector<DeviceRequestAllocationResult>{
                 deviceRequestAllocationResultWithBindingConditions(
                     req0, driverA, pool1, device1, std::vector<std::string>{"IsPrepare"},
                     std::vector<std::string>{"BindingFailed"}, tolerationNoScheduleKey1),
                 deviceRequestAllocationResultWithBindingConditions(req0, driverA, pool1, device2, nil, nil,
                                                                    tolerationNoScheduleKey1)};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"partitionable-devices-same-counter-set-name-in-different-resource-slices",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, resourcePool(pool1, 4), driverA, device(device1, nil, nil)),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 4), driverA, counterSet(counterSet1, nil)),
             sliceWithDevices(slice3, node1, resourcePool(pool1, 4), driverA, device(device2, nil, nil)),
             sliceWithCounterSets(slice4, node1, resourcePool(pool1, 4), driverA, counterSet(counterSet1, nil)));
         tc.node = node(node1, region1);
         tc.expectError = "invalid resource pools were encountered";
       }},
      {"partitionable-devices-device-counter-consumption-references-unknown-counter-set",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, nil, nil).withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, nil))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA, counterSet(counterSet1, nil)));
         tc.node = node(node1, region1);
         tc.expectError = "invalid resource pools were encountered";
       }},
      {"partitionable-devices-device-counter-consumption-references-unknown-counter-in-counter-set",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("8Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"other-memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectError = "invalid resource pools were encountered";
       }},
      {"partitionable-devices-device-counter-consumption-references-counter-set-in-other-pool",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, pool1, driverA,
                 device(device1, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("8Gi")}}))),
             sliceWithCounterSets(slice2, node1, pool2, driverA, counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectError = "invalid resource pools were encountered";
       }},
      {"partitionable-devices-devices-on-different-nodes-consume-same-counter-set",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(
             req0,
             subRequest(subReq0, classA, 1,
                        Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0)", driverA)),
             subRequest(subReq1, classA, 1,
                        Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)", driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})),
             sliceWithDevices(
                 slice2, node1, resourcePool(pool1, 3), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("2Gi")}}))),
             sliceWithDevices(
                 slice3, node2, resourcePool(pool1, 3), driverA,
                 device(device3, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}}))));
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device3)};
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false))};
       }},
      {"partitionable-devices-validation-error-on-non-targeting-slice",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithCounterSets(slice1, node1, resourcePool(pool1, 3), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})),
             sliceWithDevices(
                 slice2, node1, resourcePool(pool1, 3), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}}))),
             sliceWithDevices(
                 slice3, node2, resourcePool(pool1, 3), driverA,
                 device(device3, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, QMap{{"memory", q("6Gi")}}))));
         tc.node = node(node1, region1);
         tc.expectError = "invalid resource pools were encountered";
       }},
  };
}

class AllocatorPartitionableBindingTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorPartitionableBindingTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorPartitionableBindingTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

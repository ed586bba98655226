// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: partitionable devices (DRAPartitionableDevices): shared counters, per-device node selection.
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"partitionable-devices-single-device",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                                                           device(device1, nil, nil)
                                                               .withDeviceCounterConsumption(deviceCounterConsumption(
                                                                   counterSet1, QMap{{"memory", q("4Gi")}}))),
                                          sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                                               counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"partitionable-devices-prioritized-list",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req0, classA, 1),
             requestWithPrioritizedList(
                 req1,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0)", driverA)),
                 subRequest(subReq1, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false))};
       }},
      {"partitionable-devices-multiple-devices",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1, driverA, pool1, device3, false))};
       }},
      {"partitionable-devices-multiple-capacity-pools",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             deviceRequest(req0, classA, 1),
             requestWithPrioritizedList(
                 req1,
                 subRequest(subReq0, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0)", driverA)),
                 subRequest(subReq1, classA, 1,
                            Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{"cpus", q("4")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{"cpus", q("6")}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{"cpus", q("4")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("18Gi")}}),
                                  counterSet(counterSet2, QMap{{"cpus", q("8")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1SubReq1, driverA, pool1, device3, false))};
       }},
      {"partitionable-devices-multiple-counters",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(
                         deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}, {"cpus", q("6")}}),
                         deviceCounterConsumption(counterSet2, QMap{{"cpus", q("4")}, {"memory", q("2Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(
                         deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}, {"cpus", q("4")}}),
                         deviceCounterConsumption(counterSet2, QMap{{"cpus", q("6")}, {"memory", q("6Gi")}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(
                         deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}, {"cpus", q("4")}}),
                         deviceCounterConsumption(counterSet2, QMap{{"cpus", q("4")}, {"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"cpus", q("8")}, {"memory", q("18Gi")}}),
                                  counterSet(counterSet2, QMap{{"cpus", q("12")}, {"memory", q("18Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device2, false),
                                              deviceAllocationResult(req1, driverA, pool1, device3, false))};
       }},
      {"partitionable-devices-multiple-pools",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                              device(device1, fromCounters, nil)
                                  .withDeviceCounterConsumption(deviceCounterConsumption(
                                      counterSet1, QMap{{"cpus", q("6")}, {"memory", q("4Gi")}})),
                              device(device2, fromCounters, nil)
                                  .withDeviceCounterConsumption(deviceCounterConsumption(
                                      counterSet1, QMap{{"cpus", q("4")}, {"memory", q("6Gi")}})),
                              device(device3, fromCounters, nil)
                                  .withDeviceCounterConsumption(deviceCounterConsumption(
                                      counterSet1, QMap{{"cpus", q("4")}, {"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"cpus", q("8")}, {"memory", q("18Gi")}})),
             sliceWithDevices(slice3, node1, resourcePool(pool2, 2), driverA,
                              device(device1, fromCounters, nil)
                                  .withDeviceCounterConsumption(deviceCounterConsumption(
                                      counterSet1, QMap{{"cpus", q("6")}, {"memory", q("4Gi")}})),
                              device(device2, fromCounters, nil)
                                  .withDeviceCounterConsumption(deviceCounterConsumption(
                                      counterSet1, QMap{{"cpus", q("1")}, {"memory", q("7Gi")}})),
                              device(device3, fromCounters, nil)
                                  .withDeviceCounterConsumption(deviceCounterConsumption(
                                      counterSet1, QMap{{"cpus", q("1")}, {"memory", q("7Gi")}}))),
             sliceWithCounterSets(slice4, node1, resourcePool(pool2, 2), driverA,
                                  counterSet(counterSet1, QMap{{"cpus", q("8")}, {"memory", q("18Gi")}})));
         tc.allocatedDevices =
             std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device2), MakeDeviceID(driverA, pool1, device3),
                                   MakeDeviceID(driverA, pool2, device1)};
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool2, device2, false),
                                              deviceAllocationResult(req1, driverA, pool2, device3, false))};
       }},
      {"partitionable-devices-unused-counters-in-counter-set",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 2)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("5Gi")}})),
                 device(device2, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}})),
                 device(device3, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("8Gi")}, {"unused", q("1Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device2, false),
                                              deviceAllocationResult(req0, driverA, pool1, device3, false))};
       }},
      {"partitionable-devices-no-capacity-available",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, pool1, driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("16Gi")}}))),
             sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, QMap{{"memory", q("18Gi")}})));
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device2)};
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"partitionable-devices-overallocated-capacity-pool",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, pool1, driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("20Gi")}}))),
             sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, QMap{{"memory", q("18Gi")}})));
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device2)};
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"partitionable-devices-disabled-device-consumes-counters",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = false};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, pool1, driverA,
                 device(device1, nil, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice2, node1, pool1, driverA, counterSet(counterSet1, QMap{{"memory", q("18Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"partitionable-devices-disabled-other-device-do-not-consume-counters",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = false};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA,
                                                           device(device1, nil, nil)
                                                               .withDeviceCounterConsumption(deviceCounterConsumption(
                                                                   counterSet1, QMap{{"memory", q("4Gi")}})),
                                                           device(device2, nil, nil)),
                                          sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                                               counterSet(counterSet1, QMap{{"memory", q("18Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device2, false))};
       }},
      {"partitionable-devices-disabled-per-device-node-selection",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = false};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, nodeSelectionPerDevice, pool1, driverA,
                                                           device(device2, nil, nil).withNodeSelection(node1)));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"partitionable-devices-per-device-node-selection-nodename",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(
             req0,
             subRequest(subReq0, classA, 1,
                        Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("6Gi")) >= 0)", driverA)),
             subRequest(subReq1, classA, 1,
                        Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("4Gi")) >= 0)", driverA)))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withNodeSelection(node1),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("6Gi")}}))
                     .withNodeSelection(node2)),
             sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("18Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))};
       }},
      {"partitionable-devices-per-device-node-selection-node-selector",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withNodeSelection(nodeLabelSelector(regionKey, region1))),
             sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("18Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             [&] {
               NodeSel o;
               o = std::vector<NodeSelectorTerm>{[&] {
                 NodeSelectorTerm o;
                 o.match_expressions = std::vector<NodeSelectorRequirement>{[&] {
                   NodeSelectorRequirement o;
                   o.key = regionKey;
                   o.op = "In";
                   o.values = std::vector<std::string>{region1};
                   return o;
                 }()};
                 return o;
               }()};
               return o;
             }(),
             deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"partitionable-devices-per-device-node-selection-node-selector-multiple-devices",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .PartitionableDevices = true};
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, nil, request(req0, classA, 3), request(req1, classB, 3)));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withNodeSelection(nodeLabelSelector(regionKey, region1)),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withNodeSelection(node1),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"memory", q("4Gi")}}))
                     .withNodeSelection(nodeSelectionAll)),
             sliceWithCounterSets(slice2, nodeSelectionPerDevice, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"memory", q("18Gi")}})),
             sliceWithDevices(
                 slice3, node1, resourcePool(pool2, 2), driverB,
                 device(device1, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, QMap{{"memory", q("4Gi")}})),
                 device(device2, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, QMap{{"memory", q("4Gi")}})),
                 device(device3, fromCounters, nil)
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet2, QMap{{"memory", q("4Gi")}}))),
             sliceWithCounterSets(slice4, node1, resourcePool(pool2, 2), driverB,
                                  counterSet(counterSet2, QMap{{"memory", q("12Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             [&] {
               NodeSel o;
               o = std::vector<NodeSelectorTerm>{[&] {
                 NodeSelectorTerm o;
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
             deviceAllocationResult(req0, driverA, pool1, device2, false),
             deviceAllocationResult(req0, driverA, pool1, device3, false),
             deviceAllocationResult(req1, driverB, pool2, device1, false),
             deviceAllocationResult(req1, driverB, pool2, device2, false),
             deviceAllocationResult(req1, driverB, pool2, device3, false))};
       }},
      {"partitionable-devices-with-attribute-selector",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PartitionableDevices = true};
         tc.claimsToAllocate = objects(
             claimWithRequests(claim0, nil, request(req0, classA, 2),
                               request(req1, classA, 1, Sprintf(R"(device.attributes["%s"].special)", driverA))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(
                 slice1, node1, resourcePool(pool1, 2), driverA,
                 device(device1, nil, AttrMap{{"special", BoolAttr(true)}})
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"cpu1", q("1")}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{"mem", q("10Gi")}})),
                 device(device2, nil, AttrMap{{"special", BoolAttr(false)}})
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"cpu2", q("1")}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{"mem", q("10Gi")}})),
                 device(device3, nil, AttrMap{{"special", BoolAttr(false)}})
                     .withDeviceCounterConsumption(deviceCounterConsumption(counterSet1, QMap{{"cpu3", q("1")}}),
                                                   deviceCounterConsumption(counterSet2, QMap{{"mem", q("10Gi")}}))),
             sliceWithCounterSets(slice2, node1, resourcePool(pool1, 2), driverA,
                                  counterSet(counterSet1, QMap{{"cpu1", q("1")}, {"cpu2", q("1")}, {"cpu3", q("1")}}),
                                  counterSet(counterSet2, QMap{{"mem", q("30Gi")}})));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device2, false),
                                              deviceAllocationResult(req0, driverA, pool1, device3, false),
                                              deviceAllocationResult(req1, driverA, pool1, device1, false))};
       }},
  };
}

class AllocatorPartitionableTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorPartitionableTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorPartitionableTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

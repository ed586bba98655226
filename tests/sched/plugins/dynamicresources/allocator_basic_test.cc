// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: the basic cases: devices, slices, pool generations, classes.
//
// Not ported: none of this file's cases. Upstream's "interrupt" subtests (context
// cancellation and deadlines) are not table cases and have no counterpart: Allocate
// takes no context.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"empty", [&](AllocatorCase&) {}},
      {"simple",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"other-node",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverB),
                                          sliceWithOneDevice(slice2, node2, pool2, driverA));
         tc.node = node(node2, region2);
         tc.expectResults = {
             allocationResult(localNodeSelector(node2), deviceAllocationResult(req0, driverA, pool2, device1, false))};
       }},
      {"small-and-large",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(
             claim0, nil,
             request(req0, classA, 1,
                     Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0)", driverA)),
             request(req1, classA, 1,
                     Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)", driverA))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, QMap{{"memory", q("1Gi")}}, nil),
                                                           device(device2, QMap{{"memory", q("2Gi")}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1, driverA, pool1, device2, false))};
       }},
      {"small-and-large-backtrack-requests",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(
             claim0, nil,
             request(req0, classA, 1,
                     Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0)", driverA)),
             request(req1, classA, 1,
                     Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)", driverA))));
         tc.classes = objects(deviceClass(classA, driverA));
         // Reversing the order in which the devices are listed causes the "large" device to
         // be allocated for the "small" request, leaving the "large" request unsatisfied.
         // The initial decision needs to be undone before a solution is found.
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device2, QMap{{"memory", q("2Gi")}}, nil),
                                                           device(device1, QMap{{"memory", q("1Gi")}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req1, driverA, pool1, device2, false))};
       }},
      {"small-and-large-backtrack-claims",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate =
             objects(claimWithRequests(
                         claim0, nil,
                         request(req0, classA, 1,
                                 Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("1Gi")) >= 0)", driverA))),
                     claimWithRequests(
                         claim1, nil,
                         request(req1, classA, 1,
                                 Sprintf(R"(device.capacity["%s"].memory.compareTo(quantity("2Gi")) >= 0)", driverA))));
         tc.classes = objects(deviceClass(classA, driverA));
         // Reversing the order in which the devices are listed causes the "large" device to
         // be allocated for the "small" request, leaving the "large" request unsatisfied.
         // The initial decision needs to be undone before a solution is found.
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device2, QMap{{"memory", q("2Gi")}}, nil),
                                                           device(device1, QMap{{"memory", q("1Gi")}}, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req1, driverA, pool1, device2, false))};
       }},
      {"devices-split-across-different-slices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, [&] {
           DeviceRequest o;
           o.name = req0;
           o.exactly = [&] {
             ExactDeviceRequest o;
             o.count = 2;
             o.allocation_mode = "ExactCount";
             o.device_class_name = classA;
             return o;
           }();
           return o;
         }()));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA),
                                          sliceWithOneDevice(slice2, node1, pool2, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req0, driverA, pool2, device1, false))};
       }},
      {"obsolete-slice",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA, device(device1, nil, nil)),
             [&]() -> SliceW {
               auto slice = sliceWithDevices("slice-1-obsolete", node1, resourcePool(pool1, 2), driverA,
                                             device(device2, nil, nil));
               // This makes the other slice obsolete.
               slice.pool.generation++;
               return slice;
             }());
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"duplicate-slice",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = [&]() -> std::vector<ResourceSlice> {
           // This simulates the problem that can
           // (theoretically) occur when the resource
           // slice controller wants to publish a pool
           // with two slices but ends up creating some
           // identical slices under different names
           // because its informer cache was out-dated on
           // another sync (see
           // resourceslicecontroller.go).
           auto sliceA = sliceWithOneDevice(slice1, node1, pool1, driverA).obj();
           sliceA.pool.resource_slice_count = 2;
           auto sliceB = sliceA;
           sliceB.meta.name += "-2";
           return std::vector<ResourceSlice>{sliceA, sliceB};
         }();
         tc.node = node(node1, region1);
         tc.expectError = "invalid resource pools were encountered";
       }},
      {"no-slices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = {};
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"not-enough-suitable-devices",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA), claimWithRequest(claim0, req1, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"no-classes",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = {};
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError = "could not retrieve device class class-a";
       }},
      {"unknown-class",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, "unknown-class"));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError = "could not retrieve device class unknown-class";
       }},
      {"empty-class",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, ""));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError = "claim claim-0, request req-0: missing device class name (unsupported request type?)";
       }},
      {"no-claims-to-allocate",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = {};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
  };
}

class AllocatorBasicTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorBasicTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorBasicTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: device taints (DRADeviceTaints) and binding conditions (DRADeviceBindingConditions).
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"tainted-two-devices",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = true};
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, nil, nil).withTaints(taintNoSchedule),
                                                           device(device2, nil, nil).withTaints(taintNoExecute)));
         tc.node = node(node1, region1);
       }},
      {"tainted-one-device-two-taints",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = true};
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule, taintNoExecute)));
         tc.node = node(node1, region1);
       }},
      {"tainted-two-devices-tolerated",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = true};
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoExecute));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, nil, nil).withTaints(taintNoSchedule),
                                                           device(device2, nil, nil).withTaints(taintNoExecute)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1),
                              deviceAllocationResult(req0, driverA, pool1, device2, false, tolerationNoExecute))};
       }},
      {"tainted-two-devices-prioritized-list-tolerated",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .DeviceTaints = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(requestWithPrioritizedList(
             req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classA, 1, tolerationNoExecute))));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, node1, pool1, driverA,
                                                           device(device1, nil, nil).withTaints(taintNoSchedule),
                                                           device(device2, nil, nil).withTaints(taintNoExecute)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             localNodeSelector(node1),
             deviceAllocationResult(req0SubReq1, driverA, pool1, device2, false, tolerationNoExecute))};
       }},
      {"tainted-no-effect",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = true};
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNone)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"tainted-one-device-two-taints-both-tolerated",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = true};
         tc.claimsToAllocate =
             objects(claimWithRequest(claim0, req0, classA).withTolerations(tolerationNoSchedule, tolerationNoExecute));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule, taintNoExecute)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             localNodeSelector(node1),
             deviceAllocationResult(req0, driverA, pool1, device1, false, tolerationNoSchedule, tolerationNoExecute))};
       }},
      {"tainted-disabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = false};
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(
             slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule, taintNoExecute)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"tainted-prioritized-list",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .DeviceTaints = true};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1))));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule)));
         tc.node = node(node1, region1);
       }},
      {"tainted-prioritized-list-disabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true, .DeviceTaints = false};
         tc.claimsToAllocate = objects(claim(claim0).withRequests(
             requestWithPrioritizedList(req0, subRequest(subReq0, classB, 1), subRequest(subReq1, classA, 1))));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverA, pool1, device1, false))};
       }},
      {"tainted-admin-access",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true, .DeviceTaints = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequest(claim0, req0, classA);
           c.spec.requests[0].exactly->admin_access = true;
           return std::vector<ClaimW>{c};
         }();
         tc.allocatedDevices =
             std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule)));
         tc.node = node(node1, region1);
       }},
      {"tainted-admin-access-disabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true, .DeviceTaints = false};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequest(claim0, req0, classA);
           c.spec.requests[0].exactly->admin_access = true;
           return std::vector<ClaimW>{c};
         }();
         tc.allocatedDevices =
             std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1), MakeDeviceID(driverA, pool1, device2)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))};
       }},
      {"tainted-all-devices-single",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, [&] {
           DeviceRequest o;
           o.name = req0;
           o.exactly = [&] {
             ExactDeviceRequest o;
             o.allocation_mode = "All";
             o.device_class_name = classA;
             return o;
           }();
           return o;
         }()));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule)));
         tc.node = node(node1, region1);
       }},
      {"tainted-all-devices-single-disabled",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceTaints = false};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, [&] {
           DeviceRequest o;
           o.name = req0;
           o.exactly = [&] {
             ExactDeviceRequest o;
             o.allocation_mode = "All";
             o.device_class_name = classA;
             return o;
           }();
           return o;
         }()));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil).withTaints(taintNoSchedule)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"device-binding-conditions",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceBindingAndStatus = true};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil)
                                  .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                                         std::vector<std::string>{"BindingFailed"})));
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
      {"binding-conditions-multiple-devices",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceBindingAndStatus = true};
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, nil, request(req0, classA, 2), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil)
                                  .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                                         std::vector<std::string>{"BindingFailed"}),
                              device(device2, nil, nil)
                                  .withBindingConditions(std::vector<std::string>{"IsPrepare2"},
                                                         std::vector<std::string>{"BindingFailed2"}),
                              device(device3, nil, nil)
                                  .withBindingConditions(std::vector<std::string>{"IsPrepare3"},
                                                         std::vector<std::string>{"BindingFailed3"})));
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
                                                                    std::vector<std::string>{"BindingFailed2"}),
                 deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool1, device3,
                                                                    std::vector<std::string>{"IsPrepare3"},
                                                                    std::vector<std::string>{"BindingFailed3"})};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"binding-conditions-with-and-without",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceBindingAndStatus = true};
         tc.claimsToAllocate =
             objects(claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil),
                              device(device2, nil, nil)
                                  .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                                         std::vector<std::string>{"BindingFailed"})));
         tc.node = node(node1, region1);
         tc.expectResults = {[&] {
           AllocationResult o;
           SetDevices(o, [&] {
             DeviceAllocationResultGo o;
             o.results = std::vector<DeviceRequestAllocationResult>{
                 deviceAllocationResult(req0, driverA, pool1, device1, false),
                 deviceRequestAllocationResultWithBindingConditions(req1, driverA, pool1, device2,
                                                                    std::vector<std::string>{"IsPrepare"},
                                                                    std::vector<std::string>{"BindingFailed"})};
             return o;
           }());
           o.node_selector = localNodeSelector(node1);
           return o;
         }()};
       }},
      {"binding-conditions-without-feature-gate",
       [&](AllocatorCase& tc) {
         tc.features = Features{.DeviceBindingAndStatus = false};
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, request(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, nil, nil)
                                  .withBindingConditions(std::vector<std::string>{"IsPrepare"},
                                                         std::vector<std::string>{"BindingFailed"})));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
  };
}

class AllocatorTaintsBindingTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorTaintsBindingTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorTaintsBindingTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

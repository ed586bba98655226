// Upstream's shared allocator test table (TestAllocator in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go),
// ported case by case with the same names, inputs and expected results or
// error texts: "All" requests and admin access.
//
// Not ported: none of this file's cases.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      {"all-devices-single",
       [&](AllocatorCase& tc) {
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
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"all-devices-many",
       [&](AllocatorCase& tc) {
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
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA),
                                          sliceWithOneDevice(slice1, node1, pool2, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, false),
                                              deviceAllocationResult(req0, driverA, pool2, device1, false))};
       }},
      {"all-devices-of-the-incomplete-pool",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil, [&] {
           DeviceRequest o;
           o.name = req0;
           o.exactly = [&] {
             ExactDeviceRequest o;
             o.allocation_mode = "All";
             o.count = 1;
             o.device_class_name = classA;
             return o;
           }();
           return o;
         }()));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices([&]() -> SliceW {
           auto slice = sliceWithOneDevice(slice1, node1, pool1, driverA);
           // This makes the pool incomplete, one other slice is missing.
           slice.pool.resource_slice_count++;
           return slice;
         }());
         tc.node = node(node1, region1);
         tc.expectResults = {};
         tc.expectError =
             "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being "
             "updated";
       }},
      {"all-devices-plus-another",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil,
                                                         [&] {
                                                           DeviceRequest o;
                                                           o.name = req0;
                                                           o.exactly = [&] {
                                                             ExactDeviceRequest o;
                                                             o.allocation_mode = "All";
                                                             o.device_class_name = classA;
                                                             return o;
                                                           }();
                                                           return o;
                                                         }()),
                                       claimWithRequests(claim1, nil, [&] {
                                         DeviceRequest o;
                                         o.name = req0;
                                         o.exactly = [&] {
                                           ExactDeviceRequest o;
                                           o.allocation_mode = "ExactCount";
                                           o.count = 1;
                                           o.device_class_name = classB;
                                           return o;
                                         }();
                                         return o;
                                       }()));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA),
                                          sliceWithOneDevice(slice1, node1, pool1, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false))};
       }},
      {"all-devices-plus-another-reversed",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim1, nil,
                                                         [&] {
                                                           DeviceRequest o;
                                                           o.name = req0;
                                                           o.exactly = [&] {
                                                             ExactDeviceRequest o;
                                                             o.allocation_mode = "ExactCount";
                                                             o.count = 1;
                                                             o.device_class_name = classB;
                                                             return o;
                                                           }();
                                                           return o;
                                                         }()),
                                       claimWithRequests(claim0, nil, [&] {
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
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA),
                                          sliceWithOneDevice(slice1, node1, pool1, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"all-devices-many-plus-another",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil,
                                                         [&] {
                                                           DeviceRequest o;
                                                           o.name = req0;
                                                           o.exactly = [&] {
                                                             ExactDeviceRequest o;
                                                             o.allocation_mode = "All";
                                                             o.device_class_name = classA;
                                                             return o;
                                                           }();
                                                           return o;
                                                         }()),
                                       claimWithRequests(claim1, nil, [&] {
                                         DeviceRequest o;
                                         o.name = req0;
                                         o.exactly = [&] {
                                           ExactDeviceRequest o;
                                           o.allocation_mode = "ExactCount";
                                           o.count = 1;
                                           o.device_class_name = classB;
                                           return o;
                                         }();
                                         return o;
                                       }()));
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
             sliceWithOneDevice(slice1, node1, pool1, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false),
                              deviceAllocationResult(req0, driverA, pool1, device2, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false))};
       }},
      {"all-devices-many-plus-another-reversed",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequests(claim1, nil,
                                                         [&] {
                                                           DeviceRequest o;
                                                           o.name = req0;
                                                           o.exactly = [&] {
                                                             ExactDeviceRequest o;
                                                             o.allocation_mode = "ExactCount";
                                                             o.count = 1;
                                                             o.device_class_name = classB;
                                                             return o;
                                                           }();
                                                           return o;
                                                         }()),
                                       claimWithRequests(claim0, nil, [&] {
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
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
             sliceWithOneDevice(slice1, node1, pool1, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverB, pool1, device1, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false),
                              deviceAllocationResult(req0, driverA, pool1, device2, false))};
       }},
      {"all-devices-no-solution",
       [&](AllocatorCase& tc) {
         // One device, two claims both trying to allocate it.
         tc.claimsToAllocate = objects(claimWithRequests(claim1, nil,
                                                         [&] {
                                                           DeviceRequest o;
                                                           o.name = req0;
                                                           o.exactly = [&] {
                                                             ExactDeviceRequest o;
                                                             o.allocation_mode = "ExactCount";
                                                             o.count = 1;
                                                             o.device_class_name = classA;
                                                             return o;
                                                           }();
                                                           return o;
                                                         }()),
                                       claimWithRequests(claim0, nil, [&] {
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
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
       }},
      {"all-devices-no-solution-reversed",
       [&](AllocatorCase& tc) {
         // One device, two claims both trying to allocate it.
         tc.claimsToAllocate = objects(claimWithRequests(claim0, nil,
                                                         [&] {
                                                           DeviceRequest o;
                                                           o.name = req0;
                                                           o.exactly = [&] {
                                                             ExactDeviceRequest o;
                                                             o.allocation_mode = "All";
                                                             o.device_class_name = classA;
                                                             return o;
                                                           }();
                                                           return o;
                                                         }()),
                                       claimWithRequests(claim1, nil, [&] {
                                         DeviceRequest o;
                                         o.name = req0;
                                         o.exactly = [&] {
                                           ExactDeviceRequest o;
                                           o.allocation_mode = "ExactCount";
                                           o.count = 1;
                                           o.device_class_name = classA;
                                           return o;
                                         }();
                                         return o;
                                       }()));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
       }},
      {"all-devices-slice-without-devices",
       [&](AllocatorCase& tc) {
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
         tc.slices = unwrapResourceSlices(sliceWithNoDevices(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"all-devices-no-slices",
       [&](AllocatorCase& tc) {
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
         tc.slices = {};
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"all-devices-some-allocated",
       [&](AllocatorCase& tc) {
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
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"all-devices-some-allocated-admin-access",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequest(claim0, req0, classA);
           c.spec.requests[0].exactly->admin_access = true;
           c.spec.requests[0].exactly->allocation_mode = "All";
           return std::vector<ClaimW>{c};
         }();
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, true),
                                              deviceAllocationResult(req0, driverA, pool1, device2, true))};
       }},
      {"all-devices-some-allocating-admin-access",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequests(claim0, nil, request(req0, classA, 1), request(req1, classA, 1));
           c.spec.requests[0].exactly->admin_access = true;
           // Second request for `All` cannot be fulfilled because
           // the first request claims a device.
           c.spec.requests[1].exactly->admin_access = true;
           c.spec.requests[1].exactly->allocation_mode = "All";
           return std::vector<ClaimW>{c};
         }();
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {};
       }},
      {"count-devices-some-allocated-admin-access",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c = claimWithRequest(claim0, req0, classA);
           c.spec.requests[0].exactly->admin_access = true;
           c.spec.requests[0].exactly->allocation_mode = "ExactCount";
           c.spec.requests[0].exactly->count = 2;
           return std::vector<ClaimW>{c};
         }();
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0, driverA, pool1, device1, true),
                                              deviceAllocationResult(req0, driverA, pool1, device2, true))};
       }},
      {"separate-claims-share-device-admin-access",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto c1 = claimWithRequest(claim0, req0, classA);
           c1.spec.requests[0].exactly->admin_access = true;
           auto c2 = claimWithRequest(claim1, req0, classA);
           c2.spec.requests[0].exactly->admin_access = true;
           return std::vector<ClaimW>{c1, c2};
         }();
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))};
       }},
      {"admin-access-claims-device-allocating-for-non-admin-access",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true};
         tc.claimsToAllocate = [&]() -> std::vector<ClaimW> {
           auto admin = claimWithRequest(claim1, req0, classA);
           admin.spec.requests[0].exactly->admin_access = true;
           return std::vector<ClaimW>{claimWithRequest(claim0, req0, classA), admin};
         }();
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false)),
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, true))};
       }},
      {"all-devices-slice-without-devices-prioritized-list",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects([&]() -> ClaimW {
           auto claim_ = claim(claim0).withRequests(
               requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)));
           claim_.spec.requests[0].first_available[0].allocation_mode = "All";
           claim_.spec.requests[0].first_available[0].count = 0;
           return claim_;
         }());
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithNoDevices(slice1, node1, pool1, driverA),
                                          sliceWithOneDevice(slice2, node1, pool2, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false))};
       }},
      {"all-devices-no-slices-prioritized-list",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects([&]() -> ClaimW {
           auto claim_ = claim(claim0).withRequests(
               requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)));
           claim_.spec.requests[0].first_available[0].allocation_mode = "All";
           claim_.spec.requests[0].first_available[0].count = 0;
           return claim_;
         }());
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice2, node1, pool2, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false))};
       }},
      {"all-devices-some-allocated-prioritized-list",
       [&](AllocatorCase& tc) {
         tc.features = Features{.PrioritizedList = true};
         tc.claimsToAllocate = objects([&]() -> ClaimW {
           auto claim_ = claim(claim0).withRequests(
               requestWithPrioritizedList(req0, subRequest(subReq0, classA, 1), subRequest(subReq1, classB, 1)));
           claim_.spec.requests[0].first_available[0].allocation_mode = "All";
           claim_.spec.requests[0].first_available[0].count = 0;
           return claim_;
         }());
         tc.allocatedDevices = std::vector<DeviceId>{MakeDeviceID(driverA, pool1, device1)};
         tc.classes = objects(deviceClass(classA, driverA), deviceClass(classB, driverB));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil)),
             sliceWithOneDevice(slice2, node1, pool2, driverB));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(localNodeSelector(node1),
                                              deviceAllocationResult(req0SubReq1, driverB, pool2, device1, false))};
       }},
  };
}

class AllocatorAllDevicesTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorAllDevicesTest, Upstream) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorAllDevicesTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gpusched::dra_test

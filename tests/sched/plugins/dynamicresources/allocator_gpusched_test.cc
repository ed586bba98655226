// Allocate's behaviour beyond upstream's table: what gpusched decides where
// upstream draws at random or leaves to its variants (allocator.h,
// allocator_search.h ExperimentalVariant), in the table's style.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace gpusched::dra_test {
namespace {

std::vector<NamedAllocatorCase> Cases() {
  return {
      // Upstream draws a random UUID per share; gpusched the first id of a
      // fixed sequence that no allocated share of the device uses.
      {"share-ids-skip-allocated-shares",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity0, four}}, nil).withAllowMultipleAllocations()));
         tc.allocatedSharedDeviceIDs = {
             SharedDeviceId{MakeDeviceID(driverA, pool1, device1), "00000000-0000-4000-8000-000000000001"}};
         tc.allocatedCapacityDevices = {{MakeDeviceID(driverA, pool1, device1), CapMap{{capacity0, one}}}};
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             localNodeSelector(node1),
             deviceRequestAllocationResult(req0, driverA, pool1, device1)
                 .withConsumedCapacity("00000000-0000-4000-8000-000000000002", QMap{{capacity0, one}}))};
       },
       "", /*keep_share_ids=*/true},
      {"share-ids-of-one-allocation-differ",
       [&](AllocatorCase& tc) {
         tc.features = Features{.ConsumableCapacity = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 2).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(
             sliceWithDevices(slice1, node1, pool1, driverA,
                              device(device1, QMap{{capacity0, four}}, nil).withAllowMultipleAllocations()));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(
             localNodeSelector(node1),
             deviceRequestAllocationResult(req0, driverA, pool1, device1)
                 .withConsumedCapacity("00000000-0000-4000-8000-000000000001", QMap{{capacity0, one}}),
             deviceRequestAllocationResult(req0, driverA, pool1, device1)
                 .withConsumedCapacity("00000000-0000-4000-8000-000000000002", QMap{{capacity0, one}}))};
       },
       "", /*keep_share_ids=*/true},
      // v1.35's default gates pick upstream's "incubating" allocator, which
      // knows no distinctAttribute constraint...
      {"incubating-distinct-attribute-is-unknown",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true, .PrioritizedList = true};
         tc.claimsToAllocate = objects(claim(claim0)
                                           .withConstraints([&] {
                                             DeviceConstraint o;
                                             o.distinct_attribute = intAttribute;
                                             return o;
                                           }())
                                           .withRequests(deviceRequest(req0, classA, 1)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectError = "claim claim-0, constraint #0: empty constraint (unsupported constraint type?)";
       }},
      // ... and does not look at capacity requests.
      {"incubating-ignores-capacity-requests",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true, .PrioritizedList = true};
         tc.claimsToAllocate =
             objects(claim(claim0).withRequests(deviceRequest(req0, classA, 1).withCapacityRequest(one)));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithOneDevice(slice1, node1, pool1, driverA));
         tc.node = node(node1, region1);
         tc.expectResults = {
             allocationResult(localNodeSelector(node1), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"incubating-ignores-binds-to-node",
       [&](AllocatorCase& tc) {
         tc.features = Features{.AdminAccess = true, .PrioritizedList = true};
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.classes = objects(deviceClass(classA, driverA));
         tc.slices = unwrapResourceSlices(sliceWithDevices(slice1, nodeSelectionAll, pool1, driverA,
                                                           device(device1, nil, nil).withBindsToNode(true)));
         tc.node = node(node1, region1);
         tc.expectResults = {allocationResult(NodeSel(), deviceAllocationResult(req0, driverA, pool1, device1, false))};
       }},
      {"missing-class-text",
       [&](AllocatorCase& tc) {
         tc.claimsToAllocate = objects(claimWithRequest(claim0, req0, classA));
         tc.node = node(node1, region1);
         tc.expectError =
             "claim claim-0, request req-0: could not retrieve device class class-a: deviceclass.resource.k8s.io "
             "\"class-a\" not found";
       }},
      {"namespaced-claim-named-with-namespace",
       [&](AllocatorCase& tc) {
         ClaimW c = claimWithRequest(claim0, req0, "");
         c.meta.namespace_ = "team-a";
         tc.claimsToAllocate = {c};
         tc.node = node(node1, region1);
         tc.expectError = "claim team-a/claim-0, request req-0: missing device class name (unsupported request type?)";
       }},
  };
}

class AllocatorGpuschedTest : public ::testing::TestWithParam<NamedAllocatorCase> {};

TEST_P(AllocatorGpuschedTest, Case) { RunAllocatorCase(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Allocator, AllocatorGpuschedTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<NamedAllocatorCase>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Invalid pools and nothing else: an error about this node only.
TEST(AllocatorGpuschedErrorsTest, InvalidPoolsAreAFailureOnTheNodeOnly) {
  const DeviceClass cls = deviceClass(classA, driverA);
  const ResourceSlice s1 = sliceWithDevices(slice1, node1, resourcePool(pool1, 2), driverA, device(device1, nil, nil));
  const ResourceSlice s2 = sliceWithDevices(slice2, node1, resourcePool(pool1, 2), driverA, device(device1, nil, nil));
  const ResourceClaim c = claimWithRequest(claim0, req0, classA);
  cel::SelectorCache cache;
  AllocatedState state;
  Allocator allocator(
      Features{}.ToDra(), &state, [&](const std::string& name) { return name == classA ? &cls : nullptr; }, {&s1, &s2},
      &cache);
  auto result = allocator.Allocate(node(node1, region1), {&c});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "invalid resource pools were encountered");
  EXPECT_TRUE(IsFailedAllocationOnNode(result.status()));

  // Any other error aborts the scheduling attempt.
  const ResourceClaim unknown = claimWithRequest(claim0, req0, classB);
  auto aborted = allocator.Allocate(node(node1, region1), {&unknown});
  ASSERT_FALSE(aborted.ok());
  EXPECT_FALSE(IsFailedAllocationOnNode(aborted.status()));
}

// Upstream's "interrupt" test's claim (6 devices of 5: every order of the
// 5 is tried): without a limit it runs to "no allocation"; a step limit
// stops it with a node-only error, as upstream's deadline does.
TEST(AllocatorGpuschedErrorsTest, StepLimitStopsTheSearch) {
  const DeviceClass cls = deviceClass(classA, driverA);
  const ResourceSlice s =
      sliceWithDevices(slice1, node1, pool1, driverA, device(device1, nil, nil), device(device2, nil, nil),
                       device(device3, nil, nil), device(device4, nil, nil), device("device-5", nil, nil));
  const ResourceClaim c = claimWithRequests(claim0, nil, request(req0, classA, 6));
  cel::SelectorCache cache;
  auto lookup = [&](const std::string& name) { return name == classA ? &cls : nullptr; };

  Allocator unlimited(Features{}.ToDra(), nullptr, lookup, {&s}, &cache);
  auto done = unlimited.Allocate(node(node1, region1), {&c});
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_FALSE(done->has_value());
  // 1 + 5 + 5*4 + 5*4*3 + 5*4*3*2 + 5! steps: every partial order of the 5 devices.
  EXPECT_EQ(unlimited.NumAllocateOneInvocations(), 1 + 5 + 20 + 60 + 120 + 120);

  Allocator limited(Features{}.ToDra(), nullptr, lookup, {&s}, &cache);
  limited.SetStepLimit(100);
  auto stopped = limited.Allocate(node(node1, region1), {&c});
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.status().message(), "filter operation aborted: more than 100 allocation steps");
  EXPECT_TRUE(IsFailedAllocationOnNode(stopped.status()));
  EXPECT_EQ(limited.NumAllocateOneInvocations(), 101);
}

}  // namespace
}  // namespace gpusched::dra_test

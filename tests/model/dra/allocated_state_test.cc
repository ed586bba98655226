// AddAllocatedDevices / RemoveAllocatedDevices (allocated_state.h).
#include "gpusched/model/dra/allocated_state.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

DeviceRequestAllocationResult Result(const std::string& device, bool admin = false, const std::string& share = "",
                                     const char* consumed = nullptr) {
  DeviceRequestAllocationResult r;
  r.request = "req";
  r.driver = "d";
  r.pool = "p";
  r.device = device;
  if (admin) r.admin_access = true;
  r.share_id = share;
  if (consumed) r.consumed_capacity["mem"] = *Quantity::Parse(consumed);
  return r;
}

TEST(AllocatedStateTest, AdminAccessHoldsNothingAndSharesAreNotExclusive) {
  AllocationResult a;
  a.results = {Result("exclusive"), Result("admin", true), Result("shared", false, "s1", "2"),
               Result("shared", false, "s2", "1")};
  struct Case {
    const char* name;
    bool consumable_capacity;
    std::set<DeviceId> devices;
    std::set<SharedDeviceId> shares;
    int64_t shared_mem_milli;  // -1: no aggregated capacity
  };
  const Case cases[] = {
      {"with DRAConsumableCapacity", true, {{"d", "p", "exclusive"}},
       {{{"d", "p", "shared"}, "s1"}, {{"d", "p", "shared"}, "s2"}}, 3000},
      {"without: share ids ignored", false, {{"d", "p", "exclusive"}, {"d", "p", "shared"}}, {}, -1},
  };
  for (const Case& c : cases) {
    AllocatedState state;
    AddAllocatedDevices(a, c.consumable_capacity, state);
    EXPECT_EQ(state.allocated_devices, c.devices) << c.name;
    EXPECT_EQ(state.allocated_shared_devices, c.shares) << c.name;
    const DeviceId shared{"d", "p", "shared"};
    if (c.shared_mem_milli < 0) {
      EXPECT_FALSE(state.aggregated_capacity.contains(shared)) << c.name;
    } else {
      ASSERT_TRUE(state.aggregated_capacity.contains(shared)) << c.name;
      EXPECT_EQ(state.aggregated_capacity.at(shared).at("mem").MilliValue(), c.shared_mem_milli) << c.name;
    }
    RemoveAllocatedDevices(a, c.consumable_capacity, state);
    EXPECT_TRUE(state.allocated_devices.empty()) << c.name;
    EXPECT_TRUE(state.allocated_shared_devices.empty()) << c.name;
    EXPECT_TRUE(state.aggregated_capacity.empty()) << c.name;
  }
}

}  // namespace
}  // namespace gpusched

// Consumable capacity arithmetic, after upstream's TestConsumableCapacity
// (v1.35's staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/consumable_capacity_test.go):
// its subtests and tables with their names, plus CmpRequestOverCapacity.
#include "gpusched/sched/plugins/dynamicresources/consumable_capacity.h"

#include <gtest/gtest.h>

namespace gpusched::dra {
namespace {

Quantity Q(const char* text) { return *Quantity::Parse(text); }

CapacityRequestPolicy RangePolicy(const char* def, const char* min, const char* max = nullptr,
                                  const char* step = nullptr) {
  CapacityRequestPolicy p;
  p.default_value = Q(def);
  CapacityRequestPolicy::Range r;
  r.min = Q(min);
  if (max) r.max = Q(max);
  if (step) r.step = Q(step);
  p.valid_range = r;
  return p;
}

CapacityRequestPolicy ValuesPolicy(const char* def, std::vector<const char*> values) {
  CapacityRequestPolicy p;
  p.default_value = Q(def);
  for (const char* v : values) p.valid_values.push_back(Q(v));
  return p;
}

TEST(ConsumableCapacityTest, AddSubAllocatingConsumedCapacity) {
  ConsumedCapacity allocated;
  EXPECT_TRUE(CapacityEmpty(allocated));
  const ConsumedCapacity one{{"capacity-0", Q("1")}};
  AddCapacity(allocated, one);
  EXPECT_FALSE(CapacityEmpty(allocated));
  SubCapacity(allocated, one);
  EXPECT_TRUE(CapacityEmpty(allocated));
  EXPECT_EQ(allocated.at("capacity-0"), Q("0"));
}

TEST(ConsumableCapacityTest, GetConsumedCapacityFromRequest) {
  const CapacityRequests requests{{"capacity-0", Q("1")}, {"dummy", Q("1")}};
  DeviceCapacities capacity;
  capacity["capacity-0"] = DeviceCapacity{Q("2"), RangePolicy("2", "1")};  // requested: the request
  capacity["capacity-1"] = DeviceCapacity{Q("2"), RangePolicy("1", "1")};  // not requested: the default
  capacity["dummy"] = DeviceCapacity{Q("1"), std::nullopt};                // no policy: the value
  const ConsumedCapacity consumed = GetConsumedCapacityFromRequest(requests, capacity);
  EXPECT_EQ(consumed, (ConsumedCapacity{{"capacity-0", Q("1")}, {"capacity-1", Q("1")}, {"dummy", Q("1")}}));
}

TEST(ConsumableCapacityTest, ViolateCapacitySharing) {
  struct Case {
    const char* name;
    const char* requested;
    std::optional<CapacityRequestPolicy> policy;
    bool violates;
  };
  const Case cases[] = {
      {"no constraint", "1", std::nullopt, false},
      {"less than maximum", "1", RangePolicy("1", "1", "2"), false},
      {"more than maximum", "2", RangePolicy("1", "1", "1"), true},
      {"in set", "1", ValuesPolicy("1", {"1"}), false},
      {"not in set", "2", ValuesPolicy("1", {"1"}), true},
      // Beyond upstream's table: off the range's steps; the default is always allowed.
      {"off step", "2", RangePolicy("1", "1", "9", "2"), true},
      {"on step", "3", RangePolicy("1", "1", "9", "2"), false},
      {"default outside the values", "5", ValuesPolicy("5", {}), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ViolatesPolicy(Q(c.requested), c.policy), c.violates) << c.name;
  }
}

TEST(ConsumableCapacityTest, CalculateConsumedCapacity) {
  struct Case {
    const char* name;
    const char* requested;  // nullptr: no request
    const char* value;
    CapacityRequestPolicy policy;
    const char* want;
  };
  const Case cases[] = {
      {"empty", nullptr, "1", CapacityRequestPolicy{}, "1"},
      {"min in range", nullptr, "2", RangePolicy("1", "1"), "1"},
      {"default in set", nullptr, "2", ValuesPolicy("1", {"1"}), "1"},
      {"more than min in range", "2", "2", RangePolicy("1", "1"), "2"},
      {"less than min in range", "1", "2", RangePolicy("1", "2"), "2"},
      {"with step (round up)", "2", "3", RangePolicy("1", "1", nullptr, "2"), "3"},
      {"with step (no remaining)", "2", "2", RangePolicy("1", "1", nullptr, "1"), "2"},
      {"valid value in set", "2", "3", ValuesPolicy("1", {"1", "2", "3"}), "2"},
      {"set (round up)", "2", "3", ValuesPolicy("1", {"1", "3"}), "3"},
      {"larger than set", "3", "3", ValuesPolicy("1", {"1", "2"}), "3"},
  };
  for (const Case& c : cases) {
    const DeviceCapacity capacity{Q(c.value), c.policy};
    std::optional<Quantity> requested;
    if (c.requested) requested = Q(c.requested);
    EXPECT_EQ(CalculateConsumedCapacity(requested ? &*requested : nullptr, capacity), Q(c.want)) << c.name;
  }
}

TEST(ConsumableCapacityTest, CmpRequestOverCapacity) {
  DeviceCapacities capacity;
  capacity["capacity-0"] = DeviceCapacity{Q("4"), RangePolicy("2", "2", "4", "2")};
  struct Case {
    const char* name;
    ConsumedCapacity consumed;
    CapacityRequests requests;
    ConsumedCapacity allocating;
    bool ok;  // no error
    bool fits;
  };
  const Case cases[] = {
      {"default fits", {}, {}, {}, true, true},
      {"request fits", {}, {{"capacity-0", Q("4")}}, {}, true, true},
      {"request rounded up past the max violates the policy", {}, {{"capacity-0", Q("5")}}, {}, true, false},
      {"consumed before and now exceed the value", {{"capacity-0", Q("2")}}, {{"capacity-0", Q("4")}}, {}, true, false},
      {"consumed before and allocating fill it exactly", {{"capacity-0", Q("1")}}, {}, {{"capacity-0", Q("1")}}, true,
       true},
      {"allocating now exceeds it", {}, {}, {{"capacity-0", Q("3")}}, true, false},
      {"unknown capacity", {}, {{"bandwidth", Q("1")}}, {}, false, false},
  };
  for (const Case& c : cases) {
    Result<bool> r = CmpRequestOverCapacity(c.consumed, c.requests, capacity, c.allocating);
    ASSERT_EQ(r.ok(), c.ok) << c.name;
    if (!r.ok()) {
      EXPECT_EQ(r.status().message(), "some requested capacity has not been defined") << c.name;
      continue;
    }
    EXPECT_EQ(*r, c.fits) << c.name;
  }
}

}  // namespace
}  // namespace gpusched::dra

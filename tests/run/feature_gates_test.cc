// Tests for src/run/feature_gates.cc: the gates each command reads, their
// v1.35 defaults and the errors for any other entry (moved here from
// tests/sched/framework/gang_serving_test.cc with the parser).
#include "gpusched/run/feature_gates.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

// "gang=G workload=W pop=P hints=H", or the error (kind: message).
std::string Describe(const RunResult<FeatureGates>& g) {
  if (!g.ok())
    return std::string(g.error().kind == RunError::Kind::kUnknownName ? "unknown: " : "invalid: ") +
           g.error().Message();
  return "gang=" + std::to_string(g->gang.gang_scheduling) + " workload=" + std::to_string(g->gang.generic_workload) +
         " pop=" + std::to_string(g->pop_from_backoff_q) + " hints=" + std::to_string(g->queueing_hints);
}

TEST(FeatureGatesTest, Schedule) {
  struct Case {
    std::string text, want;
  };
  const std::string reads =
      " (schedule reads GangScheduling=true|false and GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)";
  const Case cases[] = {
      {"", "gang=0 workload=0 pop=1 hints=1"},
      {"GangScheduling=true", "gang=1 workload=0 pop=1 hints=1"},
      {"GangScheduling=true,GenericWorkload=true", "gang=1 workload=1 pop=1 hints=1"},
      {"GangScheduling=true,GangScheduling=false", "gang=0 workload=0 pop=1 hints=1"},
      {",GangScheduling=true,,", "gang=1 workload=0 pop=1 hints=1"},
      {"GangScheduling=yes", "invalid: unsupported feature gates entry \"GangScheduling=yes\"" + reads},
      {"GangScheduling", "invalid: unsupported feature gates entry \"GangScheduling\"" + reads},
      // schedule has no queue: the queue's gates would change nothing.
      {"SchedulerPopFromBackoffQ=false",
       "unknown: unsupported feature gates entry \"SchedulerPopFromBackoffQ=false\"" + reads},
      {"Foo=true", "unknown: unsupported feature gates entry \"Foo=true\"" + reads},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Describe(ParseFeatureGates(c.text, Command::kSchedule)), c.want) << c.text;
    EXPECT_EQ(Describe(ParseFeatureGates(c.text, Command::kExplain)), c.want) << c.text;
  }
}

// The DRA gates reach DynamicResources (config/dra_features.h); gates
// gpusched does not model are refused (DRAExtendedResource).
TEST(FeatureGatesTest, Dra) {
  for (Command c : {Command::kSchedule, Command::kExplain, Command::kSimulate}) {
    RunResult<FeatureGates> g = ParseFeatureGates(
        "DRAPartitionableDevices=true,DRAPrioritizedList=false,DRADeviceTaints=true,DRAConsumableCapacity=true,"
        "DRAAdminAccess=false,DRADeviceBindingConditions=true",
        c);
    ASSERT_TRUE(g.ok());
    EXPECT_TRUE(g->dra.partitionable_devices);
    EXPECT_FALSE(g->dra.prioritized_list);
    EXPECT_TRUE(g->dra.device_taints);
    EXPECT_TRUE(g->dra.consumable_capacity);
    EXPECT_FALSE(g->dra.admin_access);
    EXPECT_TRUE(g->dra.device_binding_conditions);
    RunResult<FeatureGates> defaults = ParseFeatureGates("", c);
    ASSERT_TRUE(defaults.ok());
    EXPECT_TRUE(defaults->dra.admin_access);
    EXPECT_TRUE(defaults->dra.prioritized_list);
    EXPECT_FALSE(defaults->dra.partitionable_devices);
  }
  EXPECT_EQ(Describe(ParseFeatureGates("DRAExtendedResource=true", Command::kSchedule)),
            "unknown: unsupported feature gates entry \"DRAExtendedResource=true\" (schedule reads "
            "GangScheduling=true|false and GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)");
}

TEST(FeatureGatesTest, Simulate) {
  struct Case {
    std::string text, want;
  };
  const std::string reads =
      " (gpusched simulates only SchedulerPopFromBackoffQ=true|false and SchedulerQueueingHints=true|false), and "
      "reads GangScheduling=true|false and GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA";
  const Case cases[] = {
      {"", "gang=0 workload=0 pop=1 hints=1"},
      {"SchedulerPopFromBackoffQ=false", "gang=0 workload=0 pop=0 hints=1"},
      {"SchedulerQueueingHints=false,GangScheduling=true", "gang=1 workload=0 pop=1 hints=0"},
      {"SchedulerPopFromBackoffQ=true,SchedulerQueueingHints=true", "gang=0 workload=0 pop=1 hints=1"},
      {"Foo=true", "unknown: unsupported feature gates entry \"Foo=true\"" + reads},
      {"SchedulerPopFromBackoffQ=0", "invalid: unsupported feature gates entry \"SchedulerPopFromBackoffQ=0\"" + reads},
      {"GangScheduling=yes", "invalid: unsupported feature gates entry \"GangScheduling=yes\"" + reads},
  };
  for (const Case& c : cases) EXPECT_EQ(Describe(ParseFeatureGates(c.text, Command::kSimulate)), c.want) << c.text;
}

TEST(FeatureGatesTest, ServeReadsNone) {
  EXPECT_TRUE(ParseFeatureGates("", Command::kServe).ok());
  EXPECT_FALSE(ParseFeatureGates("GangScheduling=true", Command::kServe).ok());
  EXPECT_TRUE(GateDefaults(Command::kServe).empty());
}

TEST(FeatureGatesTest, Defaults) {
  EXPECT_EQ(GateDefaults(Command::kSchedule).Render(), "GangScheduling=false, GenericWorkload=false, DRAAdminAccess=true, DRAConsumableCapacity=false, DRADeviceBindingConditions=false, DRADeviceTaints=false, DRAPartitionableDevices=false, DRAPrioritizedList=true");
  EXPECT_EQ(GateDefaults(Command::kSimulate).Render(),
            "GangScheduling=false, GenericWorkload=false, SchedulerPopFromBackoffQ=true, SchedulerQueueingHints=true, "
            "DRAAdminAccess=true, DRAConsumableCapacity=false, DRADeviceBindingConditions=false, DRADeviceTaints=false, DRAPartitionableDevices=false, DRAPrioritizedList=true");
}

}  // namespace
}  // namespace gpusched

// Tests for src/run/defaults.cc: each command's defaults, and the table that
// documents them saying what the functions do.
#include "gpusched/run/defaults.h"

#include <gtest/gtest.h>

#include "gpusched/run/feature_gates.h"

namespace gpusched {
namespace {

TEST(DefaultsTest, PolicyAndOrder) {
  struct Case {
    Command command;
    bool with_config;
    std::string policy;
    QueueOrder order;
  };
  const Case cases[] = {
      {Command::kSchedule, false, "first-fit", QueueOrder::kFifo},
      {Command::kSchedule, true, "kube-default", QueueOrder::kPriority},
      {Command::kExplain, false, "first-fit", QueueOrder::kFifo},
      {Command::kExplain, true, "kube-default", QueueOrder::kPriority},
      {Command::kServe, false, "first-fit", QueueOrder::kFifo},
      {Command::kServe, true, "kube-default", QueueOrder::kPriority},
      {Command::kSimulate, false, "kube-default", QueueOrder::kPriority},
      {Command::kSimulate, true, "kube-default", QueueOrder::kPriority},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(static_cast<int>(c.command) * 2 + c.with_config);
    EXPECT_EQ(DefaultPolicy(c.command, c.with_config), c.policy);
    EXPECT_EQ(DefaultOrder(c.command, DefaultPolicy(c.command, c.with_config)), c.order);
  }
  // simulate's order does not follow the policy.
  EXPECT_EQ(DefaultOrder(Command::kSimulate, "first-fit"), QueueOrder::kPriority);
  EXPECT_EQ(DefaultOrder(Command::kSchedule, "best-fit"), QueueOrder::kFifo);
  EXPECT_EQ(kDefaultSeed, 1u);
  EXPECT_EQ(kDefaultPreemptGangs, PreemptGangs::kUpstream);
}

TEST(DefaultsTest, TheTableSaysWhatTheFunctionsDo) {
  struct Case {
    Setting setting;
    Command command;
    std::string text;
  };
  const Case cases[] = {
      {Setting::kPolicy, Command::kSchedule, "kube-default with configuration, else first-fit"},
      {Setting::kPolicy, Command::kExplain, "kube-default with configuration, else first-fit"},
      {Setting::kPolicy, Command::kServe, "kube-default with configuration, else first-fit"},
      {Setting::kPolicy, Command::kSimulate, "kube-default"},
      {Setting::kOrder, Command::kSchedule, "priority with kube-default, else fifo"},
      {Setting::kOrder, Command::kSimulate, "priority"},
      {Setting::kOrder, Command::kServe, ""},
      {Setting::kSeed, Command::kSchedule, "1"},
      {Setting::kSeed, Command::kServe, "1"},
      {Setting::kSeed, Command::kSimulate,
       "1; a SyntheticWorkload spec's own seed generates its workload unless seed is given"},
      {Setting::kConfig, Command::kSchedule,
       "kube-scheduler's default configuration: one profile, default-scheduler, with the default plugins"},
      {Setting::kConfig, Command::kSimulate,
       "kube-scheduler's default configuration: one profile, default-scheduler, with the default plugins"},
      {Setting::kFeatureGates, Command::kSchedule, "GangScheduling=false, GenericWorkload=false, DRAAdminAccess=true, DRAConsumableCapacity=false, DRADeviceBindingConditions=false, DRADeviceTaints=false, DRAPartitionableDevices=false, DRAPrioritizedList=true"},
      {Setting::kFeatureGates, Command::kSimulate,
       "GangScheduling=false, GenericWorkload=false, SchedulerPopFromBackoffQ=true, SchedulerQueueingHints=true, "
       "DRAAdminAccess=true, DRAConsumableCapacity=false, DRADeviceBindingConditions=false, DRADeviceTaints=false, DRAPartitionableDevices=false, DRAPrioritizedList=true"},
      {Setting::kFeatureGates, Command::kServe, ""},
      {Setting::kSchedulerName, Command::kSchedule, "none"},
      {Setting::kSchedulerName, Command::kServe, ""},
      {Setting::kPreemptGangs, Command::kSchedule, "upstream"},
      {Setting::kPreemptGangs, Command::kSimulate, "upstream"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ConceptName(c.setting));
    EXPECT_EQ(DefaultText(c.setting, c.command).Render(), c.text);
  }
  // Every setting has its row, once, and a reason wherever the commands
  // that take it differ.
  ASSERT_EQ(DefaultsTable().size(), 7u);
  for (const DefaultRow& row : DefaultsTable()) {
    SCOPED_TRACE(ConceptName(row.setting));
    const bool differ = row.schedule != row.simulate || (!row.serve.empty() && row.serve != row.schedule);
    EXPECT_EQ(differ, !row.why.empty());
  }
  EXPECT_EQ(DefaultText(Setting::kFeatureGates, Command::kSimulate), GateDefaults(Command::kSimulate));
}

}  // namespace
}  // namespace gpusched

// Tests for src/cli/run_flags.cc: the settings as flags — their names, the
// run layer's errors rendered with them (the texts the engine printed before
// the run layer named concepts), the help's defaults and the README's table.
#include "gpusched/cli/run_flags.h"

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpusched/cli/cli.h"
#include "gpusched/run/feature_gates.h"
#include "gpusched/run/scheduler_names.h"

namespace gpusched {
namespace {

TEST(RunFlagsTest, FlagNames) {
  const std::pair<Setting, std::string> cases[] = {
      {Setting::kPolicy, "--policy"},           {Setting::kOrder, "--order"},
      {Setting::kSeed, "--seed"},               {Setting::kConfig, "--config"},
      {Setting::kFeatureGates, "--feature-gates"}, {Setting::kSchedulerName, "--scheduler-name"},
      {Setting::kPreemptGangs, "--preempt-gangs"},
  };
  for (const auto& [setting, flag] : cases) EXPECT_EQ(FlagName(setting), flag);
}

std::string Printed(const RunError& e) {
  std::ostringstream err;
  EXPECT_EQ(PrintRunError(err, e), kExitUsage);
  return err.str();
}

TEST(RunFlagsTest, ErrorsNameTheFlags) {
  KubeSchedulerConfiguration gang_config = DefaultSchedulerConfiguration();
  gang_config.profiles[0].plugins.multi_point.enabled.push_back({"GangScheduling", 0});
  SetDefaults(gang_config);
  auto names = [](std::vector<std::string> v) { return ParseSchedulerNames(v, DefaultSchedulerConfiguration()).error(); };
  auto settings = [](RunOptions o, Command c = Command::kSchedule) { return ResolveSettings(o, c, nullptr).error(); };
  struct Case {
    RunError error;
    std::string printed;
  };
  const Case cases[] = {
      {names({"kai-scheduler"}),
       "error: invalid --scheduler-name \"kai-scheduler\": expected NAME=POLICY, e.g. kai-scheduler=best-fit\n"},
      {names({"=best-fit"}), "error: invalid --scheduler-name \"=best-fit\": the scheduler name before \"=\" is empty\n"},
      {names({"kai-scheduler=bestfit"}),
       "error: invalid --scheduler-name \"kai-scheduler=bestfit\": unknown policy \"bestfit\" (did you mean "
       "best-fit? known: first-fit, "
       "best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {names({"kai-scheduler=best-fit", "kai-scheduler=first-fit"}),
       "error: --scheduler-name kai-scheduler is given twice\n"},
      {names({"default-scheduler=best-fit"}),
       "error: --scheduler-name default-scheduler=best-fit: \"default-scheduler\" is already served by --policy (or "
       "the --config profile of that name)\n"},
      {ParseFeatureGates("GangScheduling=yes", Command::kSchedule).error(),
       "error: unsupported --feature-gates entry \"GangScheduling=yes\" (schedule reads GangScheduling=true|false and "
       "GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)\n"},
      {settings({.policy = "magic"}),
       "error: unknown --policy \"magic\" (known: first-fit, best-fit, worst-fit, kube-default, fgd, random, "
       "dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {settings({.order = "lifo"}),
       "error: unknown --order \"lifo\" (did you mean fifo? known: priority, fifo, largest-first, smallest-first)\n"},
      {settings({.preempt_gangs = "all"}), "error: unknown --preempt-gangs \"all\" (known: upstream, whole)\n"},
      {settings({.config = std::string(GPUSCHED_SOURCE_DIR) + "/examples/gang/config/gang-scheduling.yaml"}),
       "error: profile \"default-scheduler\" enables GangScheduling, alpha in v1.35 and off by default: add "
       "--feature-gates GangScheduling=true\n"},
  };
  for (const Case& c : cases) EXPECT_EQ(Printed(c.error), c.printed);
}

TEST(RunFlagsTest, FlagsFillTheOptionsAndShowTheDefaults) {
  CLI::App app;
  RunOptions o;
  AddSettingFlags(&app, o, Command::kSimulate,
                  {Setting::kPolicy, Setting::kOrder, Setting::kSeed, Setting::kSchedulerName});
  app.parse(std::vector<std::string>{"a=best-fit", "--scheduler-name", "7", "--seed", "lifo", "--order", "x,y",
                                     "--policy"});  // reversed, as CLI11 parses
  EXPECT_EQ(o.policy, "x,y");
  EXPECT_EQ(o.order, "lifo");
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.scheduler_names, std::vector<std::string>{"a=best-fit"});
  const std::string help = app.help();
  EXPECT_NE(help.find("(default: kube-default)"), std::string::npos) << help;
  EXPECT_NE(help.find("(default: priority)"), std::string::npos) << help;
  EXPECT_NE(help.find("(default: 1; a SyntheticWorkload spec's own seed generates its workload unless --seed is "
                      "given)"),
            std::string::npos)
      << help;

  CLI::App unset;
  RunOptions none;
  AddSettingFlags(&unset, none, Command::kSchedule, {Setting::kSeed, Setting::kPolicy});
  unset.parse(std::vector<std::string>{});
  EXPECT_EQ(none.seed, std::nullopt);
  EXPECT_NE(unset.help().find("(default: kube-default with --config, else first-fit)"), std::string::npos);
}

TEST(RunFlagsTest, TheReadmeShowsTheDefaultsTable) {
  std::ifstream f(std::string(GPUSCHED_SOURCE_DIR) + "/README.md");
  std::stringstream readme;
  readme << f.rdbuf();
  const std::string table = DefaultsMarkdown();
  EXPECT_EQ(table.substr(0, table.find('\n')),
            "| Setting | Flag | `schedule`, `explain` | `simulate` | `serve` | Why the commands differ |");
  EXPECT_NE(readme.str().find("\n" + table), std::string::npos) << "README.md should hold:\n" << table;
}

}  // namespace
}  // namespace gpusched

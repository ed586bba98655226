// Tests for src/run/run_settings.cc: every command's settings resolved from
// what the user gave, the defaults where nothing was, and each typed error
// with its exact message.
#include "gpusched/run/run_settings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpusched/sched/framework/gang_batch.h"

namespace gpusched {
namespace {

const std::string kExamples = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

// The resolved settings in one line, or the error.
std::string Describe(const RunResult<RunSettings>& r) {
  if (!r.ok()) return "error: " + r.error().Message();
  std::string gangs;
  for (const auto& [name, e] : r->gang_serving) gangs += (gangs.empty() ? "" : ",") + name + ":" + e.enforcer;
  std::string extra;
  for (const ExtraProfile& e : r->extra) extra += (extra.empty() ? "" : ",") + e.scheduler_name + "=" + e.policy;
  return "policies=" + Join(r->policies) + " order=" + QueueOrderName(r->order) +
         " preempt=" + std::string(PreemptGangsName(r->preempt_gangs)) +
         " gates=" + std::to_string(r->gates.gang.gang_scheduling) + std::to_string(r->gates.pop_from_backoff_q) +
         " profiles=" + std::to_string(r->config.profiles.size()) + " extra=" + extra + " gangs=" + gangs +
         " seed=" + std::to_string(r->seed) + (r->seed_given ? " given" : "");
}

TEST(RunSettingsTest, Resolve) {
  const std::string config = kExamples + "config/default.yaml";
  const std::string gang_config = kExamples + "gang/config/gang-scheduling.yaml";
  struct Case {
    const char* name;
    Command command;
    RunOptions options;
    std::string want;
  };
  const Case cases[] = {
      {"schedule defaults", Command::kSchedule, {},
       "policies=first-fit order=fifo preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"explain defaults", Command::kExplain, {},
       "policies=first-fit order=fifo preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"serve defaults", Command::kServe, {},
       "policies=first-fit order=fifo preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"simulate defaults", Command::kSimulate, {},
       "policies=kube-default order=priority preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"a configuration makes kube-default the policy", Command::kSchedule, {.config = config},
       "policies=kube-default order=priority preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"the order follows the policy", Command::kSchedule, {.policy = "kube-default"},
       "policies=kube-default order=priority preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"simulate's does not", Command::kSimulate, {.policy = "best-fit"},
       "policies=best-fit order=priority preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"simulate compares several", Command::kSimulate, {.policy = "fgd,,best-fit,"},
       "policies=fgd,best-fit order=priority preempt=upstream gates=01 profiles=1 extra= gangs= seed=1"},
      {"everything given", Command::kSimulate,
       {.policy = "first-fit",
        .order = "largest-first",
        .preempt_gangs = "whole",
        .feature_gates = "SchedulerPopFromBackoffQ=false",
        .scheduler_names = {"volcano=best-fit", "mine=first-fit"},
        .seed = 7},
       "policies=first-fit order=largest-first preempt=whole gates=00 profiles=1 extra=volcano=best-fit,mine=first-fit "
       "gangs=volcano:Volcano seed=7 given"},
      {"a gated profile with its gate", Command::kSchedule,
       {.feature_gates = "GangScheduling=true", .config = gang_config},
       "policies=kube-default order=priority preempt=upstream gates=11 profiles=1 extra= gangs=default-scheduler:"
       "GangScheduling seed=1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> warnings;
    EXPECT_EQ(Describe(ResolveSettings(c.options, c.command, &warnings)), c.want);
    EXPECT_TRUE(warnings.empty());
  }
}

TEST(RunSettingsTest, Errors) {
  const std::string known =
      "first-fit, best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, "
      "paper-best-fit";
  struct Case {
    const char* name;
    Command command;
    RunOptions options;
    RunError::Kind kind;
    Setting setting;
    std::string message;
  };
  const Case cases[] = {
      {"unknown policy", Command::kSchedule, {.policy = "bestfit"}, RunError::Kind::kUnknownName, Setting::kPolicy,
       "unknown policy \"bestfit\" (did you mean best-fit? known: " + known + ")"},
      {"one of several", Command::kSimulate, {.policy = "fgd,magic"}, RunError::Kind::kUnknownName, Setting::kPolicy,
       "unknown policy \"magic\" (known: " + known + ")"},
      {"a list is one name outside simulate", Command::kServe, {.policy = "fgd,best-fit"},
       RunError::Kind::kUnknownName, Setting::kPolicy, "unknown policy \"fgd,best-fit\" (known: " + known + ")"},
      {"unknown order", Command::kSimulate, {.order = "lifo"}, RunError::Kind::kUnknownName, Setting::kOrder,
       "unknown queue order \"lifo\" (did you mean fifo? known: priority, fifo, largest-first, smallest-first)"},
      {"unknown gang preemption", Command::kSchedule, {.preempt_gangs = "all"}, RunError::Kind::kUnknownName,
       Setting::kPreemptGangs, "unknown gang preemption \"all\" (known: upstream, whole)"},
      {"unknown gate", Command::kSchedule, {.feature_gates = "Foo=true"}, RunError::Kind::kUnknownName,
       Setting::kFeatureGates,
       "unsupported feature gates entry \"Foo=true\" (schedule reads GangScheduling=true|false and "
       "GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)"},
      {"a gate one letter off", Command::kSchedule, {.feature_gates = "GangSchedulng=true"},
       RunError::Kind::kUnknownName, Setting::kFeatureGates,
       "unsupported feature gates entry \"GangSchedulng=true\" (did you mean GangScheduling=true? schedule reads "
       "GangScheduling=true|false and GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)"},
      {"missing configuration", Command::kSchedule, {.config = "/nonexistent/c.yaml"},
       RunError::Kind::kConfigInvalid, Setting::kConfig,
       "the path \"/nonexistent/c.yaml\" does not exist; configuration takes a KubeSchedulerConfiguration file"},
      {"configuration a directory", Command::kSchedule, {.config = kExamples + "config"},
       RunError::Kind::kConfigInvalid, Setting::kConfig,
       "\"" + kExamples + "config\" is a directory, not a file; configuration takes a KubeSchedulerConfiguration "
       "file"},
      {"scheduler name", Command::kSchedule, {.scheduler_names = {"volcano"}}, RunError::Kind::kInvalidValue,
       Setting::kSchedulerName, "invalid scheduler name \"volcano\": expected NAME=POLICY, e.g. kai-scheduler=best-fit"},
      {"a gated profile without its gate", Command::kSimulate,
       {.config = kExamples + "gang/config/gang-scheduling.yaml"}, RunError::Kind::kGateOff, Setting::kFeatureGates,
       "profile \"default-scheduler\" enables GangScheduling, alpha in v1.35 and off by default: add feature gates "
       "GangScheduling=true"},
      // The settings are checked in order: the policy first.
      {"first error wins", Command::kSchedule, {.policy = "x", .order = "y"}, RunError::Kind::kUnknownName,
       Setting::kPolicy, "unknown policy \"x\" (known: " + known + ")"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    RunResult<RunSettings> r = ResolveSettings(c.options, c.command, nullptr);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, c.kind);
    EXPECT_EQ(r.error().setting, c.setting);
    EXPECT_EQ(r.error().Message(), c.message);
  }
}

// serve takes no feature gates (kube-scheduler, whose extender it is, reads
// its own) and serves no gangs: a configuration that enables GangScheduling is
// served as given, as before the run layer.
TEST(RunSettingsTest, ServeServesAGangSchedulingConfiguration) {
  const RunOptions options{.config = kExamples + "gang/config/gang-scheduling.yaml"};
  const RunResult<RunSettings> serve = ResolveSettings(options, Command::kServe, nullptr);
  ASSERT_TRUE(serve.ok()) << serve.error().Message();
  EXPECT_TRUE(serve->gang_serving.empty());
  EXPECT_FALSE(ResolveSettings(options, Command::kSchedule, nullptr).ok());
}

TEST(RunSettingsTest, ConfigurationWarningsComeEvenWithALaterError) {
  const std::string path = ::testing::TempDir() + "/run-settings-warn.yaml";
  std::ofstream(path) << "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nfoo: 1\n";
  std::vector<std::string> warnings;
  RunResult<RunSettings> r =
      ResolveSettings(RunOptions{.scheduler_names = {"x"}, .config = path}, Command::kSchedule, &warnings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().setting, Setting::kSchedulerName);
  EXPECT_EQ(warnings, std::vector<std::string>{path + ":3: unknown field \"foo\" is ignored (kube-scheduler refuses "
                                                      "it: strict decoding error: unknown field \"foo\")"});
}

TEST(RunSettingsTest, SchedulersForOnePolicy) {
  RunResult<RunSettings> s = ResolveSettings(
      RunOptions{.policy = "kube-default,fgd", .scheduler_names = {"kai-scheduler=best-fit"}}, Command::kSimulate,
      nullptr);
  ASSERT_TRUE(s.ok());
  const TypicalPods typical = ComputeTypicalPods({});
  for (const std::string& policy : s->policies) {
    SCOPED_TRACE(policy);
    Result<SchedulerSet> set = SchedulersFor(*s, policy, typical);
    ASSERT_TRUE(set.ok()) << set.status().message();
    ASSERT_EQ(set->profiles.size(), 2u);
    EXPECT_EQ(set->profiles[0].first, "default-scheduler");
    EXPECT_EQ(set->profiles[0].second->policy().Name(), policy);
    EXPECT_EQ(set->profiles[1].first, "kai-scheduler");
    EXPECT_EQ(set->profiles[1].second->policy().Name(), "best-fit");
  }
}

}  // namespace
}  // namespace gpusched

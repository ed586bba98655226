// Which profiles enforce which gangs: GangScheduling (behind its v1.35
// feature gate), Coscheduling with its args, Volcano and KAI by name. The
// gates' syntax is the run layer's (tests/run/feature_gates_test.cc).
#include "gpusched/sched/framework/gang_serving.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

SchedulerProfile Profile(const std::string& name, const std::vector<std::string>& multi_point,
                         const std::vector<std::string>& disabled = {}) {
  SchedulerProfile p;
  p.scheduler_name = name;
  for (const auto& n : multi_point) p.plugins.multi_point.enabled.push_back({n, 0});
  for (const auto& n : disabled) p.plugins.multi_point.disabled.push_back({n, 0});
  return p;
}

std::string Describe(const GangServing& s) {
  std::string out;
  for (const auto& [name, e] : s) {
    out += name + ": " + e.enforcer + " apis";
    for (GangApi a : e.apis) out += " " + std::string(GangApiName(a));
    out += " timeout " + std::to_string(static_cast<int64_t>(e.permit_timeout_seconds)) + " reject " +
           std::to_string(static_cast<int64_t>(e.reject_threshold * 100)) + "%\n";
  }
  return out;
}

TEST(GangServingTest, Profiles) {
  KubeSchedulerConfiguration config;
  config.profiles.push_back(Profile("default-scheduler", {"GangScheduling"}));
  config.profiles.push_back(Profile("scheduler-plugins-scheduler", {"Coscheduling"}, {"PrioritySort"}));
  config.profiles.back().coscheduling_args.permit_waiting_time_seconds = 10;
  config.profiles.back().coscheduling_args.pod_group_reject_percentage = 50;
  config.profiles.push_back(Profile("plain", {}));
  SetDefaults(config);
  const std::vector<ExtraProfile> extra = {{"volcano", "best-fit"}, {"kai-scheduler", "first-fit"}, {"mine", "best-fit"}};

  Result<GangServing> off = BuildGangServing(config, extra, ScheduleFeatureGates{});
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(off.status().message(),
            "error: profile \"default-scheduler\" enables GangScheduling, alpha in v1.35 and off by default: turn on "
            "its feature gate, GangScheduling");
  EXPECT_EQ(GangSchedulingWithoutGate(config, ScheduleFeatureGates{}), "default-scheduler");
  EXPECT_EQ(GangSchedulingWithoutGate(config, ScheduleFeatureGates{true, false}), std::nullopt);

  Result<GangServing> on = BuildGangServing(config, extra, ScheduleFeatureGates{true, false});
  ASSERT_TRUE(on.ok()) << on.status().message();
  EXPECT_EQ(Describe(*on),
            "default-scheduler: GangScheduling apis Workload scheduling.k8s.io/v1alpha1 PodGroup "
            "scheduling.k8s.io/v1alpha2 timeout 300 reject 10%\n"
            "kai-scheduler: KAI apis PodGroup scheduling.run.ai/v2alpha2 timeout 0 reject 10%\n"
            "scheduler-plugins-scheduler: Coscheduling apis PodGroup scheduling.x-k8s.io/v1alpha1 timeout 10 reject "
            "50%\n"
            "volcano: Volcano apis PodGroup scheduling.volcano.sh/v1beta1 timeout 0 reject 10%\n");

  // The default configuration gangs nothing.
  Result<GangServing> none = BuildGangServing(DefaultSchedulerConfiguration(), {}, ScheduleFeatureGates{true, true});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace gpusched

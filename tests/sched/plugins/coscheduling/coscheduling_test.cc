// src/sched/plugins/coscheduling/coscheduling.cc: scheduler-plugins'
// CoschedulingArgs as its decoder reads them, defaulted as its
// SetDefaults_CoschedulingArgs (60 s, 0 s, 10%) and checked as
// ValidateCoschedulingArgs (apis/config/validation/validation_pluginargs.go).
// The loader's own test reads the same args from a file
// (tests/io/scheduler_config_loader_test.cc, CoschedulingArgs).
#include "gpusched/sched/plugins/coscheduling/coscheduling.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../fake_args_reader.h"

namespace gpusched {
namespace {

TEST(CoschedulingArgsTest, DecodeDefaultsAndValidation) {
  struct Case {
    const char* name;
    const char* args;
    std::string want;  // wait/backoff/reject
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
  };
  const Case cases[] = {
      {"defaults", "{}", "60/0/10", {}, {}},
      {"given", R"({"permitWaitingTimeSeconds": 10, "podGroupBackoffSeconds": 30, "podGroupRejectPercentage": 0})",
       "10/30/0", {}, {}},
      {"negative wait", R"({"permitWaitingTimeSeconds": -1})", "-1/0/10",
       {"a.permitWaitingTimeSeconds: Invalid value: -1: must be greater than 0"}, {}},
      {"percentage over 100", R"({"podGroupRejectPercentage": 101})", "60/0/101",
       {"a.podGroupRejectPercentage: Invalid value: 101: must be between 0 and 100"}, {}},
      {"unknown field", R"({"kind": "CoschedulingArgs", "timeout": 5})", "60/0/10", {}, {"unknown field a.timeout"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    testing::FakeArgsReader r(nlohmann::json::parse(c.args));
    SchedulerProfile profile;
    DecodeCoschedulingArgs(r, r.root(), "a", profile);
    const CoschedulingArgs& a = profile.coscheduling_args;
    EXPECT_EQ(std::to_string(a.permit_waiting_time_seconds) + "/" + std::to_string(a.pod_group_backoff_seconds) +
                  "/" + std::to_string(a.pod_group_reject_percentage),
              c.want);
    EXPECT_EQ(r.errors, c.errors);
    EXPECT_EQ(r.warnings, c.warnings);
  }
}

}  // namespace
}  // namespace gpusched

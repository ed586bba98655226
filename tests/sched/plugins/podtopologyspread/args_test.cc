// src/sched/plugins/podtopologyspread/args.cc: PodTopologySpreadArgs as its
// decoder reads, defaults (SetDefaults_PodTopologySpreadArgs) and checks them,
// with the messages of ValidatePodTopologySpreadArgs (k8s.io/kubernetes
// pkg/scheduler/apis/config/validation/validation_pluginargs.go; cases of
// TestValidatePodTopologySpreadArgs in validation_pluginargs_test.go).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"
#include "../fake_args_reader.h"

namespace gpusched {
namespace {

struct Decoded {
  std::vector<std::string> errors;
  const PodTopologySpreadArgs* args = nullptr;
  SchedulerProfile profile;
};

void Decode(const char* json, Decoded& out) {
  testing::FakeArgsReader r(nlohmann::json::parse(json));
  DecodePodTopologySpreadArgs(r, r.root(), "args", out.profile);
  out.errors = r.errors;
  out.args = PluginArgsOf<PodTopologySpreadArgs>(
      ResolvedProfile{.plugin_args = out.profile.plugin_args}, names::kPodTopologySpread);
}

TEST(PodTopologySpreadArgsTest, DefaultsAndValid) {
  Decoded d;
  Decode("{}", d);
  EXPECT_TRUE(d.errors.empty());
  ASSERT_NE(d.args, nullptr);
  EXPECT_EQ(d.args->defaulting_type, "System");
  Decoded l;
  Decode(R"({"defaultingType": "List", "defaultConstraints": [
      {"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "ScheduleAnyway"},
      {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]})",
         l);
  EXPECT_TRUE(l.errors.empty());
  ASSERT_EQ(l.args->default_constraints.size(), 2u);
  EXPECT_EQ(l.args->default_constraints[1].max_skew, 2);
  EXPECT_EQ(l.args->default_constraints[1].when_unsatisfiable, "DoNotSchedule");
}

TEST(PodTopologySpreadArgsTest, ValidationMessages) {
  struct Case {
    const char* name;
    const char* json;
    std::vector<std::string> want;
  } cases[] = {
      {"maxSkew less than zero",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": -1, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"}]})",
       {"args.defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)"}},
      {"empty topology key",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule"}]})",
       {"args.defaultConstraints[0].topologyKey: Required value: can not be empty"}},
      {"whenUnsatisfiable is empty",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1, "topologyKey": "node"}]})",
       {"args.defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"}},
      {"whenUnsatisfiable contains unsupported action",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "unknown action"}]})",
       {"args.defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"unknown action\": supported values: "
        "\"DoNotSchedule\", \"ScheduleAnyway\""}},
      {"duplicated constraints",
       R"({"defaultingType": "List", "defaultConstraints": [
           {"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"},
           {"maxSkew": 2, "topologyKey": "node", "whenUnsatisfiable": "DoNotSchedule"}]})",
       {"args.defaultConstraints[1]: Duplicate value: \"{node, DoNotSchedule}\""}},
      {"label selector present",
       R"({"defaultingType": "List", "defaultConstraints": [{"maxSkew": 1, "topologyKey": "key", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"a": "b"}}}]})",
       {"args.defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced "
        "for each pod"}},
      {"list default constraints, no constraints", R"({"defaultingType": "List"})", {}},
      {"system default constraints, but has constraints",
       R"({"defaultingType": "System", "defaultConstraints": [{"maxSkew": 1, "topologyKey": "key", "whenUnsatisfiable": "DoNotSchedule"}]})",
       {"args.defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty"}},
      {"wrong defaultingType", R"({"defaultingType": "Sytem"})",
       {"args.defaultingType: Unsupported value: \"Sytem\": supported values: \"System\", \"List\""}},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    Decoded d;
    Decode(tc.json, d);
    EXPECT_EQ(d.errors, tc.want);
  }
}

}  // namespace
}  // namespace gpusched

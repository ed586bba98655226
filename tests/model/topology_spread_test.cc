// validateTopologySpreadConstraints (k8s.io/kubernetes pkg/apis/core/
// validation/validation.go, v1.35 with MatchLabelKeysInPodTopologySpread-
// SelectorMerge on: the matchLabelKeys rule of
// validateMatchLabelKeysAndMismatchLabelKeys) and the API server's merge of
// matchLabelKeys into the labelSelector (pkg/registry/core/pod/strategy.go
// mutateTopologySpreadConstraints).
#include "gpusched/model/topology_spread.h"

#include <gtest/gtest.h>

#include "gpusched/model/pod.h"

namespace gpusched {
namespace {

TopologySpreadConstraint C(int32_t skew, const std::string& key, const std::string& action) {
  TopologySpreadConstraint c;
  c.max_skew = skew;
  c.topology_key = key;
  c.when_unsatisfiable = action;
  c.label_selector = LabelSelector{};
  c.label_selector->match_labels["app"] = "web";
  return c;
}

std::vector<std::string> Errors(const std::vector<TopologySpreadConstraint>& cs) {
  std::vector<FieldError> errs;
  ValidateTopologySpreadConstraints(cs, "spec.topologySpreadConstraints", errs);
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(TopologySpreadValidationTest, Messages) {
  const std::string p = "spec.topologySpreadConstraints[0]";
  auto with = [](TopologySpreadConstraint c, auto f) {
    f(c);
    return std::vector<TopologySpreadConstraint>{c};
  };
  const TopologySpreadConstraint ok = C(1, "zone", kDoNotSchedule);
  EXPECT_TRUE(Errors({ok, C(1, "zone", kScheduleAnyway), C(2, "node", kDoNotSchedule)}).empty());
  EXPECT_EQ(Errors(with(ok, [](auto& c) { c.max_skew = 0; })),
            std::vector<std::string>{p + ".maxSkew: Invalid value: 0: must be greater than zero"});
  EXPECT_EQ(Errors(with(ok, [](auto& c) { c.topology_key = ""; })),
            std::vector<std::string>{p + ".topologyKey: Required value: can not be empty"});
  EXPECT_EQ(Errors(with(ok, [](auto& c) { c.when_unsatisfiable = "Never"; })),
            std::vector<std::string>{p + ".whenUnsatisfiable: Unsupported value: \"Never\": supported values: "
                                         "\"DoNotSchedule\", \"ScheduleAnyway\""});
  EXPECT_EQ(Errors({ok, C(3, "zone", kDoNotSchedule)}),
            std::vector<std::string>{p + ".{topologyKey, whenUnsatisfiable}: Duplicate value: \"{zone, DoNotSchedule}\""});
  EXPECT_EQ(Errors(with(C(1, "zone", kScheduleAnyway), [](auto& c) { c.min_domains = 0; })),
            (std::vector<std::string>{
                p + ".minDomains: Invalid value: 0: must be greater than zero",
                p + ".minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
                    "ScheduleAnyway"}));
  EXPECT_EQ(Errors(with(ok, [](auto& c) { c.node_affinity_policy = "honor"; })),
            std::vector<std::string>{p + ".nodeAffinityPolicy: Unsupported value: \"honor\": supported values: "
                                         "\"Honor\", \"Ignore\""});
  EXPECT_EQ(Errors(with(ok, [](auto& c) { c.node_taints_policy = "Always"; })),
            std::vector<std::string>{p + ".nodeTaintsPolicy: Unsupported value: \"Always\": supported values: "
                                         "\"Honor\", \"Ignore\""});
  EXPECT_EQ(Errors(with(ok, [](auto& c) {
              c.label_selector.reset();
              c.match_label_keys = {"pod-template-hash"};
            })),
            std::vector<std::string>{p + ".matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"});
  // A key both in the user's selector and merged from matchLabelKeys: at
  // the constraint's path with the key's index appended, as upstream does.
  EXPECT_EQ(Errors(with(ok, [](auto& c) {
              c.match_label_keys = {"app"};
              c.label_selector->match_expressions.push_back({"app", "In", {"web"}});
            })),
            std::vector<std::string>{p + "[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"});
  EXPECT_EQ(Errors(with(ok, [](auto& c) { c.label_selector->match_expressions.push_back({"tier", "Has", {}}); })),
            std::vector<std::string>{p + ".labelSelector.matchExpressions[0].operator: Invalid value: \"Has\": not a "
                                         "valid selector operator"});
}

TEST(TopologySpreadValidationTest, ApplyMatchLabelKeysMergesOnce) {
  Pod pod;
  pod.meta.labels = {{"app", "web"}, {"pod-template-hash", "abc"}};
  auto extras = std::make_shared<PodSpecExtras>();
  TopologySpreadConstraint c = C(1, "zone", kDoNotSchedule);
  c.match_label_keys = {"pod-template-hash", "missing"};
  extras->topology_spread_constraints.push_back(c);
  TopologySpreadConstraint nil = C(1, "node", kDoNotSchedule);
  nil.label_selector.reset();
  nil.match_label_keys = {"app"};
  extras->topology_spread_constraints.push_back(nil);
  pod.extras = extras;
  ApplyMatchLabelKeys(pod);
  const auto& got = pod.Extras().topology_spread_constraints;
  ASSERT_EQ(got[0].label_selector->match_expressions.size(), 1u);
  EXPECT_EQ(got[0].label_selector->match_expressions[0].key, "pod-template-hash");
  EXPECT_EQ(got[0].label_selector->match_expressions[0].values, std::vector<std::string>{"abc"});
  EXPECT_FALSE(got[1].label_selector.has_value());  // a nil selector stays nil
  // A pod dumped from a cluster that merged it already: unchanged.
  const auto before = pod.extras;
  ApplyMatchLabelKeys(pod);
  EXPECT_EQ(pod.extras, before);
  // The merged requirement alone is no error; the nil selector's keys are.
  EXPECT_EQ(Errors(pod.Extras().topology_spread_constraints),
            std::vector<std::string>{"spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be "
                                     "specified when labelSelector is not set"});
}

}  // namespace
}  // namespace gpusched

// src/sched/plugins/nodeaffinity/args.cc: NodeAffinityArgs as its decoder
// reads them and ValidateNodeAffinityArgs checks them. The validation cases
// are TestValidateNodeAffinityArgs of k8s.io/kubernetes
// pkg/scheduler/apis/config/validation/validation_pluginargs_test.go (3
// cases, with upstream's nil path); upstream compares the errors' types and
// fields only, these compare the whole messages (labels.NewRequirement's and
// nodeaffinity's details, field.Error's rendering of the bad value).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"
#include "../fake_args_reader.h"

namespace gpusched {
namespace {

std::vector<std::string> Messages(const std::vector<FieldError>& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(NodeAffinityArgsTest, TestValidateNodeAffinityArgs) {
  NodeAffinity valid;
  valid.has_required = true;
  valid.required = {NodeSelectorTerm{{{"label-1", "In", {"label-1-val"}}}, {}}};
  valid.preferred = {{1, NodeSelectorTerm{{}, {{"metadata.name", "In", {"node-1"}}}}}};
  NodeAffinity invalid;
  invalid.has_required = true;
  invalid.required = {NodeSelectorTerm{{{"invalid/label/key", "In", {"label-1-val"}}}, {}}};
  invalid.preferred = {{1, NodeSelectorTerm{{}, {{"metadata.name", "In", {"node-1", "node-2"}}}}}};
  struct Case {
    const char* name;
    std::optional<NodeAffinity> added;
    std::vector<std::string> want;
  } cases[] = {
      {"empty", std::nullopt, {}},
      {"valid added affinity", valid, {}},
      {"invalid added affinity",
       invalid,
       {"addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: "
        "Invalid value: \"invalid/label/key\": a valid label key must consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
        "subdomain prefix and '/' (e.g. 'example.com/MyName')",
        "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values: Invalid value: "
        "[]string{\"node-1\", \"node-2\"}: must have one element"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeAffinityArgs args;
    args.added_affinity = c.added;
    EXPECT_EQ(Messages(ValidateNodeAffinityArgs("", args)), c.want);
  }
}

// gpusched's own: what the validation leaves alone (the API's rules for a
// pod's affinity are not applied: weights, an empty term list, field keys)
// and a preferred term of weight 0, which NewPreferredSchedulingTerms skips
// unparsed.
TEST(NodeAffinityArgsTest, ValidationLeavesWhatUpstreamLeaves) {
  NodeAffinityArgs args;
  args.added_affinity = NodeAffinity{};
  args.added_affinity->has_required = true;  // no terms: matches no node, not an error
  args.added_affinity->preferred = {
      {0, NodeSelectorTerm{{{"bad key", "In", {"x"}}}, {}}},
      {-5, NodeSelectorTerm{{}, {{"metadata.uid", "NotIn", {"x"}}}}},
      {500, NodeSelectorTerm{}},
  };
  EXPECT_EQ(Messages(ValidateNodeAffinityArgs("args", args)), std::vector<std::string>{});
  args.added_affinity->preferred[1].weight = 1;
  args.added_affinity->preferred[1].preference.match_fields[0].op = "Exists";
  EXPECT_EQ(Messages(ValidateNodeAffinityArgs("args", args)),
            (std::vector<std::string>{"args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[1]."
                                      "matchFields[0].operator: Unsupported value: \"Exists\": supported values: "
                                      "\"In\", \"NotIn\""}));
}

struct Decoded {
  std::vector<std::string> errors, warnings;
  const NodeAffinityArgs* args = nullptr;
  SchedulerProfile profile;
};

void Decode(const char* json, Decoded& out) {
  testing::FakeArgsReader r(nlohmann::json::parse(json));
  DecodeNodeAffinityArgs(r, r.root(), "args", out.profile);
  out.errors = r.errors;
  out.warnings = r.warnings;
  out.args = PluginArgsOf<NodeAffinityArgs>(ResolvedProfile{.plugin_args = out.profile.plugin_args},
                                            names::kNodeAffinity);
}

TEST(NodeAffinityArgsTest, Decode) {
  Decoded none;
  Decode("{}", none);
  EXPECT_TRUE(none.errors.empty());
  ASSERT_NE(none.args, nullptr);
  EXPECT_FALSE(none.args->added_affinity.has_value());

  Decoded d;
  Decode(R"({"addedAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}],
         "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 3, "preference": {"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}, "extra": 1}]}})",
         d);
  EXPECT_TRUE(d.errors.empty());
  EXPECT_EQ(d.warnings,
            std::vector<std::string>{
                "unknown field args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].extra"});
  ASSERT_NE(d.args, nullptr);
  ASSERT_TRUE(d.args->added_affinity.has_value());
  const NodeAffinity& a = *d.args->added_affinity;
  EXPECT_TRUE(a.has_required);
  ASSERT_EQ(a.required.size(), 1u);
  EXPECT_EQ(a.required[0].match_expressions,
            (std::vector<NodeSelectorRequirement>{{"zone", "In", {"a", "b"}}}));
  EXPECT_EQ(a.required[0].match_fields, (std::vector<NodeSelectorRequirement>{{"metadata.name", "NotIn", {"n1"}}}));
  ASSERT_EQ(a.preferred.size(), 1u);
  EXPECT_EQ(a.preferred[0].weight, 3);
  EXPECT_EQ(a.preferred[0].preference.match_expressions,
            (std::vector<NodeSelectorRequirement>{{"gpu", "Exists", {}}}));

  Decoded bad;
  Decode(R"({"addedAffinity": {
      "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "gpus", "operator": "Gt", "values": ["many"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists", "values": ["a"]}]}}]}})",
         bad);
  EXPECT_EQ(bad.errors,
            (std::vector<std::string>{
                "args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
                "matchExpressions[0].values[0]: Invalid value: \"many\": for 'Gt', 'Lt' operators, the value must be "
                "an integer",
                "args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[0].values: "
                "Invalid value: []string{\"a\"}: values set must be empty for exists and does not exist"}));
}

}  // namespace
}  // namespace gpusched

// Workload objects (scheduling.k8s.io v1alpha1 and v1alpha2) refused with the
// API server's validation messages: group names, the group list's bounds and
// the object's own name, in that order.
#include <gtest/gtest.h>

#include "gang_test_util.h"

namespace gpusched {
namespace {

struct WorkloadCase {
  const char* name;
  const char* yaml;
};

const char* const kLabelMessage =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

TEST(GangDecodeTest, WorkloadValidation) {
  const std::string label = kLabelMessage;
  const std::vector<std::pair<WorkloadCase, std::string>> cases = {
      {{"template names: DNS labels, unique",
        "apiVersion: scheduling.k8s.io/v1alpha2\nkind: Workload\nmetadata: {name: w}\nspec:\n  podGroupTemplates:\n"
        "    - {name: Workers, schedulingPolicy: {gang: {minCount: 2}}}\n"
        "    - {name: Workers, schedulingPolicy: {gang: {minCount: 2}}}\n"},
       "Workload/default/w | t.yaml:6: The Workload \"w\" is invalid: \n"
       "* spec.podGroupTemplates[0].name: Invalid value: \"Workers\": " + label + "\n"
       "* spec.podGroupTemplates[1].name: Invalid value: \"Workers\": " + label + "\n"
       "* spec.podGroupTemplates[1].name: Duplicate value: \"Workers\"\n"},
      {{"no templates",
        "apiVersion: scheduling.k8s.io/v1alpha2\nkind: Workload\nmetadata: {name: w}\nspec: {podGroupTemplates: []}\n"},
       "Workload/default/w | t.yaml:4: The Workload \"w\" is invalid: spec.podGroupTemplates: Required value: must "
       "have at least one item\n"},
      {{"group names unique",
        "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: w}\nspec:\n  podGroups:\n"
        "    - {name: a, policy: {gang: {minCount: 1}}}\n    - {name: a, policy: {gang: {minCount: 1}}}\n"},
       "Workload/default/w | t.yaml:7: The Workload \"w\" is invalid: spec.podGroups[1].name: Duplicate value: \"a\"\n"},
      {{"no groups and a bad name",
        "apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: Bad_Name}\nspec: {}\n"},
       "Workload/default/Bad_Name | t.yaml:3: The Workload \"Bad_Name\" is invalid: \n"
       "* metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case "
       "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
       "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n"
       "* spec.podGroups: Required value: must have at least one item\n"},
  };
  for (const auto& [c, want] : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(gang_test::Rejections(gang_test::Load(c.yaml)), want);
  }
}

}  // namespace
}  // namespace gpusched

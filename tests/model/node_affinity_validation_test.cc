// validateNodeAffinity messages, from k8s.io/kubernetes
// pkg/apis/core/validation/validation.go (ValidateNodeSelectorRequirement,
// ValidateNodeFieldSelectorRequirement, ValidatePreferredSchedulingTerms).
#include <gtest/gtest.h>

#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

std::vector<std::string> Errors(const NodeAffinity& a) {
  std::vector<FieldError> errs;
  ValidateNodeAffinity(a, "spec.affinity.nodeAffinity", errs);
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.ToString());
  return out;
}

NodeAffinity Required(NodeSelectorRequirement r) {
  NodeAffinity a;
  a.has_required = true;
  a.required.push_back(NodeSelectorTerm{{std::move(r)}, {}});
  return a;
}

TEST(NodeAffinityValidationTest, Messages) {
  const std::string req = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
  NodeAffinity no_terms;
  no_terms.has_required = true;
  NodeAffinity bad_weight;
  bad_weight.preferred.push_back({0, NodeSelectorTerm{{{"a", "Exists", {}}}, {}}});
  NodeAffinity bad_field;
  bad_field.has_required = true;
  bad_field.required.push_back(NodeSelectorTerm{{}, {{"metadata.uid", "In", {"a", "b"}}}});
  struct Case {
    const char* name;
    NodeAffinity a;
    std::vector<std::string> want;
  } cases[] = {
      {"valid", Required({"nvidia.com/gpu.product", "In", {"A100"}}), {}},
      {"no terms", no_terms, {req + ": Required value: must have at least one node selector term"}},
      {"In without values", Required({"k", "In", {}}),
       {req + "[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"}},
      {"Exists with values", Required({"k", "Exists", {"v"}}),
       {req + "[0].matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or "
              "'DoesNotExist'"}},
      {"Gt with two values", Required({"k", "Gt", {"1", "2"}}),
       {req + "[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is "
              "'Lt' or 'Gt'"}},
      {"bad operator", Required({"k", "Has", {"v"}}),
       {req + "[0].matchExpressions[0].operator: Invalid value: \"Has\": not a valid selector operator"}},
      {"weight out of range", bad_weight,
       {"spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must "
        "be in the range 1-100"}},
      {"field selector", bad_field,
       {req + "[0].matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' "
              "for node field selector",
        req + "[0].matchFields[0].key: Invalid value: \"metadata.uid\": not a valid field selector key"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Errors(c.a), c.want);
  }
}

}  // namespace
}  // namespace gpusched

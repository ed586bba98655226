// validateNodeAffinity and its helpers from
// k8s.io/kubernetes pkg/apis/core/validation/validation.go.
#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

// ValidateNodeSelectorRequirement (matchExpressions).
void ValidateExpression(const NodeSelectorRequirement& r, const std::string& path, bool allow_invalid_values,
                        std::vector<FieldError>& errs) {
  if (r.op == "In" || r.op == "NotIn") {
    if (r.values.empty())
      errs.push_back(FieldError::Required(path + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (r.op == "Exists" || r.op == "DoesNotExist") {
    if (!r.values.empty())
      errs.push_back(FieldError::Forbidden(path + ".values",
                                           "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (r.op == "Gt" || r.op == "Lt") {
    if (r.values.size() != 1)
      errs.push_back(
          FieldError::Required(path + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else {
    errs.push_back(FieldError::InvalidJson(path + ".operator", r.op, "not a valid selector operator"));
  }
  for (const auto& m : IsQualifiedName(r.key)) errs.push_back(FieldError::Invalid(path + ".key", r.key, m));
  if (!allow_invalid_values) {
    for (size_t i = 0; i < r.values.size(); ++i)
      for (const auto& m : IsValidLabelValue(r.values[i]))
        errs.push_back(FieldError::Invalid(path + ".values[" + std::to_string(i) + "]", r.values[i], m));
  }
}

// ValidateNodeFieldSelectorRequirement (matchFields): only metadata.name.
void ValidateField(const NodeSelectorRequirement& r, const std::string& path, std::vector<FieldError>& errs) {
  if (r.op == "In" || r.op == "NotIn") {
    if (r.values.size() != 1)
      errs.push_back(FieldError::Required(
          path + ".values", "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push_back(FieldError::InvalidJson(path + ".operator", r.op, "not a valid selector operator"));
  }
  if (r.key != "metadata.name") {
    errs.push_back(FieldError::Invalid(path + ".key", r.key, "not a valid field selector key"));
  } else {
    for (size_t i = 0; i < r.values.size(); ++i)
      for (const auto& m : IsDNS1123Subdomain(r.values[i]))
        errs.push_back(FieldError::Invalid(path + ".values[" + std::to_string(i) + "]", r.values[i], m));
  }
}

void ValidateTerm(const NodeSelectorTerm& t, const std::string& path, bool allow_invalid_values,
                  std::vector<FieldError>& errs) {
  for (size_t j = 0; j < t.match_expressions.size(); ++j)
    ValidateExpression(t.match_expressions[j], path + ".matchExpressions[" + std::to_string(j) + "]",
                       allow_invalid_values, errs);
  for (size_t j = 0; j < t.match_fields.size(); ++j)
    ValidateField(t.match_fields[j], path + ".matchFields[" + std::to_string(j) + "]", errs);
}

}  // namespace

void ValidateNodeSelector(const std::vector<NodeSelectorTerm>& terms, const std::string& path,
                          std::vector<FieldError>& errs) {
  const std::string tp = path + ".nodeSelectorTerms";
  if (terms.empty()) {
    errs.push_back(FieldError::Required(tp, "must have at least one node selector term"));
    return;
  }
  for (size_t i = 0; i < terms.size(); ++i) ValidateTerm(terms[i], tp + "[" + std::to_string(i) + "]", false, errs);
}

void ValidateNodeAffinity(const NodeAffinity& a, const std::string& path, std::vector<FieldError>& errs) {
  if (a.has_required) ValidateNodeSelector(a.required, path + ".requiredDuringSchedulingIgnoredDuringExecution", errs);
  const std::string pref = path + ".preferredDuringSchedulingIgnoredDuringExecution";
  for (size_t i = 0; i < a.preferred.size(); ++i) {
    const std::string p = pref + "[" + std::to_string(i) + "]";
    const PreferredSchedulingTerm& t = a.preferred[i];
    if (t.weight <= 0 || t.weight > 100)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".weight", std::to_string(t.weight),
                                "must be in the range 1-100"});
    ValidateTerm(t.preference, p + ".preference", true, errs);
  }
}

}  // namespace gpusched

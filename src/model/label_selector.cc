#include "gpusched/model/label_selector.h"

#include "gpusched/model/validation.h"

#include <algorithm>

namespace gpusched {

bool SelectorMatches(const LabelSelector& selector, const LabelMap& labels) {
  for (const auto& [k, v] : selector.match_labels) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  // labels.Requirement.Matches (k8s.io/apimachinery/pkg/labels/selector.go).
  for (const LabelSelectorRequirement& r : selector.match_expressions) {
    auto it = labels.find(r.key);
    const bool has = it != labels.end();
    auto in_values = [&] { return std::find(r.values.begin(), r.values.end(), it->second) != r.values.end(); };
    if (r.op == "In") {
      if (!has || !in_values()) return false;
    } else if (r.op == "NotIn") {
      if (has && in_values()) return false;
    } else if (r.op == "Exists") {
      if (!has) return false;
    } else if (r.op == "DoesNotExist") {
      if (has) return false;
    } else {
      return false;
    }
  }
  return true;
}

void ValidateLabelSelector(const LabelSelector& selector, const std::string& path, std::vector<FieldError>& errs) {
  // ValidateLabelSelectorRequirement, for each matchExpressions entry.
  for (size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const LabelSelectorRequirement& r = selector.match_expressions[i];
    const std::string p = path + ".matchExpressions[" + std::to_string(i) + "]";
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.empty())
        errs.push_back(FieldError::Required(p + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.op == "Exists" || r.op == "DoesNotExist") {
      if (!r.values.empty())
        errs.push_back(
            FieldError::Forbidden(p + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push_back(FieldError::Invalid(p + ".operator", r.op, "not a valid selector operator"));
    }
    for (const auto& msg : IsQualifiedName(r.key)) errs.push_back(FieldError::Invalid(p + ".key", r.key, msg));
    for (size_t k = 0; k < r.values.size(); ++k)
      for (const auto& msg : IsValidLabelValue(r.values[k]))
        errs.push_back(FieldError::Invalid(p + ".values[" + std::to_string(k) + "]", r.values[k], msg));
  }
  // ValidateLabels on matchLabels: errors at the map's own path.
  for (const auto& [k, v] : selector.match_labels) {
    for (const auto& msg : IsQualifiedName(k)) errs.push_back(FieldError::Invalid(path + ".matchLabels", k, msg));
    for (const auto& msg : IsValidLabelValue(v)) errs.push_back(FieldError::Invalid(path + ".matchLabels", v, msg));
  }
}

std::string GoLabelMap(const LabelMap& labels) {
  std::string s = "map[string]string{";
  bool first = true;
  for (const auto& [k, v] : labels) {
    if (!first) s += ", ";
    first = false;
    s += GoQuote(k) + ":" + GoQuote(v);
  }
  return s + "}";
}

}  // namespace gpusched

// LabelSelector (apimachinery meta/v1): matchLabels and matchExpressions,
// matched as metav1.LabelSelectorAsSelector(...).Matches does, and validated
// with the messages of apimachinery's unversioned validation
// (ValidateLabelSelector).
#ifndef GPUSCHED_MODEL_LABEL_SELECTOR_H_
#define GPUSCHED_MODEL_LABEL_SELECTOR_H_

#include <map>
#include <string>
#include <vector>

#include "gpusched/model/field_error.h"

namespace gpusched {

using LabelMap = std::map<std::string, std::string, std::less<>>;

struct LabelSelectorRequirement {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;
};

struct LabelSelector {
  LabelMap match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;

  // No requirement at all: LabelSelectorAsSelector gives labels.Everything().
  bool Empty() const { return match_labels.empty() && match_expressions.empty(); }
};

// True when `labels` satisfy every requirement (an empty selector matches
// everything; an unknown operator matches nothing, as LabelSelectorAsSelector
// then fails and controllers match nothing).
bool SelectorMatches(const LabelSelector& selector, const LabelMap& labels);

// ValidateLabelSelector with AllowInvalidLabelValueInSelector false: the
// errors for `selector` at `path` ("spec.selector"), appended to `errs`.
void ValidateLabelSelector(const LabelSelector& selector, const std::string& path, std::vector<FieldError>& errs);

// A label map as Go's %#v prints it in a field error:
// map[string]string{"app":"web", "tier":"gpu"} (keys sorted).
std::string GoLabelMap(const LabelMap& labels);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_LABEL_SELECTOR_H_

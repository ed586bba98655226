#include "gpusched/model/topology_spread.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "gpusched/model/object_meta_validation.h"
#include "gpusched/model/pod.h"

namespace gpusched {
namespace {

// The requirement applyLabelKeysToLabelSelector appends for `key`.
bool HasMerged(const LabelSelector& s, const std::string& key, const std::string& value) {
  for (const LabelSelectorRequirement& r : s.match_expressions)
    if (r.key == key && r.op == "In" && r.values.size() == 1 && r.values[0] == value) return true;
  return false;
}

// validateMatchLabelKeysAndMismatchLabelKeys (mismatchLabelKeys is nil for
// a spread constraint). `path` is the constraint's: upstream reports a key
// found in both at fldPath.Index(i), the constraint's path with [i]
// appended, and so does this.
void ValidateMatchLabelKeys(const TopologySpreadConstraint& c, const std::string& path,
                            std::vector<FieldError>& errs) {
  if (c.match_label_keys.empty()) return;
  const std::string keys_path = path + ".matchLabelKeys";
  // validateLabelKeys.
  if (!c.label_selector) {
    errs.push_back(FieldError::Forbidden(keys_path, "must not be specified when labelSelector is not set"));
    return;
  }
  for (size_t i = 0; i < c.match_label_keys.size(); ++i)
    ValidateLabelName(c.match_label_keys[i], keys_path + "[" + std::to_string(i) + "]", errs);
  // The merged requirement meets a key of the user's own selector.
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < c.match_label_keys.size(); ++i) index[c.match_label_keys[i]] = i;
  std::set<std::string> seen;
  for (const auto& [k, v] : c.label_selector->match_labels) seen.insert(k);
  for (const LabelSelectorRequirement& r : c.label_selector->match_expressions) {
    auto it = index.find(r.key);
    if (it != index.end() && seen.count(r.key))
      errs.push_back(FieldError::Invalid(path + "[" + std::to_string(it->second) + "]", r.key,
                                         "exists in both matchLabelKeys and labelSelector"));
    seen.insert(r.key);
  }
}

}  // namespace

void ApplyMatchLabelKeys(Pod& pod) {
  if (!pod.extras || pod.extras->topology_spread_constraints.empty()) return;
  std::shared_ptr<PodSpecExtras> copy;
  const auto& constraints = pod.extras->topology_spread_constraints;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const TopologySpreadConstraint& c = constraints[i];
    if (c.match_label_keys.empty() || !c.label_selector) continue;  // nil selector: matches none anyway
    for (const std::string& key : c.match_label_keys) {
      auto label = pod.meta.labels.find(key);
      if (label == pod.meta.labels.end()) continue;
      const LabelSelector& now = copy ? *copy->topology_spread_constraints[i].label_selector : *c.label_selector;
      if (HasMerged(now, key, label->second)) continue;
      if (!copy) copy = std::make_shared<PodSpecExtras>(*pod.extras);
      copy->topology_spread_constraints[i].label_selector->match_expressions.push_back(
          LabelSelectorRequirement{key, "In", {label->second}});
    }
  }
  if (copy) pod.extras = std::move(copy);
}

void ValidateTopologySpreadConstraints(const std::vector<TopologySpreadConstraint>& constraints,
                                       const std::string& path, std::vector<FieldError>& errs) {
  for (size_t i = 0; i < constraints.size(); ++i) {
    const TopologySpreadConstraint& c = constraints[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    // ValidateMaxSkew, ValidateTopologyKey, ValidateWhenUnsatisfiable.
    if (c.max_skew <= 0)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".maxSkew", std::to_string(c.max_skew),
                                "must be greater than zero"});
    if (c.topology_key.empty()) errs.push_back(FieldError::Required(p + ".topologyKey", "can not be empty"));
    if (c.when_unsatisfiable != kDoNotSchedule && c.when_unsatisfiable != kScheduleAnyway)
      errs.push_back(FieldError::NotSupportedJson(p + ".whenUnsatisfiable", c.when_unsatisfiable,
                                                  {kDoNotSchedule, kScheduleAnyway}));
    // ValidateSpreadConstraintNotRepeat: against the constraints after it.
    for (size_t j = i + 1; j < constraints.size(); ++j)
      if (constraints[j].topology_key == c.topology_key && constraints[j].when_unsatisfiable == c.when_unsatisfiable) {
        errs.push_back(FieldError::Duplicate(p + ".{topologyKey, whenUnsatisfiable}",
                                             "{" + c.topology_key + ", " + c.when_unsatisfiable + "}"));
        break;
      }
    // validateMinDomains (the pointer's value is printed).
    if (c.min_domains) {
      const std::string v = std::to_string(*c.min_domains);
      if (*c.min_domains <= 0)
        errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".minDomains", v, "must be greater than zero"});
      if (c.when_unsatisfiable != kDoNotSchedule)
        errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".minDomains", v,
                                  "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " +
                                      c.when_unsatisfiable});
    }
    // validateNodeInclusionPolicy.
    for (const auto& [field, policy] : {std::pair<const char*, const std::string*>{".nodeAffinityPolicy", &c.node_affinity_policy},
                                        {".nodeTaintsPolicy", &c.node_taints_policy}})
      if (!policy->empty() && *policy != kNodeInclusionHonor && *policy != kNodeInclusionIgnore)
        errs.push_back(FieldError::NotSupportedJson(p + field, *policy, {kNodeInclusionHonor, kNodeInclusionIgnore}));
    ValidateMatchLabelKeys(c, p, errs);
    if (c.label_selector) ValidateLabelSelector(*c.label_selector, p + ".labelSelector", errs);
  }
}

}  // namespace gpusched

// Pod affinity terms: matching (pkg/scheduler/framework/types.go
// newAffinityTerm, getNamespacesFromPodAffinityTerm, AffinityTerm.Matches),
// the API server's matchLabelKeys merge (pkg/registry/core/pod/strategy.go
// applyMatchLabelKeysAndMismatchLabelKeys) and validation
// (pkg/apis/core/validation/validation.go validatePodAffinity,
// validatePodAntiAffinity, validatePodAffinityTerm,
// validateMatchLabelKeysAndMismatchLabelKeys).
#include "gpusched/model/pod_affinity.h"

#include <algorithm>
#include <memory>
#include <set>

#include "gpusched/model/name_validation.h"
#include "gpusched/model/object_meta_validation.h"
#include "gpusched/model/pod.h"

namespace gpusched {

bool HasPodAffinity(const Pod& pod) {
  return pod.pod_affinity && (pod.pod_affinity->affinity || pod.pod_affinity->anti_affinity);
}

bool HasRequiredPodAntiAffinity(const Pod& pod) {
  return pod.pod_affinity && !pod.pod_affinity->RequiredAntiAffinity().empty();
}

bool HasRequiredPodAffinityTerms(const Pod& pod) {
  return pod.pod_affinity &&
         (!pod.pod_affinity->RequiredAffinity().empty() || !pod.pod_affinity->RequiredAntiAffinity().empty());
}

bool PodAffinityTermMatches(const PodAffinityTerm& term, const Pod& owner, const Pod& target,
                            const LabelMap* ns_labels) {
  return PodAffinityTermMatches(term, owner.ns(), target, ns_labels);
}

bool PodAffinityTermMatches(const PodAffinityTerm& term, const std::string& owner_ns, const Pod& target,
                            const LabelMap* ns_labels) {
  bool ns_ok;
  if (term.namespaces.empty() && !term.namespace_selector) {
    ns_ok = target.ns() == owner_ns;
  } else {
    ns_ok = std::find(term.namespaces.begin(), term.namespaces.end(), target.ns()) != term.namespaces.end();
    if (!ns_ok && term.namespace_selector) {
      static const LabelMap kNone;
      ns_ok = SelectorMatches(*term.namespace_selector, ns_labels ? *ns_labels : kNone);
    }
  }
  return ns_ok && term.label_selector && SelectorMatches(*term.label_selector, target.meta.labels);
}

namespace {

void ApplyLabelKeys(PodAffinityTerm& t, const LabelMap& labels) {
  if ((t.match_label_keys.empty() && t.mismatch_label_keys.empty()) || !t.label_selector) return;
  for (const std::string& k : t.match_label_keys)
    if (auto it = labels.find(k); it != labels.end())
      t.label_selector->match_expressions.push_back(LabelSelectorRequirement{k, "In", {it->second}});
  for (const std::string& k : t.mismatch_label_keys)
    if (auto it = labels.find(k); it != labels.end())
      t.label_selector->match_expressions.push_back(LabelSelectorRequirement{k, "NotIn", {it->second}});
}

bool HasLabelKeys(const PodAffinityRules& r) {
  auto has = [](const PodAffinityTerm& t) { return !t.match_label_keys.empty() || !t.mismatch_label_keys.empty(); };
  return std::any_of(r.required.begin(), r.required.end(), has) ||
         std::any_of(r.preferred.begin(), r.preferred.end(),
                     [&](const WeightedPodAffinityTerm& w) { return has(w.term); });
}

void ApplyLabelKeys(PodAffinityRules& r, const LabelMap& labels) {
  // mutatePodAffinity's order: preferred terms first, then required.
  for (WeightedPodAffinityTerm& w : r.preferred) ApplyLabelKeys(w.term, labels);
  for (PodAffinityTerm& t : r.required) ApplyLabelKeys(t, labels);
}

}  // namespace

void MergeAffinityLabelKeys(Pod& pod) {
  if (!pod.pod_affinity) return;
  const PodAffinitySpec& s = *pod.pod_affinity;
  if (!(s.affinity && HasLabelKeys(*s.affinity)) && !(s.anti_affinity && HasLabelKeys(*s.anti_affinity))) return;
  // Copy on write: the spec is shared with the template and its replicas.
  auto merged = std::make_shared<PodAffinitySpec>(s);
  if (merged->affinity) ApplyLabelKeys(*merged->affinity, pod.meta.labels);
  if (merged->anti_affinity) ApplyLabelKeys(*merged->anti_affinity, pod.meta.labels);
  pod.pod_affinity = std::move(merged);
}

namespace {

// validateLabelKeys.
void ValidateLabelKeys(const std::string& path, const std::vector<std::string>& keys,
                       const std::optional<LabelSelector>& selector, std::vector<FieldError>& errs) {
  if (keys.empty()) return;
  if (!selector) {
    errs.push_back(FieldError::Forbidden(path, "must not be specified when labelSelector is not set"));
    return;
  }
  for (size_t i = 0; i < keys.size(); ++i) ValidateLabelName(keys[i], path + "[" + std::to_string(i) + "]", errs);
}

// validateMatchLabelKeysAndMismatchLabelKeys. The selector already holds
// what the merge appended, so a key is in both only when the selector names
// it twice.
void ValidateMatchLabelKeys(const std::string& path, const PodAffinityTerm& t, std::vector<FieldError>& errs) {
  ValidateLabelKeys(path + ".matchLabelKeys", t.match_label_keys, t.label_selector, errs);
  ValidateLabelKeys(path + ".mismatchLabelKeys", t.mismatch_label_keys, t.label_selector, errs);
  if (t.label_selector) {
    std::set<std::string, std::less<>> seen;
    for (const auto& [k, v] : t.label_selector->match_labels) seen.insert(k);
    for (const LabelSelectorRequirement& e : t.label_selector->match_expressions) {
      // labelKeysMap holds the last index of each key.
      auto it = std::find(t.match_label_keys.rbegin(), t.match_label_keys.rend(), e.key);
      if (it != t.match_label_keys.rend() && seen.count(e.key)) {
        const size_t i = static_cast<size_t>(t.match_label_keys.rend() - it) - 1;
        // Upstream's path: the term's, indexed (fldPath.Index(i)).
        errs.push_back(FieldError::Invalid(path + "[" + std::to_string(i) + "]", e.key,
                                           "exists in both matchLabelKeys and labelSelector"));
      }
      seen.insert(e.key);
    }
  }
  for (size_t i = 0; i < t.match_label_keys.size(); ++i)
    if (std::find(t.mismatch_label_keys.begin(), t.mismatch_label_keys.end(), t.match_label_keys[i]) !=
        t.mismatch_label_keys.end())
      errs.push_back(FieldError::Invalid(path + ".matchLabelKeys[" + std::to_string(i) + "]", t.match_label_keys[i],
                                         "exists in both matchLabelKeys and mismatchLabelKeys"));
}

// validatePodAffinityTerm.
void ValidateTerm(const PodAffinityTerm& t, const std::string& path, std::vector<FieldError>& errs) {
  // ValidatePodAffinityTermSelector (AllowInvalidLabelValueInSelector is
  // false for a new pod).
  if (t.label_selector) ValidateLabelSelector(*t.label_selector, path + ".labelSelector", errs);
  if (t.namespace_selector) ValidateLabelSelector(*t.namespace_selector, path + ".namespaceSelector", errs);
  // Upstream's path is "namespace", not "namespaces".
  for (const std::string& ns : t.namespaces)
    for (const std::string& m : IsDNS1123Label(ns)) errs.push_back(FieldError::Invalid(path + ".namespace", ns, m));
  ValidateMatchLabelKeys(path, t, errs);
  if (t.topology_key.empty()) errs.push_back(FieldError::Required(path + ".topologyKey", "can not be empty"));
  ValidateLabelName(t.topology_key, path + ".topologyKey", errs);
}

void ValidateRules(const PodAffinityRules& r, const std::string& path, std::vector<FieldError>& errs) {
  const std::string req = path + ".requiredDuringSchedulingIgnoredDuringExecution";
  for (size_t i = 0; i < r.required.size(); ++i) ValidateTerm(r.required[i], req + "[" + std::to_string(i) + "]", errs);
  const std::string pref = path + ".preferredDuringSchedulingIgnoredDuringExecution";
  for (size_t j = 0; j < r.preferred.size(); ++j) {
    const std::string p = pref + "[" + std::to_string(j) + "]";
    const int32_t w = r.preferred[j].weight;
    if (w <= 0 || w > 100)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p + ".weight", std::to_string(w), "must be in the range 1-100"});
    ValidateTerm(r.preferred[j].term, p + ".podAffinityTerm", errs);
  }
}

}  // namespace

void ValidatePodAffinity(const PodAffinitySpec& spec, const std::string& path, std::vector<FieldError>& errs) {
  if (spec.affinity) ValidateRules(*spec.affinity, path + ".podAffinity", errs);
  if (spec.anti_affinity) ValidateRules(*spec.anti_affinity, path + ".podAntiAffinity", errs);
}

}  // namespace gpusched

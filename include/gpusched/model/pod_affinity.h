// Inter-pod affinity as core/v1 defines it (spec.affinity.podAffinity and
// podAntiAffinity: PodAffinityTerm, WeightedPodAffinityTerm), the API
// server's handling of a new pod's matchLabelKeys/mismatchLabelKeys
// (pkg/registry/core/pod/strategy.go mutatePodAffinity, KEP-3633, GA in
// v1.33), its validation (pkg/apis/core/validation validateAffinity's pod
// parts) and how a term matches a pod (pkg/scheduler/framework
// AffinityTerm.Matches, newAffinityTerm).
#ifndef GPUSCHED_MODEL_POD_AFFINITY_H_
#define GPUSCHED_MODEL_POD_AFFINITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/field_error.h"
#include "gpusched/model/label_selector.h"

namespace gpusched {

struct Pod;

struct PodAffinityTerm {
  // nullopt: a nil selector, which matches no pod (LabelSelectorAsSelector
  // gives labels.Nothing()); an empty one matches every pod.
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
  // nullopt: none (with no namespaces, the term's pod's own namespace); an
  // empty one selects every namespace.
  std::optional<LabelSelector> namespace_selector;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;  // podAffinityTerm
};

// One of core/v1 PodAffinity and PodAntiAffinity (the same two lists).
struct PodAffinityRules {
  std::vector<PodAffinityTerm> required;            // requiredDuringSchedulingIgnoredDuringExecution
  std::vector<WeightedPodAffinityTerm> preferred;   // preferredDuringSchedulingIgnoredDuringExecution
};

// spec.affinity's pod parts. Held by Pod::pod_affinity behind a shared
// pointer: most pods have none, and replicas of one template share it.
struct PodAffinitySpec {
  std::optional<PodAffinityRules> affinity;       // podAffinity
  std::optional<PodAffinityRules> anti_affinity;  // podAntiAffinity

  const std::vector<PodAffinityTerm>& RequiredAffinity() const { return affinity ? affinity->required : kNoTerms; }
  const std::vector<PodAffinityTerm>& RequiredAntiAffinity() const {
    return anti_affinity ? anti_affinity->required : kNoTerms;
  }
  const std::vector<WeightedPodAffinityTerm>& PreferredAffinity() const {
    return affinity ? affinity->preferred : kNoWeighted;
  }
  const std::vector<WeightedPodAffinityTerm>& PreferredAntiAffinity() const {
    return anti_affinity ? anti_affinity->preferred : kNoWeighted;
  }

 private:
  inline static const std::vector<PodAffinityTerm> kNoTerms{};
  inline static const std::vector<WeightedPodAffinityTerm> kNoWeighted{};
};

// NodeInfo.PodsWithAffinity membership: podAffinity or podAntiAffinity set.
bool HasPodAffinity(const Pod& pod);
// NodeInfo.PodsWithRequiredAntiAffinity membership.
bool HasRequiredPodAntiAffinity(const Pod& pod);
// The pod has required podAffinity or podAntiAffinity terms.
bool HasRequiredPodAffinityTerms(const Pod& pod);

// AffinityTerm.Matches for `term` of pod `owner`, against `target`:
// target's namespace is among the term's namespaces (its owner's when it
// names none and has no namespaceSelector) or its namespace's labels
// (`ns_labels`, nullptr when the namespace is unknown) match the
// namespaceSelector; then its labels match the labelSelector.
bool PodAffinityTermMatches(const PodAffinityTerm& term, const Pod& owner, const Pod& target,
                            const LabelMap* ns_labels);
// The same for a term whose owner's namespace is `owner_ns`.
bool PodAffinityTermMatches(const PodAffinityTerm& term, const std::string& owner_ns, const Pod& target,
                            const LabelMap* ns_labels);

// What the API server does to a pod it creates (mutatePodAffinity): for
// each term with a labelSelector, key In (value) for every matchLabelKeys
// key the pod's labels carry and key NotIn (value) for every
// mismatchLabelKeys one, appended to the selector's matchExpressions. Only
// for pods not yet created: a pod read from a cluster has had it done.
void MergeAffinityLabelKeys(Pod& pod);

// validateAffinity's podAffinity and podAntiAffinity parts, at `path`
// ("spec.affinity"), appended to `errs`.
void ValidatePodAffinity(const PodAffinitySpec& spec, const std::string& path, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_POD_AFFINITY_H_

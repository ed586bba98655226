// What InterPodAffinity computes with: a pod's affinity terms as the plugin
// uses them (upstream's fwk.AffinityTerm, with the incoming pod's
// namespaceSelector unrolled into namespace names as
// mergeAffinityTermNamespacesIfNotEmpty does) and counts per topology pair
// (topologyToMatchedTermCount, pkg/scheduler/framework/plugins/
// interpodaffinity/filtering.go).
#ifndef GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_AFFINITY_TERMS_H_
#define GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_AFFINITY_TERMS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/api_objects.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

struct AffinityTerm {
  const PodAffinityTerm* term = nullptr;
  const Pod* owner = nullptr;
  int32_t weight = 0;  // of a preferred term
  // The namespaceSelector was unrolled: `selected` are the namespaces it
  // selects, and the selector itself no longer matches anything.
  bool unrolled = false;
  std::vector<std::string> selected;

  const std::string& topology_key() const { return term->topology_key; }
  // AffinityTerm.Matches: `ns_labels` are the labels of target's namespace
  // (nullptr: none known, as upstream passes nil for the incoming pod's
  // own terms).
  bool Matches(const Pod& target, const LabelMap* ns_labels) const;
};

// The terms of the incoming pod `owner`, its namespaceSelectors unrolled
// against the input's Namespaces.
std::vector<AffinityTerm> ResolveTerms(const std::vector<PodAffinityTerm>& terms, const Pod& owner,
                                       const ApiObjects& objects);
std::vector<AffinityTerm> ResolveTerms(const std::vector<WeightedPodAffinityTerm>& terms, const Pod& owner,
                                       const ApiObjects& objects);

// podMatchesAllAffinityTerms: false for no terms.
bool MatchesAllTerms(const std::vector<AffinityTerm>& terms, const Pod& pod);

// topologyToMatchedTermCount: a count per (topology key, value), entries
// that fall to zero dropped. Keys are few (the terms'), so they are a
// vector and values a map under each.
class TopologyCounts {
 public:
  // m.update(node, key, n): adds n to (key, node's value of key) when the
  // node has the label.
  void AddOn(const Node& node, const std::string& key, int64_t n);
  void Add(const std::string& key, const std::string& value, int64_t n);
  int64_t Get(std::string_view key, std::string_view value) const;
  // len(m): the entries not zero.
  size_t size() const { return nonzero_; }
  bool empty() const { return nonzero_ == 0; }
  const std::vector<std::pair<std::string, std::map<std::string, int64_t, std::less<>>>>& keys() const {
    return by_key_;
  }

 private:
  std::vector<std::pair<std::string, std::map<std::string, int64_t, std::less<>>>> by_key_;
  size_t nonzero_ = 0;
};

// A TopologyCounts with one node's pods swapped (a dry run's copy of the
// node: victims removed, nominated pods added): base + delta.
class CountsView {
 public:
  explicit CountsView(const TopologyCounts& base, const TopologyCounts* delta = nullptr)
      : base_(base), delta_(delta) {}
  int64_t Get(std::string_view key, std::string_view value) const {
    return base_.Get(key, value) + (delta_ ? delta_->Get(key, value) : 0);
  }
  bool empty() const;
  // Some (key, node's value of key) has a count > 0.
  bool AnyPositiveOn(const Node& node) const;

 private:
  const TopologyCounts& base_;
  const TopologyCounts* delta_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_AFFINITY_TERMS_H_

#include "gpusched/sched/plugins/interpodaffinity/affinity_terms.h"

#include <algorithm>

namespace gpusched {

bool AffinityTerm::Matches(const Pod& target, const LabelMap* ns_labels) const {
  if (!unrolled) return PodAffinityTermMatches(*term, *owner, target, ns_labels);
  // Namespaces (the term's own plus those its selector selected), the
  // selector now labels.Nothing().
  const bool ns_ok =
      std::find(term->namespaces.begin(), term->namespaces.end(), target.ns()) != term->namespaces.end() ||
      std::find(selected.begin(), selected.end(), target.ns()) != selected.end();
  return ns_ok && term->label_selector && SelectorMatches(*term->label_selector, target.meta.labels);
}

namespace {

AffinityTerm Resolve(const PodAffinityTerm& t, const Pod& owner, int32_t weight, const ApiObjects& objects) {
  AffinityTerm a;
  a.term = &t;
  a.owner = &owner;
  a.weight = weight;
  // mergeAffinityTermNamespacesIfNotEmpty: a nil selector (Nothing) and an
  // empty one (Everything, Empty() true) are kept as they are.
  if (t.namespace_selector && !t.namespace_selector->Empty()) {
    a.unrolled = true;
    for (const auto& [name, labels] : objects.namespace_labels)
      if (SelectorMatches(*t.namespace_selector, labels)) a.selected.push_back(name);
  }
  return a;
}

}  // namespace

std::vector<AffinityTerm> ResolveTerms(const std::vector<PodAffinityTerm>& terms, const Pod& owner,
                                       const ApiObjects& objects) {
  std::vector<AffinityTerm> out;
  out.reserve(terms.size());
  for (const PodAffinityTerm& t : terms) out.push_back(Resolve(t, owner, 0, objects));
  return out;
}

std::vector<AffinityTerm> ResolveTerms(const std::vector<WeightedPodAffinityTerm>& terms, const Pod& owner,
                                       const ApiObjects& objects) {
  std::vector<AffinityTerm> out;
  out.reserve(terms.size());
  for (const WeightedPodAffinityTerm& t : terms) out.push_back(Resolve(t.term, owner, t.weight, objects));
  return out;
}

bool MatchesAllTerms(const std::vector<AffinityTerm>& terms, const Pod& pod) {
  if (terms.empty()) return false;
  for (const AffinityTerm& t : terms)
    if (!t.Matches(pod, nullptr)) return false;
  return true;
}

void TopologyCounts::AddOn(const Node& node, const std::string& key, int64_t n) {
  auto it = node.meta.labels.find(key);
  if (it != node.meta.labels.end()) Add(key, it->second, n);
}

void TopologyCounts::Add(const std::string& key, const std::string& value, int64_t n) {
  if (n == 0) return;
  auto k = std::find_if(by_key_.begin(), by_key_.end(), [&](const auto& e) { return e.first == key; });
  if (k == by_key_.end()) {
    by_key_.emplace_back(key, std::map<std::string, int64_t, std::less<>>{});
    k = by_key_.end() - 1;
  }
  auto [it, added] = k->second.emplace(value, 0);
  const bool was = it->second != 0;
  it->second += n;
  if (it->second == 0) {
    k->second.erase(it);
    if (was) --nonzero_;
  } else if (!was) {
    ++nonzero_;
  }
}

int64_t TopologyCounts::Get(std::string_view key, std::string_view value) const {
  for (const auto& [k, values] : by_key_) {
    if (k != key) continue;
    auto it = values.find(value);
    return it == values.end() ? 0 : it->second;
  }
  return 0;
}

bool CountsView::empty() const {
  if (!delta_) return base_.empty();
  int64_t n = static_cast<int64_t>(base_.size());
  for (const auto& [k, values] : delta_->keys())
    for (const auto& [v, d] : values) {
      const int64_t b = base_.Get(k, v);
      n += (b + d != 0 ? 1 : 0) - (b != 0 ? 1 : 0);
    }
  return n == 0;
}

bool CountsView::AnyPositiveOn(const Node& node) const {
  // Every positive entry's key is a key of base or delta.
  auto check = [&](const TopologyCounts& c) {
    for (const auto& [k, values] : c.keys()) {
      auto it = node.meta.labels.find(k);
      if (it != node.meta.labels.end() && Get(k, it->second) > 0) return true;
    }
    return false;
  };
  return check(base_) || (delta_ && check(*delta_));
}

}  // namespace gpusched

#include "gpusched/controllers/controller_ownership.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

namespace gpusched {
namespace {

// Adoption order when several controllers' selectors match one orphan.
int KindRank(ControllerKind k) {
  switch (k) {
    case ControllerKind::kReplicaSet: return 0;
    case ControllerKind::kStatefulSet: return 1;
    case ControllerKind::kJob: return 2;
    case ControllerKind::kDaemonSet: return 3;
    case ControllerKind::kDeployment: return 4;
    case ControllerKind::kCronJob: return 5;
  }
  return 6;
}

std::string Key(ControllerKind kind, const std::string& ns, const std::string& name) {
  return std::string(KindName(kind)) + '\0' + ns + '\0' + name;
}

// The StatefulSet controller's isMemberOf: the pod is named <set>-<ordinal>.
bool IsStatefulSetMember(const std::string& set, const std::string& pod) {
  if (pod.size() <= set.size() + 1 || !pod.starts_with(set) || pod[set.size()] != '-') return false;
  const char* b = pod.data() + set.size() + 1;
  const char* e = pod.data() + pod.size();
  int64_t ord = 0;
  auto [p, ec] = std::from_chars(b, e, ord);
  return ec == std::errc() && p == e && ord >= 0 && (*b != '0' || e - b == 1);
}

// Finds owners. Orphan adoption looks at the controllers whose selector's
// first matchLabels pair is one of the object's labels (every matchLabels
// pair must be among them), plus those with matchExpressions only; with
// `indexed` false it looks at every controller of the namespace, the plain
// reference the index is tested against.
class Resolver {
 public:
  Resolver(const std::vector<const Controller*>& cs, bool indexed) : cs_(cs), indexed_(indexed) {
    sel_.resize(cs.size());
    order_.resize(cs.size());
    std::vector<size_t> all(cs.size());
    for (size_t i = 0; i < cs.size(); ++i) {
      const Controller& c = *cs[i];
      all[i] = i;
      if (!c.meta.uid.empty()) by_uid_.emplace(c.meta.uid, i);
      by_key_.emplace(Key(c.kind, c.ns(), c.name()), i);
      // The selector it adopts with: a Job without spec.selector gets one the
      // API server generates from its uid (pkg/registry/batch/job/strategy.go);
      // a nil or empty one adopts nothing (validation refuses both for apps/v1
      // kinds, and controllers never claim with labels.Everything()).
      std::optional<LabelSelector> sel = c.selector;
      if (c.kind == ControllerKind::kJob && !sel && !c.meta.uid.empty())
        sel = LabelSelector{{{kJobControllerUidLabel, c.meta.uid}}, {}};
      if (c.kind == ControllerKind::kCronJob || !sel || sel->Empty()) continue;
      sel_[i] = std::move(sel);
      if (sel_[i]->match_labels.empty()) {
        expr_only_[c.ns()].push_back(i);
      } else {
        const auto& [k, v] = *sel_[i]->match_labels.begin();
        by_first_label_[LabelKey(c.ns(), k, v)].push_back(i);
      }
      by_ns_[c.ns()].push_back(i);
    }
    // Adoption order: ReplicaSet, StatefulSet, Job, DaemonSet, Deployment, then by name.
    std::sort(all.begin(), all.end(), [&](size_t a, size_t b) {
      const int ra = KindRank(cs_[a]->kind), rb = KindRank(cs_[b]->kind);
      if (ra != rb) return ra < rb;
      if (cs_[a]->name() != cs_[b]->name()) return cs_[a]->name() < cs_[b]->name();
      return cs_[a]->ns() < cs_[b]->ns();
    });
    for (size_t pos = 0; pos < all.size(); ++pos) order_[all[pos]] = pos;
  }

  // Rules 1 and 2 for a controller reference in namespace `ns`.
  std::optional<size_t> ByReference(const OwnerReference& ref, const std::string& ns) const {
    const std::optional<ControllerKind> kind = ParseControllerKind(ref.kind);
    if (!kind || ApiGroup(ref.api_version) != KindGroup(*kind)) return std::nullopt;
    if (!ref.uid.empty()) {
      if (auto it = by_uid_.find(ref.uid); it != by_uid_.end()) {
        const Controller& c = *cs_[it->second];
        if (c.kind == *kind && c.ns() == ns) return it->second;
      }
    }
    if (auto it = by_key_.find(Key(*kind, ns, ref.name)); it != by_key_.end()) {
      const Controller& c = *cs_[it->second];
      if (c.meta.uid.empty() || ref.uid.empty()) return it->second;
    }
    return std::nullopt;
  }

  // Rule 2's Deployment fallback: `ref` names a ReplicaSet <deployment>-<hash>
  // (the hash has no "-") that is not in the input.
  std::optional<size_t> DeploymentOfMissingReplicaSet(const OwnerReference& ref, const Pod& pod) const {
    if (ref.kind != "ReplicaSet" || ApiGroup(ref.api_version) != "apps") return std::nullopt;
    const size_t dash = ref.name.rfind('-');
    if (dash == std::string::npos || dash == 0 || dash + 1 == ref.name.size()) return std::nullopt;
    auto it = by_key_.find(Key(ControllerKind::kDeployment, pod.ns(), ref.name.substr(0, dash)));
    if (it == by_key_.end()) return std::nullopt;
    const Controller& d = *cs_[it->second];
    if (!d.selector || !SelectorMatches(*d.selector, pod.meta.labels)) return std::nullopt;
    return it->second;
  }

  // Rule 3: the controllers that would adopt an orphan pod, in adoption order.
  std::vector<size_t> Adopters(const Pod& pod) const {
    std::vector<size_t> out;
    for (size_t i : Candidates(pod.ns(), pod.meta.labels)) {
      const Controller& c = *cs_[i];
      if (c.kind == ControllerKind::kStatefulSet && !IsStatefulSetMember(c.name(), pod.name())) continue;
      // A Deployment only through a ReplicaSet that is not in the input: its
      // ReplicaSets select pod-template-hash too.
      if (c.kind == ControllerKind::kDeployment && (!out.empty() || !pod.meta.labels.count(kPodTemplateHashLabel)))
        continue;
      if (SelectorMatches(*sel_[i], pod.meta.labels)) out.push_back(i);
    }
    return out;
  }

  // An orphan ReplicaSet is adopted by a Deployment whose selector matches it.
  std::optional<size_t> DeploymentAdopting(const Controller& rs) const {
    for (size_t i : Candidates(rs.ns(), rs.meta.labels))
      if (cs_[i]->kind == ControllerKind::kDeployment && SelectorMatches(*sel_[i], rs.meta.labels)) return i;
    return std::nullopt;
  }

 private:
  static std::string LabelKey(const std::string& ns, const std::string& k, const std::string& v) {
    return ns + '\0' + k + '\0' + v;
  }

  // Controllers of namespace `ns` with a selector that may match `labels`, in adoption order.
  std::vector<size_t> Candidates(const std::string& ns, const LabelMap& labels) const {
    std::vector<size_t> out;
    if (!indexed_) {
      if (auto it = by_ns_.find(ns); it != by_ns_.end()) out = it->second;
    } else {
      for (const auto& [k, v] : labels)
        if (auto it = by_first_label_.find(LabelKey(ns, k, v)); it != by_first_label_.end())
          out.insert(out.end(), it->second.begin(), it->second.end());
      if (auto it = expr_only_.find(ns); it != expr_only_.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    }
    std::sort(out.begin(), out.end(), [&](size_t a, size_t b) { return order_[a] < order_[b]; });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  const std::vector<const Controller*>& cs_;
  const bool indexed_;
  std::vector<std::optional<LabelSelector>> sel_;  // the selector each adopts with, if any
  std::vector<size_t> order_;                      // position in adoption order
  std::unordered_map<std::string, size_t> by_uid_;
  std::unordered_map<std::string, size_t> by_key_;
  std::unordered_map<std::string, std::vector<size_t>> by_first_label_;
  std::unordered_map<std::string, std::vector<size_t>> expr_only_;
  std::unordered_map<std::string, std::vector<size_t>> by_ns_;  // controllers that adopt, per namespace
};

std::string Id(const Controller& c) { return std::string(KindName(c.kind)) + "/" + c.name(); }

}  // namespace

Ownership ResolveOwnership(const std::vector<const Controller*>& controllers, const std::vector<const Pod*>& pods,
                           bool indexed) {
  Resolver r(controllers, indexed);
  Ownership out;
  out.deployment_of.resize(controllers.size());
  for (size_t i = 0; i < controllers.size(); ++i) {
    const Controller& c = *controllers[i];
    if (c.kind != ControllerKind::kReplicaSet) continue;
    std::optional<size_t> owner;
    if (c.controller_ref) {
      owner = r.ByReference(*c.controller_ref, c.ns());
    } else {
      owner = r.DeploymentAdopting(c);
    }
    if (owner && controllers[*owner]->kind == ControllerKind::kDeployment) out.deployment_of[i] = owner;
  }
  out.owner_of.resize(pods.size());
  for (size_t p = 0; p < pods.size(); ++p) {
    const Pod& pod = *pods[p];
    if (pod.controller_ref) {
      std::optional<size_t> owner = r.ByReference(*pod.controller_ref, pod.ns());
      if (!owner) owner = r.DeploymentOfMissingReplicaSet(*pod.controller_ref, pod);
      if (owner && controllers[*owner]->kind == ControllerKind::kCronJob) owner.reset();
      out.owner_of[p] = owner;
      continue;
    }
    std::vector<size_t> adopters = r.Adopters(pod);
    if (adopters.empty()) continue;
    out.owner_of[p] = adopters[0];
    if (adopters.size() > 1) {
      std::string names;
      for (size_t k = 0; k < adopters.size(); ++k)
        names += (k == 0 ? "" : k + 1 == adopters.size() ? " and " : ", ") + Id(*controllers[adopters[k]]);
      out.notes.emplace_back(p, "has no controller reference and the selectors of " + names +
                                    " all match its labels: counted as " + Id(*controllers[adopters[0]]) + "'s");
    }
  }
  return out;
}

}  // namespace gpusched

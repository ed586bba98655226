#include "gpusched/io/controller_ownership.h"

#include <algorithm>
#include <charconv>
#include <map>
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

class Resolver {
 public:
  explicit Resolver(const std::vector<const Controller*>& cs) : cs_(cs) {
    for (size_t i = 0; i < cs.size(); ++i) {
      const Controller& c = *cs[i];
      if (!c.meta.uid.empty()) by_uid_.emplace(c.meta.uid, i);
      by_key_.emplace(Key(c.kind, c.ns(), c.name()), i);
      by_ns_[c.ns()].push_back(i);
    }
    for (auto& [ns, v] : by_ns_) {
      std::sort(v.begin(), v.end(), [&](size_t a, size_t b) {
        const int ra = KindRank(cs_[a]->kind), rb = KindRank(cs_[b]->kind);
        return ra != rb ? ra < rb : cs_[a]->name() < cs_[b]->name();
      });
    }
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
  // that is not in the input.
  std::optional<size_t> DeploymentOfMissingReplicaSet(const OwnerReference& ref, const Pod& pod) const {
    if (ref.kind != "ReplicaSet" || ApiGroup(ref.api_version) != "apps") return std::nullopt;
    auto it = by_ns_.find(pod.ns());
    if (it == by_ns_.end()) return std::nullopt;
    for (size_t i : it->second) {
      const Controller& d = *cs_[i];
      if (d.kind != ControllerKind::kDeployment || !d.selector) continue;
      const std::string& n = d.name();
      if (ref.name.size() <= n.size() + 1 || !ref.name.starts_with(n) || ref.name[n.size()] != '-') continue;
      if (ref.name.find('-', n.size() + 1) != std::string::npos) continue;
      if (SelectorMatches(*d.selector, pod.meta.labels)) return i;
    }
    return std::nullopt;
  }

  // Rule 3: the controllers that would adopt an orphan pod, in adoption order.
  std::vector<size_t> Adopters(const Pod& pod) const {
    std::vector<size_t> out;
    auto it = by_ns_.find(pod.ns());
    if (it == by_ns_.end()) return out;
    for (size_t i : it->second) {
      const Controller& c = *cs_[i];
      std::optional<LabelSelector> sel = c.selector;
      switch (c.kind) {
        case ControllerKind::kCronJob:
          continue;
        case ControllerKind::kJob:
          // A Job without spec.selector gets one the API server generates
          // from its uid (pkg/registry/batch/job/strategy.go).
          if (!sel && !c.meta.uid.empty()) sel = LabelSelector{{{kJobControllerUidLabel, c.meta.uid}}, {}};
          break;
        case ControllerKind::kStatefulSet:
          if (!IsStatefulSetMember(c.name(), pod.name())) continue;
          break;
        case ControllerKind::kDeployment:
          // Only through a ReplicaSet that is not in the input: a
          // Deployment's ReplicaSets select pod-template-hash too.
          if (!out.empty() || !pod.meta.labels.count(kPodTemplateHashLabel)) continue;
          break;
        default:
          break;
      }
      // A nil or empty selector adopts nothing: validation refuses both for
      // apps/v1 kinds, and controllers never claim with labels.Everything().
      if (!sel || sel->Empty() || !SelectorMatches(*sel, pod.meta.labels)) continue;
      out.push_back(i);
    }
    return out;
  }

  // An orphan ReplicaSet is adopted by a Deployment whose selector matches it.
  std::optional<size_t> DeploymentAdopting(const Controller& rs) const {
    auto it = by_ns_.find(rs.ns());
    if (it == by_ns_.end()) return std::nullopt;
    for (size_t i : it->second) {
      const Controller& d = *cs_[i];
      if (d.kind == ControllerKind::kDeployment && d.selector && !d.selector->Empty() &&
          SelectorMatches(*d.selector, rs.meta.labels))
        return i;
    }
    return std::nullopt;
  }

 private:
  const std::vector<const Controller*>& cs_;
  std::unordered_map<std::string, size_t> by_uid_;
  std::unordered_map<std::string, size_t> by_key_;
  std::map<std::string, std::vector<size_t>, std::less<>> by_ns_;
};

std::string Id(const Controller& c) { return std::string(KindName(c.kind)) + "/" + c.name(); }

}  // namespace

Ownership ResolveOwnership(const std::vector<const Controller*>& controllers, const std::vector<const Pod*>& pods) {
  Resolver r(controllers);
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

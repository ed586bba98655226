#include "gpusched/sched/api/pod_class.h"

#include <functional>
#include <string_view>

namespace gpusched {
namespace {

bool HasRequiredAffinity(const Pod& p) { return p.node_affinity && p.node_affinity->has_required; }

// Placement constraints as the filters read them: preferred affinity terms
// only score, and an affinity without required terms filters nothing.
bool SameConstraints(const Pod& a, const Pod& b) {
  if (a.node_name != b.node_name || a.node_selector != b.node_selector || a.tolerations != b.tolerations)
    return false;
  const bool ra = HasRequiredAffinity(a), rb = HasRequiredAffinity(b);
  return ra == rb && (!ra || a.node_affinity->required == b.node_affinity->required);
}

struct Hasher {
  size_t h = 1469598103934665603ull;
  void Mix(uint64_t v) { h = (h ^ v) * 1099511628211ull + (h >> 29); }
  void Mix(std::string_view s) { Mix(std::hash<std::string_view>()(s)); }
};

}  // namespace

bool SameClass(const PodInfo& a, const PodInfo& b) {
  if (a.priority != b.priority || !(a.requests == b.requests) || !(a.gpu == b.gpu)) return false;
  // A pod whose spec is compared with other pods (affinity, spread, ports,
  // volumes) gets verdicts of its own.
  if (a.pod_aware || b.pod_aware) return a.pod == b.pod;
  const Pod& pa = *a.pod;
  const Pod& pb = *b.pod;
  // Other pods' anti-affinity and spread selectors look at its labels and
  // namespace.
  if (pa.meta.namespace_ != pb.meta.namespace_ || pa.meta.labels != pb.meta.labels) return false;
  if (pa.preemption_policy != pb.preemption_policy || pa.scheduler_name != pb.scheduler_name) return false;
  if (a.unconstrained && b.unconstrained) return true;
  return SameConstraints(pa, pb);
}

size_t ClassHash(const PodInfo& pod) {
  Hasher h;
  const Resources& r = pod.requests;
  h.Mix(static_cast<uint64_t>(r.milli_cpu));
  h.Mix(static_cast<uint64_t>(r.memory));
  h.Mix(static_cast<uint64_t>(r.ephemeral_storage));
  for (const auto& [name, v] : r.scalars) {
    h.Mix(name);
    h.Mix(static_cast<uint64_t>(v));
  }
  h.Mix(static_cast<uint64_t>(pod.gpu.milli) << 32 | static_cast<uint32_t>(pod.gpu.count));
  h.Mix(static_cast<uint64_t>(pod.priority));
  const Pod& p = *pod.pod;
  h.Mix(p.scheduler_name);
  h.Mix(p.preemption_policy);
  // Constraints are compared by SameClass; their sizes and the nodeName
  // spread the constrained pods well enough.
  h.Mix(p.node_name);
  h.Mix(p.meta.namespace_);
  h.Mix(p.meta.labels.size());
  if (pod.pod_aware) h.Mix(reinterpret_cast<uintptr_t>(pod.pod));
  h.Mix(p.node_selector.size() << 16 | p.tolerations.size() << 1 | (HasRequiredAffinity(p) ? 1 : 0));
  for (const auto& [k, v] : p.node_selector) {
    h.Mix(k);
    h.Mix(v);
  }
  return h.h;
}

PodClassKey::PodClassKey(const PodInfo& pod) : info_(pod) {
  const Pod& p = *pod.pod;
  pod_.preemption_policy = p.preemption_policy;
  pod_.scheduler_name = p.scheduler_name;
  pod_.node_name = p.node_name;
  pod_.meta.namespace_ = p.meta.namespace_;
  pod_.meta.labels = p.meta.labels;
  pod_.node_selector = p.node_selector;
  pod_.tolerations = p.tolerations;
  if (HasRequiredAffinity(p)) {
    pod_.node_affinity.emplace();
    pod_.node_affinity->has_required = true;
    pod_.node_affinity->required = p.node_affinity->required;
  }
  pod_.priority = p.priority;
  info_.pod = &pod_;
  // The attempt's PreFilter state lives no longer than the attempt: a key
  // kept across attempts must not point at it.
  info_.cycle = nullptr;
}

uint32_t PodClassTable::Intern(const PodInfo& pod) {
  const size_t hash = ClassHash(pod);
  auto [lo, hi] = by_hash_.equal_range(hash);
  for (auto it = lo; it != hi; ++it)
    if (keys_[it->second].Matches(pod)) return it->second;
  const auto id = static_cast<uint32_t>(keys_.size());
  keys_.emplace_back(pod);
  by_hash_.emplace(hash, id);
  return id;
}

}  // namespace gpusched

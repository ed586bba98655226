// InterPodAffinity's queueing hints (plugin.go isSchedulableAfterPodChange,
// isSchedulableAfterNodeChange) and what explain says of a node it rejects.
#include <algorithm>

#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"

namespace gpusched {
namespace {

// podMatchesAllAffinityTerms over the pod's terms as GetAffinityTerms
// builds them (namespaceSelector not unrolled, matched against no labels).
bool MatchesAllRaw(const std::vector<PodAffinityTerm>& terms, const Pod& owner, const Pod& target) {
  if (terms.empty()) return false;
  for (const PodAffinityTerm& t : terms)
    if (!PodAffinityTermMatches(t, owner, target, nullptr)) return false;
  return true;
}

std::string PodName(const Pod& p) { return p.ns() + "/" + p.name(); }

}  // namespace

bool InterPodAffinity::QueueOnAssignedPodAdded(const PodInfo& pod, const Pod& added, const Node&) const {
  // An added pod may satisfy the pod's affinity (all of its terms).
  const Pod& p = *pod.pod;
  return p.pod_affinity && MatchesAllRaw(p.pod_affinity->RequiredAffinity(), p, added);
}

bool InterPodAffinity::QueueOnPodDeleted(const PodInfo& pod, const Pod& deleted) const {
  // Only a deleted pod matching the pod's anti-affinity (all its terms)
  // makes it schedulable; one whose own anti-affinity kept the pod away is
  // not looked at (plugin.go: "Pod is deleted").
  const Pod& p = *pod.pod;
  return p.pod_affinity && MatchesAllRaw(p.pod_affinity->RequiredAntiAffinity(), p, deleted);
}

bool InterPodAffinity::QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState&) const {
  const Pod& p = *pod.pod;
  if (!p.pod_affinity) return false;
  for (const auto* terms : {&p.pod_affinity->RequiredAffinity(), &p.pod_affinity->RequiredAntiAffinity()})
    for (const PodAffinityTerm& t : *terms)
      if (node.meta.labels.count(t.topology_key)) return true;
  return false;
}

std::string InterPodAffinity::ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const {
  const InterPodAffinityState* s = pod.cycle ? pod.cycle->Get<InterPodAffinityState>(this) : nullptr;
  if (s == nullptr || s->cluster == nullptr) return "";
  const ClusterState& cluster = *s->cluster;  // the one PreFilter counted
  FilterVerdict v;
  if (Check(pod, node, state, &v)) return "";
  const Pod& p = *pod.pod;
  const std::string_view reason = v.reasons.empty() ? std::string_view() : v.reasons.front().text;
  // The pods of the node's domain of `key` (the node's own first), in node
  // order, for which `pick` holds: the first one named.
  auto first_in_domain = [&](const std::string& key, auto pick) -> std::string {
    auto value = node.meta.labels.find(key);
    if (value == node.meta.labels.end()) return "";
    for (const BoundPod& b : state.pods)
      if (b.pod && pick(*b.pod)) return "node " + node.name() + " runs " + PodName(*b.pod);
    for (size_t i = 0; i < cluster.size(); ++i) {
      const Node& other = cluster.node(i);
      if (!cluster.present(i) || &other == &node || other.name() == node.name()) continue;
      auto ov = other.meta.labels.find(key);
      if (ov == other.meta.labels.end() || ov->second != value->second) continue;
      for (const BoundPod& b : cluster.state(i).pods)
        if (b.pod && pick(*b.pod)) return "node " + other.name() + " runs " + PodName(*b.pod);
    }
    return "";
  };
  if (reason == kReasonAffinityRulesNotMatch) {
    for (const AffinityTerm& t : s->affinity)
      if (!node.meta.labels.count(t.topology_key()))
        return "node " + node.name() + " has no label " + t.topology_key() + ", which this pod's affinity needs";
    std::string domains;
    for (const AffinityTerm& t : s->affinity) {
      auto it = node.meta.labels.find(t.topology_key());
      domains += (domains.empty() ? "" : ", ") + t.topology_key() + "=" + it->second;
    }
    return "no pod matching all of this pod's affinity terms runs in " + domains;
  }
  if (reason == kReasonAntiAffinityRulesNotMatch) {
    for (const AffinityTerm& t : s->anti_affinity) {
      std::string who = first_in_domain(t.topology_key(), [&](const Pod& e) { return t.Matches(e, nullptr); });
      if (!who.empty())
        return who + ", which this pod's anti-affinity forbids on the same " + t.topology_key();
    }
    return "";
  }
  // Existing pods' anti-affinity: a pod whose term matches this pod in the
  // node's domain of that term's key.
  std::vector<std::string> keys;
  for (const auto& t : s->existing)
    if (std::find(keys.begin(), keys.end(), t->term.topology_key) == keys.end()) keys.push_back(t->term.topology_key);
  for (const std::string& key : keys) {
    std::string who = first_in_domain(key, [&](const Pod& e) {
      if (!HasRequiredPodAntiAffinity(e)) return false;
      for (const PodAffinityTerm& t : e.pod_affinity->RequiredAntiAffinity())
        if (t.topology_key == key && PodAffinityTermMatches(t, e, p, s->namespace_labels)) return true;
      return false;
    });
    if (!who.empty()) return who + ", whose anti-affinity forbids this pod on the same " + key;
  }
  return "";
}

}  // namespace gpusched

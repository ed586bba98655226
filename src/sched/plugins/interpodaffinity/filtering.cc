// InterPodAffinity's PreFilter and Filter (filtering.go).
#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"

namespace gpusched {
namespace {

// What the pods `pods` of `node` add to the three counts (times `sign`):
// getExistingAntiAffinityCounts and getIncomingAffinityAntiAffinityCounts
// for one node, and updateWithPod for a dry run's changes.
void CountNodePods(const InterPodAffinityState& s, const Pod& incoming, const Node& node,
                   const std::vector<BoundPod>& pods, int64_t sign, TopologyCounts& existing, TopologyCounts& aff,
                   TopologyCounts& anti) {
  for (const BoundPod& b : pods) {
    // A pod known only by its requests has no labels or terms to compare.
    if (b.pod == nullptr) continue;
    const Pod& e = *b.pod;
    if (HasRequiredPodAntiAffinity(e))
      for (const PodAffinityTerm& t : e.pod_affinity->RequiredAntiAffinity())
        if (PodAffinityTermMatches(t, e, incoming, s.namespace_labels)) existing.AddOn(node, t.topology_key, sign);
    if (MatchesAllTerms(s.affinity, e))
      for (const AffinityTerm& t : s.affinity) aff.AddOn(node, t.topology_key(), sign);
    // The incoming pod's namespaceSelectors are unrolled: no namespace
    // labels needed.
    for (const AffinityTerm& t : s.anti_affinity)
      if (t.Matches(e, nullptr)) anti.AddOn(node, t.topology_key(), sign);
  }
}

// satisfyPodAffinity.
bool SatisfiesPodAffinity(const InterPodAffinityState& s, const CountsView& aff, const Pod& pod, const Node& node) {
  bool pods_exist = true;
  for (const AffinityTerm& t : s.affinity) {
    auto it = node.meta.labels.find(t.topology_key());
    // All topology labels must exist on the node.
    if (it == node.meta.labels.end()) return false;
    if (aff.Get(t.topology_key(), it->second) <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  // The first pod of a group with affinity to itself: no pod in the cluster
  // matches, and the pod matches its own terms.
  return aff.empty() && MatchesAllTerms(s.affinity, pod);
}

// satisfyPodAntiAffinity.
bool SatisfiesPodAntiAffinity(const InterPodAffinityState& s, const CountsView& anti, const Node& node) {
  if (anti.empty()) return true;
  for (const AffinityTerm& t : s.anti_affinity) {
    auto it = node.meta.labels.find(t.topology_key());
    if (it != node.meta.labels.end() && anti.Get(t.topology_key(), it->second) > 0) return false;
  }
  return true;
}

// The cluster's own node index of `node` when `state` is its state (not a
// dry run's copy); -1 otherwise, with `original` set to the node's index
// when it is in the cluster.
int64_t ClusterIndex(const ClusterState& cluster, const Node& node, const NodeState& state, int64_t& original) {
  original = -1;
  const std::vector<Node>& nodes = cluster.nodes();
  if (!nodes.empty() && &node >= nodes.data() && &node < nodes.data() + nodes.size()) {
    original = &node - nodes.data();
  } else {
    original = cluster.FindNode(node.name());
  }
  if (original >= 0 && &cluster.state(static_cast<size_t>(original)) == &state) return original;
  return -1;
}

}  // namespace

std::unique_ptr<PreFilterData> InterPodAffinity::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                           SchedStatus&) const {
  const Pod& p = *pod.pod;
  // Skip (upstream decides it after the counts: no existing anti-affinity
  // matched and the pod has no required terms); without any running pod
  // with required anti-affinity the first is known without counting.
  const bool has_terms = HasRequiredPodAffinityTerms(p);
  if (!has_terms && cluster.pods_with_required_anti_affinity() == 0) return nullptr;
  auto s = std::make_unique<InterPodAffinityState>();
  s->cluster = &cluster;
  const ApiObjects& objects = cluster.objects();
  if (p.pod_affinity) {
    s->affinity = ResolveTerms(p.pod_affinity->RequiredAffinity(), p, objects);
    s->anti_affinity = ResolveTerms(p.pod_affinity->RequiredAntiAffinity(), p, objects);
  }
  s->namespace_labels = objects.NamespaceLabels(p.ns());
  TopologyCounts unused_aff, unused_anti;
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    const NodeState& st = cluster.state(i);
    if (st.pods.empty()) continue;
    if (has_terms) {
      CountNodePods(*s, p, cluster.node(i), st.pods, 1, s->existing_anti_affinity_counts, s->affinity_counts,
                    s->anti_affinity_counts);
    } else {
      CountNodePods(*s, p, cluster.node(i), st.pods, 1, s->existing_anti_affinity_counts, unused_aff, unused_anti);
    }
  }
  if (!has_terms && s->existing_anti_affinity_counts.empty()) return nullptr;  // Skip
  return s;
}

bool InterPodAffinity::Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const {
  const InterPodAffinityState* s = pod.cycle ? pod.cycle->Get<InterPodAffinityState>(this) : nullptr;
  if (s == nullptr) return true;  // PreFilter skipped the pod
  // A dry run's copy of the node (preemption's victims removed, nominated
  // pods added): its pods' counts replace the node's own (AddPod/RemovePod).
  int64_t original = -1;
  TopologyCounts d_existing, d_aff, d_anti;
  bool copy = false;
  if (ClusterIndex(*s->cluster, node, state, original) < 0) {
    copy = true;
    if (original >= 0)
      CountNodePods(*s, *pod.pod, node, s->cluster->state(static_cast<size_t>(original)).pods, -1, d_existing, d_aff,
                    d_anti);
    CountNodePods(*s, *pod.pod, node, state.pods, 1, d_existing, d_aff, d_anti);
  }
  const CountsView existing(s->existing_anti_affinity_counts, copy ? &d_existing : nullptr);
  const CountsView aff(s->affinity_counts, copy ? &d_aff : nullptr);
  const CountsView anti(s->anti_affinity_counts, copy ? &d_anti : nullptr);
  if (!SatisfiesPodAffinity(*s, aff, *pod.pod, node)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonAffinityRulesNotMatch);
    return false;
  }
  if (!SatisfiesPodAntiAffinity(*s, anti, node)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonAntiAffinityRulesNotMatch);
    return false;
  }
  // satisfyExistingPodsAntiAffinity.
  if (!existing.empty() && existing.AnyPositiveOn(node)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonExistingAntiAffinityRulesNotMatch);
    return false;
  }
  return true;
}

}  // namespace gpusched

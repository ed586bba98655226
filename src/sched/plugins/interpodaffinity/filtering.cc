// InterPodAffinity's PreFilter and Filter (filtering.go).
//
// PreFilter's counts: the pod's required anti-affinity terms from the
// plugin's PodMatchIndex (one matcher per term), the existing pods'
// required anti-affinity from its AntiAffinityIndex (the distinct terms
// that match the pod), and the pod's required affinity (pods matching all
// of its terms) from every node's pods. With the index off, all three are
// counted from every node's pods: the reference the indexes must agree with.
#include <algorithm>

#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"

namespace gpusched {
namespace {

// getIncomingAffinityAntiAffinityCounts' affinity half for one node's pods
// (times `sign`), and updateWithPod's for a dry run's changes.
void CountAffinity(const InterPodAffinityState& s, const Node& node, const std::vector<BoundPod>& pods, int64_t sign,
                   TopologyCounts& aff) {
  for (const BoundPod& b : pods) {
    // A pod known only by its requests has no labels or terms to compare.
    if (b.pod == nullptr) continue;
    if (MatchesAllTerms(s.affinity, *b.pod))
      for (const AffinityTerm& t : s.affinity) aff.AddOn(node, t.topology_key(), sign);
  }
}

// The pods an incoming pod's term selects (AffinityTerm::Matches with no
// namespace labels: a namespaceSelector is unrolled, or empty).
PodMatcher MatcherOf(const AffinityTerm& t) {
  PodMatcher m;
  const PodAffinityTerm& term = *t.term;
  m.nothing = !term.label_selector.has_value();
  if (term.label_selector) m.selector = *term.label_selector;
  if (t.unrolled) {
    m.namespaces = term.namespaces;
    m.namespaces.insert(m.namespaces.end(), t.selected.begin(), t.selected.end());
  } else if (term.namespace_selector) {
    m.any_namespace = true;  // an empty selector matches every namespace's labels
  } else if (term.namespaces.empty()) {
    m.namespaces = {t.owner->ns()};
  } else {
    m.namespaces = term.namespaces;
  }
  std::sort(m.namespaces.begin(), m.namespaces.end());
  m.namespaces.erase(std::unique(m.namespaces.begin(), m.namespaces.end()), m.namespaces.end());
  return m;
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

// The node's domain of `domains`' key, -1 when it has no such label: by its
// index when it is the cluster's own Node (no label lookup), by its value
// otherwise (-2: a value no node of the cluster had).
int32_t DomainOf(const TopologyDomains& domains, const Node& node, int64_t index, bool own) {
  if (own) return domains.domain_of[static_cast<size_t>(index)];
  auto label = node.meta.labels.find(domains.key);
  if (label == node.meta.labels.end()) return -1;
  const int32_t d = domains.Find(label->second);
  return d >= 0 ? d : -2;
}

// satisfyPodAntiAffinity: a pod some term of the pod's anti-affinity
// selects runs in the node's domain of that term's key.
bool SatisfiesPodAntiAffinity(const InterPodAffinityState& s, const Node& node, int64_t index, bool own,
                              bool as_counted, const NodeState& state) {
  for (size_t k = 0; k < s.anti_affinity.size(); ++k) {
    const PodMatchCounts& c = *s.anti_counts[k];
    const PodMatchCounts::ByKey& by = *s.anti_by_key[k];
    const int32_t d = DomainOf(*by.domains, node, index, own);
    if (d == -1) continue;  // no such label on the node
    int64_t n = d >= 0 ? by.counts[static_cast<size_t>(d)] : 0;
    if (!as_counted)
      n += PodMatchIndex::CountOn(state.pods, c.matcher) - (index >= 0 ? c.per_node[static_cast<size_t>(index)] : 0);
    if (n > 0) return false;
  }
  return true;
}

// satisfyExistingPodsAntiAffinity: a pod whose required anti-affinity
// selects the pod runs in the node's domain of that term's key.
bool SatisfiesExistingPodsAntiAffinity(const InterPodAffinityState& s, const Pod& pod, const Node& node,
                                       int64_t index, bool own, bool as_counted, const NodeState& state) {
  // Per topology key of the node: what the matching terms count in its
  // domain, with a dry run's changes on the node itself.
  std::vector<std::pair<std::string_view, int64_t>> by_key;
  auto add = [&](std::string_view key, int64_t n) {
    for (auto& [k, v] : by_key)
      if (k == key) {
        v += n;
        return;
      }
    by_key.emplace_back(key, n);
  };
  for (const InterPodAffinityState::ExistingByKey& e : s.existing_by_key) {
    const int32_t d = DomainOf(*e.domains, node, index, own);
    if (d == -1) continue;  // no such label on the node
    int64_t n = d >= 0 ? e.counts[static_cast<size_t>(d)] : 0;
    if (as_counted) {
      if (n > 0) return false;
      continue;
    }
    if (index >= 0)
      for (const auto& t : s.existing)
        if (t->term.topology_key == e.domains->key) n -= t->OnNode(static_cast<size_t>(index));
    add(e.domains->key, n);
  }
  if (!as_counted) {
    for (const BoundPod& b : state.pods) {
      if (b.pod == nullptr || !HasRequiredPodAntiAffinity(*b.pod)) continue;
      for (const PodAffinityTerm& t : b.pod->pod_affinity->RequiredAntiAffinity())
        if (node.meta.labels.count(t.topology_key) && PodAffinityTermMatches(t, *b.pod, pod, s.namespace_labels))
          add(t.topology_key, 1);
    }
    for (const auto& [key, n] : by_key)
      if (n > 0) return false;
  }
  return true;
}

// The node's index in `cluster`, or -1; `own`: `node` is the cluster's own
// Node object, whose labels the index's domains were read from.
int64_t NodeIndex(const ClusterState& cluster, const Node& node, bool& own) {
  const std::vector<Node>& nodes = cluster.nodes();
  own = !nodes.empty() && &node >= nodes.data() && &node < nodes.data() + nodes.size();
  if (own) return &node - nodes.data();
  return cluster.FindNode(node.name());
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
  s->cluster_version = cluster.version();
  const ApiObjects& objects = cluster.objects();
  if (p.pod_affinity) {
    s->affinity = ResolveTerms(p.pod_affinity->RequiredAffinity(), p, objects);
    s->anti_affinity = ResolveTerms(p.pod_affinity->RequiredAntiAffinity(), p, objects);
  }
  s->namespace_labels = objects.NamespaceLabels(p.ns());
  const LabelMap* ns_labels = s->namespace_labels;
  auto matches_pod = [&](const CarriedTerm& t) {
    return PodAffinityTermMatches(t.term, t.owner_ns, p, ns_labels);
  };
  if (cluster.pods_with_required_anti_affinity() > 0) {
    if (use_index_) {
      s->existing = anti_index_.Terms(cluster, matches_pod);
    } else {
      AntiAffinityIndex fresh;  // counted afresh from every bound pod
      s->existing = fresh.Terms(cluster, matches_pod);
    }
  }
  if (!has_terms && s->existing.empty()) return nullptr;  // Skip
  // Their counts per domain, summed per topology key (upstream's
  // existingAntiAffinityCounts), dense for Check.
  for (const auto& t : s->existing) {
    auto e = std::find_if(s->existing_by_key.begin(), s->existing_by_key.end(),
                          [&](const auto& x) { return x.domains->key == t->term.topology_key; });
    if (e == s->existing_by_key.end()) {
      e = s->existing_by_key.insert(s->existing_by_key.end(), {t->domains, {}});
      e->counts.assign(t->domains->names.size(), 0);
    }
    for (const auto& [d, n] : t->per_domain) e->counts[static_cast<size_t>(d)] += n;
  }
  for (const AffinityTerm& t : s->anti_affinity) {
    const PodMatcher m = MatcherOf(t);
    if (use_index_) {
      s->anti_counts.push_back(match_index_.Get(cluster, m, {t.topology_key()}));
      continue;
    }
    auto c = std::make_shared<PodMatchCounts>();
    c->matcher = m;
    c->per_node.assign(cluster.size(), 0);
    PodMatchCounts::ByKey by{match_index_.Domains(cluster, t.topology_key()), {}};
    by.counts.assign(by.domains->names.size(), 0);
    for (size_t i = 0; i < cluster.size(); ++i) {
      if (!cluster.present(i)) continue;
      c->per_node[i] = PodMatchIndex::CountOn(cluster.state(i).pods, m);
      if (const int32_t d = by.domains->domain_of[i]; d >= 0) by.counts[static_cast<size_t>(d)] += c->per_node[i];
    }
    c->by_key.push_back(std::move(by));
    s->anti_counts.push_back(std::move(c));
  }
  for (size_t k = 0; k < s->anti_affinity.size(); ++k)
    s->anti_by_key.push_back(&s->anti_counts[k]->For(s->anti_affinity[k].topology_key()));
  if (!s->affinity.empty())
    for (size_t i = 0; i < cluster.size(); ++i)
      if (cluster.present(i)) CountAffinity(*s, cluster.node(i), cluster.state(i).pods, 1, s->affinity_counts);
  // Without required affinity, Check on a node as counted is a count of
  // its domain per term (SatisfiesPodAntiAffinity and
  // SatisfiesExistingPodsAntiAffinity with as_counted): no label passes,
  // any matching pod in the domain fails.
  if (use_index_ && s->affinity.empty()) {
    s->by_domain = true;
    s->tests_cluster = &cluster;
    s->tests_version = s->cluster_version;
    for (size_t k = 0; k < s->anti_affinity.size(); ++k)
      s->domain_tests.push_back({s->anti_by_key[k]->domains->domain_of.data(), s->anti_by_key[k]->counts.data(), 0, true});
    for (const InterPodAffinityState::ExistingByKey& e : s->existing_by_key)
      s->domain_tests.push_back({e.domains->domain_of.data(), e.counts.data(), 0, true});
  }
  return s;
}

bool InterPodAffinity::Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const {
  const InterPodAffinityState* s = pod.cycle ? pod.cycle->Get<InterPodAffinityState>(this) : nullptr;
  if (s == nullptr) return true;  // PreFilter skipped the pod
  const ClusterState& cluster = *s->cluster;
  bool own = false;
  const int64_t index = NodeIndex(cluster, node, own);
  // The node's pods are those PreFilter counted when its state is the
  // cluster's own and nothing changed since; otherwise (a dry run's copy,
  // victims removed or nominated pods added) its pods now replace what it
  // contributed (AddPod/RemovePod).
  const bool as_counted = index >= 0 && &cluster.state(static_cast<size_t>(index)) == &state &&
                          cluster.version() == s->cluster_version;
  if (!s->affinity.empty()) {
    TopologyCounts d_aff;
    if (!as_counted) {
      if (index >= 0) CountAffinity(*s, node, cluster.state(static_cast<size_t>(index)).pods, -1, d_aff);
      CountAffinity(*s, node, state.pods, 1, d_aff);
    }
    if (!SatisfiesPodAffinity(*s, CountsView(s->affinity_counts, as_counted ? nullptr : &d_aff), *pod.pod, node)) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonAffinityRulesNotMatch);
      return false;
    }
  }
  if (!SatisfiesPodAntiAffinity(*s, node, index, own, as_counted, state)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonAntiAffinityRulesNotMatch);
    return false;
  }
  if (!SatisfiesExistingPodsAntiAffinity(*s, *pod.pod, node, index, own, as_counted, state)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonExistingAntiAffinityRulesNotMatch);
    return false;
  }
  return true;
}

}  // namespace gpusched

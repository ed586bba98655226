// InterPodAffinity's PreScore, Score and NormalizeScore (scoring.go).
#include <limits>
#include <map>

#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"

namespace gpusched {
namespace {

// scoreMap: topology key -> value -> score.
using ScoreMap = std::map<std::string, std::map<std::string, int64_t, std::less<>>, std::less<>>;

struct PreScoreState {
  std::vector<AffinityTerm> preferred_affinity, preferred_anti_affinity;  // namespaces merged
  const LabelMap* namespace_labels = nullptr;
};

bool HasPreferredTerms(const Pod& p) {
  return p.pod_affinity &&
         (!p.pod_affinity->PreferredAffinity().empty() || !p.pod_affinity->PreferredAntiAffinity().empty());
}

// processTerm: `weight * multiplier` on (key, node's value) when `target`
// matches the term and the node has the key. `any` records that something
// was (upstream's topoScore no longer empty).
void ProcessTerm(ScoreMap& m, const std::string& key, bool matches, int32_t weight, const Node& node,
                 int32_t multiplier, bool& any) {
  if (!matches) return;
  auto it = node.meta.labels.find(key);
  if (it == node.meta.labels.end()) return;
  m[key][it->second] += static_cast<int64_t>(weight * multiplier);
  any = true;
}

// processExistingPod.
void ProcessExistingPod(const PreScoreState& s, const InterPodAffinityArgs& args, const Pod& existing,
                        const Node& node, const Pod& incoming, ScoreMap& m, bool& any) {
  if (node.meta.labels.empty()) return;
  // The incoming pod's preferred terms (their namespaceSelectors merged,
  // so no namespace labels) matched by the existing pod.
  for (const AffinityTerm& t : s.preferred_affinity)
    ProcessTerm(m, t.topology_key(), t.Matches(existing, nullptr), t.weight, node, 1, any);
  for (const AffinityTerm& t : s.preferred_anti_affinity)
    ProcessTerm(m, t.topology_key(), t.Matches(existing, nullptr), t.weight, node, -1, any);
  if (!existing.pod_affinity) return;
  const PodAffinitySpec& e = *existing.pod_affinity;
  // The existing pod's required affinity, with hardPodAffinityWeight.
  if (args.hard_pod_affinity_weight > 0)
    for (const PodAffinityTerm& t : e.RequiredAffinity())
      ProcessTerm(m, t.topology_key, PodAffinityTermMatches(t, existing, incoming, s.namespace_labels),
                  args.hard_pod_affinity_weight, node, 1, any);
  for (const WeightedPodAffinityTerm& w : e.PreferredAffinity())
    ProcessTerm(m, w.term.topology_key, PodAffinityTermMatches(w.term, existing, incoming, s.namespace_labels),
                w.weight, node, 1, any);
  for (const WeightedPodAffinityTerm& w : e.PreferredAntiAffinity())
    ProcessTerm(m, w.term.topology_key, PodAffinityTermMatches(w.term, existing, incoming, s.namespace_labels),
                w.weight, node, -1, any);
}

// The topology scores of PreScore over every node's pods; false when no
// node contributed anything (upstream's Skip). With `stop_early`, returns
// at the first contribution (PreScore only asks whether there is one).
bool TopologyScore(const InterPodAffinityArgs& args, const Pod& pod, const ClusterState& cluster, bool stop_early,
                   ScoreMap& m) {
  PreScoreState s;
  const ApiObjects& objects = cluster.objects();
  const bool has_constraints = HasPreferredTerms(pod);
  if (has_constraints) {
    s.preferred_affinity = ResolveTerms(pod.pod_affinity->PreferredAffinity(), pod, objects);
    s.preferred_anti_affinity = ResolveTerms(pod.pod_affinity->PreferredAntiAffinity(), pod, objects);
  }
  s.namespace_labels = objects.NamespaceLabels(pod.ns());
  bool any = false;
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    const Node& node = cluster.node(i);
    for (const BoundPod& b : cluster.state(i).pods) {
      // Unless the pod has preferred terms, only pods with affinity count.
      if (b.pod == nullptr || (!has_constraints && !HasPodAffinity(*b.pod))) continue;
      ProcessExistingPod(s, args, *b.pod, node, pod, m, any);
      if (any && stop_early) return true;
    }
  }
  return any;
}

}  // namespace

bool InterPodAffinity::PreScore(const PodInfo& pod, const ClusterState& cluster) const {
  const bool has_constraints = HasPreferredTerms(*pod.pod);
  // Optionally ignore the existing pods' preferences when the pod has none.
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) return false;
  // Without preferred terms only pods with affinity contribute, and of
  // their terms only required affinity and preferred ones: none, Skip.
  if (!has_constraints && cluster.pods_with_scored_affinity() == 0) return false;
  ScoreMap m;
  return TopologyScore(args_, *pod.pod, cluster, /*stop_early=*/true, m);
}

int64_t InterPodAffinity::Score(const PodInfo&, const Node&, const NodeState&) const {
  // ScoreNodes computes the pod's topology scores once; a node alone has
  // no score of its own.
  return 0;
}

void InterPodAffinity::ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                                  std::vector<int64_t>& scores) const {
  ScoreMap m;
  TopologyScore(args_, *pod.pod, cluster, /*stop_early=*/false, m);
  for (size_t k = 0; k < nodes.size(); ++k) {
    const Node& node = cluster.node(nodes[k]);
    int64_t score = 0;
    for (const auto& [key, values] : m) {
      auto it = node.meta.labels.find(key);
      if (it == node.meta.labels.end()) continue;
      auto v = values.find(it->second);
      if (v != values.end()) score += v->second;
    }
    scores[k] = score;
  }
}

void InterPodAffinity::NormalizeScore(const PodInfo&, std::vector<int64_t>& scores) const {
  // Min-max over the scored nodes, to [0, MaxNodeScore]; all equal: 0.
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (int64_t s : scores) {
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  const int64_t diff = hi - lo;
  for (int64_t& s : scores) {
    double f = 0;
    if (diff > 0) f = static_cast<double>(kMaxNodeScore) * (static_cast<double>(s - lo) / static_cast<double>(diff));
    s = static_cast<int64_t>(f);
  }
}

}  // namespace gpusched

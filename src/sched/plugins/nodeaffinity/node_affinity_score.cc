// NodeAffinity scoring: pkg/scheduler/framework/plugins/nodeaffinity/
// node_affinity.go (PreScore, Score, NormalizeScore) with
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity
// PreferredSchedulingTerms.Score. The filter half is in node_affinity.cc.
//
// The args' addedAffinity preferred terms count for every pod. Not modelled:
// the Error status upstream PreScore returns for a preferred term of the pod
// that fails to parse (an invalid label key, Gt/Lt with a non-integer value):
// here such a term just never matches.
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"

#include "gpusched/sched/plugins/normalize_score.h"

namespace gpusched {

bool NodeAffinityPlugin::PreScore(const PodInfo& pod, const ClusterState&) const {
  // "NodeAffinity Score has nothing to do with the Pod." Upstream skips when
  // preferredDuringSchedulingIgnoredDuringExecution is nil; an explicitly
  // empty list is scored (all 0) instead, which adds the same 0 to every node.
  const auto& affinity = pod.pod->node_affinity;
  return added_preferred_ || (affinity.has_value() && !affinity->preferred.empty());
}

int64_t NodeAffinityPlugin::Score(const PodInfo& pod, const Node& node, const NodeState&) const {
  int64_t count = 0;
  for (const PreferredSchedulingTerm& term : added_preferred_terms_)
    if (MatchesNodeSelectorTerm(term.preference, node)) count += term.weight;
  const auto& affinity = pod.pod->node_affinity;
  if (!affinity.has_value()) return count;
  for (const PreferredSchedulingTerm& term : affinity->preferred) {
    // NewPreferredSchedulingTerms drops terms of weight 0 and empty terms;
    // MatchesNodeSelectorTerm never matches an empty term.
    if (term.weight == 0) continue;
    if (MatchesNodeSelectorTerm(term.preference, node)) count += term.weight;
  }
  return count;
}

void NodeAffinityPlugin::NormalizeScore(const PodInfo&, std::vector<int64_t>& scores) const {
  DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
}

}  // namespace gpusched

// NodeAffinity filter: pkg/scheduler/framework/plugins/nodeaffinity. The pod
// must match spec.nodeSelector (every key a node label with that value) and,
// when set, one of the required node selector terms
// (k8s.io/component-helpers/scheduling/corev1 RequiredNodeAffinity.Match).
#include "gpusched/sched/filters.h"

namespace gpusched {

SchedStatus NodeAffinityFilter::Filter(const PodInfo& pod, const Node& node, const NodeState&) const {
  for (const auto& [key, value] : pod.pod->node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return SchedStatus::Unresolvable(kReasonNodeAffinity);
  }
  const auto& aff = pod.pod->node_affinity;
  if (aff && aff->has_required && !MatchesAnyNodeSelectorTerm(aff->required, node))
    return SchedStatus::Unresolvable(kReasonNodeAffinity);
  return SchedStatus::Success();
}

}  // namespace gpusched

// NodeAffinity filter: pkg/scheduler/framework/plugins/nodeaffinity. The pod
// must match spec.nodeSelector (every key a node label with that value) and,
// when set, one of the required node selector terms
// (k8s.io/component-helpers/scheduling/corev1 RequiredNodeAffinity.Match).
#include "gpusched/sched/plugins/node_affinity.h"

namespace gpusched {

bool NodeAffinityFilter::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  bool ok = true;
  for (const auto& [key, value] : pod.pod->node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) {
      ok = false;
      break;
    }
  }
  const auto& aff = pod.pod->node_affinity;
  if (ok && aff && aff->has_required && !MatchesAnyNodeSelectorTerm(aff->required, node)) ok = false;
  if (!ok && why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonNodeAffinity);
  return ok;
}

}  // namespace gpusched

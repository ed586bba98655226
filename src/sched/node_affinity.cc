// NodeAffinity filter: pkg/scheduler/framework/plugins/nodeaffinity, the
// spec.nodeSelector part (every key must be a node label with that value).
#include "gpusched/sched/filters.h"

namespace gpusched {

SchedStatus NodeAffinityFilter::Filter(const PodInfo& pod, const Node& node, const NodeState&) const {
  for (const auto& [key, value] : pod.pod->node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return SchedStatus::Unresolvable(kReasonNodeAffinity);
  }
  return SchedStatus::Success();
}

}  // namespace gpusched

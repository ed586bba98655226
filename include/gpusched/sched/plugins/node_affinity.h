// NodeAffinity's filter (pkg/scheduler/framework/plugins/nodeaffinity): the
// node must match the pod's spec.nodeSelector and, when set, one of its
// required node affinity terms. Its Score half is node_affinity_score.h.
// Reason text: Kubernetes v1.35 (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODE_AFFINITY_H_
#define GPUSCHED_SCHED_PLUGINS_NODE_AFFINITY_H_

#include <string_view>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector";

class NodeAffinityFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NodeAffinity"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODE_AFFINITY_H_

// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity/
// node_affinity.go). Filter: the node must match the pod's spec.nodeSelector
// and, when set, one of its required node affinity terms. Score (the pod's
// preferred terms only): the sum of the weights of the preferred terms that
// match the node; NormalizeScore = DefaultNormalizeScore(MaxNodeScore,
// reverse = false); PreScore skips a pod with no preferred terms. The
// plugin's addedAffinity arg is not supported. Filter in node_affinity.cc,
// Score in node_affinity_score.cc. Reason text: Kubernetes v1.35
// (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
#define GPUSCHED_SCHED_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector";

// Named NodeAffinityPlugin: NodeAffinity is the pod's field (model/node_affinity.h).
class NodeAffinityPlugin : public FilterPlugin, public ScorePlugin {
 public:
  std::string_view Name() const override { return names::kNodeAffinity; }

  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // isSchedulableAfterNodeChange: an added node that matches the pod's
  // nodeSelector and required terms (requiredNodeAffinity.Match); registered
  // for node events only.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override {
    return Check(pod, node, state, nullptr);
  }
  bool QueueOnAssignedPodDeleted() const override { return false; }
  // "not matching its nodeSelector or node affinity", and when the pod asks
  // for a label the kubelet sets on every node but no node carries, that
  // the Node objects were written by hand.
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;

  bool PreScore(const PodInfo& pod, const ClusterState&) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

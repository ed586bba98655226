// ScorePlugin: the PreScore, Score and NormalizeScore extension points of the
// scheduling framework for one plugin. Scores are int64 in
// [MinNodeScore, MaxNodeScore] = [0, 100] after normalization; the framework
// multiplies each by the plugin's weight and sums them.
#ifndef GPUSCHED_SCHED_API_SCORE_PLUGIN_H_
#define GPUSCHED_SCHED_API_SCORE_PLUGIN_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/api/plugin.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// kMaxNodeScore, kMinNodeScore and kMaxCustomPriorityScore: config/scheduler_config.h.

class ScorePlugin : public virtual Plugin {
 public:
  // PreScore. Returning false is upstream's Skip status: the plugin takes no
  // part in scoring this pod (no score, and its weight is not applied).
  // `cluster` is what the plugin may need to decide (e.g. whether any
  // running pod has preferred affinity terms).
  virtual bool PreScore(const PodInfo& pod, const ClusterState& cluster) const {
    (void)pod, (void)cluster;
    return true;
  }
  // Raw score of `pod` on one feasible node.
  virtual int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const = 0;
  // Raw scores of `pod` on each of `nodes` into `scores` (same size): what
  // Score gives each, with the pod-only work done once and one virtual call
  // per plugin instead of one per node (a pod is scored on hundreds).
  virtual void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                          std::vector<int64_t>& scores) const {
    for (size_t k = 0; k < nodes.size(); ++k) scores[k] = Score(pod, cluster.node(nodes[k]), cluster.state(nodes[k]));
  }
  // NormalizeScore over the raw scores of all scored nodes, in place. The
  // default is no normalization (upstream: ScoreExtensions() == nil).
  virtual void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const {
    (void)pod;
    (void)scores;
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_SCORE_PLUGIN_H_

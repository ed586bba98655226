// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration/
// taint_toleration.go). Filter: every NoSchedule and NoExecute taint of the
// node must be tolerated by the pod. Score: the number of PreferNoSchedule
// taints the pod's tolerations (those with effect PreferNoSchedule or empty)
// do not tolerate; NormalizeScore = DefaultNormalizeScore(MaxNodeScore,
// reverse = true). Filter in taint_toleration.cc, Score in
// taint_toleration_score.cc. Reason text: Kubernetes v1.35
// (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
#define GPUSCHED_SCHED_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_names.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonUntoleratedTaint = "node(s) had untolerated taint(s)";

class TaintToleration : public FilterPlugin, public ScorePlugin {
 public:
  std::string_view Name() const override { return names::kTaintToleration; }

  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // isSchedulableAfterNodeChange: an added node without a taint the pod does
  // not tolerate; registered for node events only.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override {
    return Check(pod, node, state, nullptr);
  }
  bool QueueOnAssignedPodDeleted() const override { return false; }
  std::string ExclusionPhrase(const PodInfo&, const ClusterState&, int) const override {
    return "with a NoSchedule/NoExecute taint the pod does not tolerate (add a toleration)";
  }

  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_

// TaintToleration scoring: pkg/scheduler/framework/plugins/tainttoleration/
// taint_toleration.go (PreScore, Score, NormalizeScore). The filter half is
// in taint_toleration.cc.
#include "gpusched/sched/plugins/tainttoleration/taint_toleration.h"

#include "gpusched/sched/plugins/normalize_score.h"

namespace gpusched {

namespace {

// getAllTolerationPreferNoSchedule: "Empty effect means all effects which
// includes PreferNoSchedule, so we need to collect it as well."
std::vector<Toleration> PreferNoScheduleTolerations(const PodInfo& pod) {
  std::vector<Toleration> out;
  for (const Toleration& t : pod.pod->tolerations) {
    if (t.effect.empty() || t.effect == kTaintEffectPreferNoSchedule) out.push_back(t);
  }
  return out;
}

// countIntolerableTaintsPreferNoSchedule.
int64_t IntolerablePreferNoSchedule(const std::vector<Toleration>& prefer_no_schedule, const Node& node) {
  int64_t intolerable = 0;
  for (const Taint& taint : node.taints) {
    if (taint.effect != kTaintEffectPreferNoSchedule) continue;
    if (!TolerationsTolerateTaint(prefer_no_schedule, taint)) ++intolerable;
  }
  return intolerable;
}

}  // namespace

int64_t TaintToleration::Score(const PodInfo& pod, const Node& node, const NodeState&) const {
  return IntolerablePreferNoSchedule(PreferNoScheduleTolerations(pod), node);
}

void TaintToleration::ScoreNodes(const PodInfo& pod, const ClusterState& cluster,
                                 const std::vector<size_t>& nodes, std::vector<int64_t>& scores) const {
  const std::vector<Toleration> prefer_no_schedule = PreferNoScheduleTolerations(pod);
  for (size_t k = 0; k < nodes.size(); ++k) {
    const size_t i = nodes[k];
    scores[k] = cluster.state(i).prefer_no_schedule_taint ? IntolerablePreferNoSchedule(prefer_no_schedule, cluster.node(i))
                                                          : 0;
  }
}

void TaintToleration::NormalizeScore(const PodInfo&, std::vector<int64_t>& scores) const {
  DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
}

}  // namespace gpusched

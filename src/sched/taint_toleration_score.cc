// TaintToleration scoring: pkg/scheduler/framework/plugins/tainttoleration/
// taint_toleration.go (PreScore, Score, NormalizeScore). The filter half is
// in taint_toleration.cc.
#include "gpusched/sched/score_plugins.h"

namespace gpusched {

int64_t TaintTolerationScorer::Score(const PodInfo& pod, const Node& node, const NodeState&) const {
  // getAllTolerationPreferNoSchedule: "Empty effect means all effects which
  // includes PreferNoSchedule, so we need to collect it as well."
  std::vector<Toleration> prefer_no_schedule;
  for (const Toleration& t : pod.pod->tolerations) {
    if (t.effect.empty() || t.effect == kTaintEffectPreferNoSchedule) prefer_no_schedule.push_back(t);
  }
  // countIntolerableTaintsPreferNoSchedule.
  int64_t intolerable = 0;
  for (const Taint& taint : node.taints) {
    if (taint.effect != kTaintEffectPreferNoSchedule) continue;
    if (!TolerationsTolerateTaint(prefer_no_schedule, taint)) ++intolerable;
  }
  return intolerable;
}

void TaintTolerationScorer::NormalizeScore(const PodInfo&, std::vector<int64_t>& scores) const {
  DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
}

}  // namespace gpusched

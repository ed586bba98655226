// TaintToleration's filter (pkg/scheduler/framework/plugins/tainttoleration):
// every NoSchedule and NoExecute taint of the node must be tolerated by the
// pod. Its Score half is taint_toleration_score.h. Reason text: Kubernetes
// v1.35 (gpusched/sched/api/version.h).
#ifndef GPUSCHED_SCHED_PLUGINS_TAINT_TOLERATION_H_
#define GPUSCHED_SCHED_PLUGINS_TAINT_TOLERATION_H_

#include <string_view>

#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

inline constexpr const char* kReasonUntoleratedTaint = "node(s) had untolerated taint(s)";

class TaintTolerationFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "TaintToleration"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true}; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_TAINT_TOLERATION_H_

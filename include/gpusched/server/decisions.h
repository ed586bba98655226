// ExtenderDecisions: the extender's three questions answered by the parts of
// the Scheduler that `schedule` and `simulate` decide with (one decision
// path, no copy of any rule):
//  - filter: a node's verdict is the Scheduler's filter chain
//    (CheckFilters over Scheduler::filters(), devices and shares included),
//    as ScheduleOne's scan runs it; the reasons are joined as upstream's
//    Status.Message() joins them, and an UnschedulableAndUnresolvable code
//    puts the node in FailedAndUnresolvableNodes;
//  - prioritize: the Scheduler's policy chooses among the feasible nodes
//    exactly as ScheduleOne's Commit would (Policy::Select), and its scores
//    are mapped onto extender/v1's 0..10: the node the policy would pick gets
//    10, so that kube-scheduler (score × weight × 10, added to its own
//    plugins' scores, which deploy/ disables) binds where gpusched would;
//    the others keep the policy's order on 0..9. A policy that scores nodes
//    (kube-default's plugins; FGD's 100·sigmoid(ΔF/1000) and the FGD paper's
//    other scores, explain's totals) has its scores min-max scaled onto
//    0..9, 9·(s − min)/(max − min) rounded down (all equal: 9), which keeps
//    their order and ties; a policy that only picks (first-fit, best-fit,
//    worst-fit) is asked again without its previous picks, and its 2nd..10th
//    picks score 9..1, the rest 0 (the fast path ranks them in one pass,
//    Policy::SelectInTurn, with the same answer). With one feasible node kube-scheduler does
//    not call prioritize, as ScheduleOne chooses it without scoring;
//  - bind: the devices on the chosen node are the policy's (SelectGpus), as
//    Commit takes them.
// The policy's random draws (ties, the random policy) come from this
// object's generator, seeded as the Scheduler's. Not thread-safe.
#ifndef GPUSCHED_SERVER_DECISIONS_H_
#define GPUSCHED_SERVER_DECISIONS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <optional>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/util/random.h"

namespace gpusched {

inline constexpr int64_t kMaxExtenderScore = 10;  // extender/v1 MaxExtenderPriority

struct NodeVerdict {
  bool passed = false;
  bool unresolvable = false;  // UnschedulableAndUnresolvable
  std::string reason;         // when !passed
};

class ExtenderDecisions {
 public:
  // `plain`: the reference path (the policy asked for each pick in turn,
  // Policy::SelectInTurnPlain) that the fast one is tested against.
  ExtenderDecisions(const Scheduler& scheduler, uint64_t seed, bool plain = false)
      : scheduler_(scheduler), rng_(seed), plain_(plain), policy_state_(scheduler.policy().NewState()) {}

  NodeVerdict Filter(const PodInfo& pod, const ClusterState& cluster, size_t node);
  // The profile's PreFilters for `pod` (Scheduler::PreFilter): false when
  // each skipped it, and Filter answers as always. True: the pod's answers
  // depend on other pods (or PreFilter rejected it), so they are neither
  // cached nor shared with its class; FilterPreFiltered answers each node
  // until the next PreFilter call.
  bool PreFilter(const PodInfo& pod, const ClusterState& cluster);
  NodeVerdict FilterPreFiltered(const ClusterState& cluster, size_t node);

  // Scores (0..10) of `feasible` (node indices that pass the filters, in
  // request order), into `scores` (same size).
  void Prioritize(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                  std::vector<int64_t>& scores);

  std::vector<int32_t> ChooseDevices(const PodInfo& pod, const ClusterState& cluster, size_t node);

 private:
  // scores[k] of feasible[k] from picks_ (the policy's picks in order).
  void ScorePicks(const ClusterState& cluster, const std::vector<size_t>& feasible, std::vector<int64_t>& scores);

  const Scheduler& scheduler_;
  Rng rng_;
  bool plain_;
  // This run of the scheduler's policy: the extender's own (it never
  // schedules through the Scheduler, whose run it would otherwise share).
  std::unique_ptr<PolicyState> policy_state_;
  FilterVerdict verdict_;
  // The last PreFilter's pod (with its cycle) and rejection.
  std::optional<PodInfo> prefiltered_;
  CycleState cycle_;
  SchedStatus reject_;
  PodExplain explain_;  // reused: sized to the cluster
  std::vector<size_t> picks_;
  std::vector<int64_t> node_score_;  // by node, all 0 between calls
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_DECISIONS_H_

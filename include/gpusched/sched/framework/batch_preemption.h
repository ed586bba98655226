// DefaultPreemption inside a `schedule` batch: when a pod of a profile with
// DefaultPreemption fits nowhere, run the PostFilter (sched/
// default_preemption.h) on the cluster as it stands, with the input's
// PodDisruptionBudgets (their status, or disruptionsAllowed computed from
// the pods bound at that moment, all counted healthy), and evict the chosen
// victims from the cluster. kube-scheduler then nominates the node and
// retries the pod once the victims are gone; the batch has no clock, so the
// victims are gone at once and the caller retries right away (no pod runs
// in between, so no other pod's nomination is outstanding).
#ifndef GPUSCHED_SCHED_FRAMEWORK_BATCH_PREEMPTION_H_
#define GPUSCHED_SCHED_FRAMEWORK_BATCH_PREEMPTION_H_

#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pdb.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/framework/scheduler.h"

namespace gpusched {

struct BatchPreemptionInputs {
  const std::vector<const Pod*>* pods = nullptr;  // BoundPod::id is the index into these
  const std::vector<const PodDisruptionBudget*>* pdbs = nullptr;
  const ControllerScales* scales = nullptr;
  // DefaultPreemptionArgs (upstream's defaults).
  int32_t min_candidate_nodes_percentage = 10;
  int32_t min_candidate_nodes_absolute = 100;
  // The input's gangs as preemption sees them (sched/framework/
  // gang_preemption.h), null without gangs; with kWhole a victim's gang
  // goes with it.
  const PreemptionGangs* gangs = nullptr;
  PreemptGangs preempt_gangs = PreemptGangs::kUpstream;
  // When set, PreemptInBatch appends the gangs (PreemptionGangs indices)
  // the eviction breaks.
  std::vector<int32_t>* broken = nullptr;
  // When set, PreemptInBatch stores the PostFilter's message ("preemption:
  // ..." when it nominated no node, such as a pod not eligible to preempt).
  std::string* message = nullptr;
};

// Runs the PostFilter for `pod` (which just failed on every node under
// `scheduler`'s filters) and, when it nominates a node, unbinds the victims
// from `cluster` and returns the result (victims in eviction order; with
// kWhole, its co-victims are still bound: the caller unbinds them once the
// pod is placed on the nominated node).
// nullopt when preemption does not help; `cluster` is then unchanged.
std::optional<PreemptionResult> PreemptInBatch(const PodInfo& pod, ClusterState& cluster, const Scheduler& scheduler,
                                               const BatchPreemptionInputs& in);

struct BatchResult;

// ScheduleBatch's step for a pod whose first attempt failed (with
// `first_attempt`, its FitError message) although preemption would help:
// PreemptInBatch, then the victims leave `out`'s
// placements for out.preempted and the pod is scheduled again and placed
// (with the victims and its first attempt recorded; `first_explain` is moved
// there). False when nothing was evicted (the caller reports the pod pending).
bool PlaceByPreemption(const PodInfo& pod, ClusterState& cluster, Scheduler& scheduler,
                       const BatchPreemptionInputs& in, const std::string& first_attempt,
                       std::optional<PodExplain>& first_explain, BatchResult& out);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_BATCH_PREEMPTION_H_

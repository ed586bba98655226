// ScheduleBatch: schedules a set of pods onto a cluster in one pass, the way
// `gpusched schedule` does. Pods that already name a node (spec.nodeName)
// are admitted first, as the kubelet would admit them; then the rest go, in
// queue order, to the Scheduler of the profile their spec.schedulerName names,
// unless a check before scheduling holds them (sched/framework/pre_enqueue.h: no such
// profile, scheduling gates, HAMi's vGPUs, DRA claims). Every pod comes out
// placed, pending (with kube-scheduler's message and a diagnosis), refused, or
// preempted (evicted by DefaultPreemption for a higher-priority pod, which is
// then placed where its victims were: sched/framework/batch_preemption.h).
#ifndef GPUSCHED_SCHED_FRAMEWORK_BATCH_H_
#define GPUSCHED_SCHED_FRAMEWORK_BATCH_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pdb.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/framework/queue_order.h"
#include "gpusched/sched/framework/scheduler.h"

namespace gpusched {

struct BatchResult {
  struct Placed {
    size_t pod;  // index into the input pods
    size_t node;
    std::vector<int32_t> gpus;
    bool preexisting = false;  // was already bound through spec.nodeName
    std::optional<PodExplain> explain;
    // --- Preemption ---
    // Placed after DefaultPreemption evicted these pods (input indices, in
    // eviction order); its first attempt's FitError message and explain.
    std::vector<size_t> preempted = {};
    std::string first_attempt = {};
    std::optional<PodExplain> first_attempt_explain = std::nullopt;
    // --- end preemption ---
    // DynamicResources: the pod's claims with their devices (spec.resourceClaims order).
    std::vector<ClaimDevices> claims = {};
  };
  // A pod evicted by DefaultPreemption to make room for `by` on `node`: it
  // no longer runs (a placement it had is gone from `placements`).
  struct Preempted {
    size_t pod;
    size_t node;
    size_t by;  // the preemptor's input index
  };
  // A gang an eviction left below minCount of its members placed, after it
  // had them (sched/framework/gang_preemption.h).
  struct BrokenGang {
    const Gang* gang;
    size_t by;  // the preemptor's input index
  };
  struct Pending {
    size_t pod;
    std::string message;  // kube-scheduler's FitError text ("" if no scheduler handles the pod)
    Diagnosis diagnosis;
    std::optional<PodExplain> explain;
  };
  struct Refused {
    size_t pod;
    std::string error;  // why a pre-bound pod cannot run where it is bound
  };
  std::vector<Placed> placements;  // pre-bound first, then in scheduling order
  std::vector<Pending> pending;    // in scheduling order
  std::vector<Refused> refused;
  std::vector<Preempted> preempted;  // in eviction order
  std::vector<BrokenGang> broken_gangs;  // in preemption order
  // Every input pod's PodInfo (its requests and GPU request worked out
  // once), by input index: what the report reads of a pod's request.
  std::vector<PodInfo> pod_infos;
};

// A profile: the schedulerName it serves and its Scheduler.
using ProfileSchedulers = std::vector<std::pair<std::string, Scheduler*>>;

struct BatchOptions {
  QueueOrder order = QueueOrder::kFifo;
  bool explain = false;  // fill Placed::explain / Pending::explain for every pod
  // Fill them for this input pod only (`gpusched explain POD`): one pod's
  // per-node record instead of every pod's. The other pods take the same
  // decision path as without explain; the explained pod's decision is the
  // one the fast paths make (they are tested against the plain scan).
  std::optional<size_t> explain_pod = std::nullopt;
  // The input's resource.k8s.io objects, for pods with resource claims
  // (sched/plugins/dynamicresources/dynamic_resources.h); null when there are none.
  const DraObjects* dra = nullptr;
  // The input's gangs and which profiles enforce them (sched/framework/gang_batch.h):
  // an enforced gang is placed all or nothing, when its first member comes
  // up in the queue; null: every pod on its own.
  const GangSet* gangs = nullptr;
  const GangServing* gang_serving = nullptr;
  // PodDisruptionBudgets and the controllers' scales, read by preemption
  // (profiles with DefaultPreemption); none when null.
  const std::vector<const PodDisruptionBudget*>* pdbs = nullptr;
  const ControllerScales* controller_scales = nullptr;
  // --preempt-gangs (sched/framework/gang_preemption.h): with kWhole a
  // victim's gang loses every member it needs (read from `gangs`).
  PreemptGangs preempt_gangs = PreemptGangs::kUpstream;
};

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster,
                          const ProfileSchedulers& schedulers, const BatchOptions& options);

// One profile serving "default-scheduler".
BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster, Scheduler& scheduler,
                          QueueOrder order);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_BATCH_H_

// ScheduleBatch: schedules a set of pods onto a cluster in one pass, the way
// `gpusched schedule` does. Pods that already name a node (spec.nodeName)
// are admitted first, as the kubelet would admit them; then the rest go, in
// queue order, to the Scheduler of the profile their spec.schedulerName names,
// unless a check before scheduling holds them (sched/pre_enqueue.h: no such
// profile, scheduling gates, HAMi's vGPUs, DRA claims). Every pod comes out
// placed, pending (with kube-scheduler's message and a diagnosis) or refused.
#ifndef GPUSCHED_SCHED_FRAMEWORK_BATCH_H_
#define GPUSCHED_SCHED_FRAMEWORK_BATCH_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/sched/diagnosis/diagnosis.h"
#include "gpusched/sched/api/explain.h"
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
  // (sched/dynamic_resources.h); null when there are none.
  const DraObjects* dra = nullptr;
};

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster,
                          const ProfileSchedulers& schedulers, const BatchOptions& options);

// One profile serving "default-scheduler".
BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster, Scheduler& scheduler,
                          QueueOrder order);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_BATCH_H_

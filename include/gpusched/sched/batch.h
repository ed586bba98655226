// ScheduleBatch: schedules a set of pods onto a cluster in one pass, the way
// `gpusched schedule` does. Pods that already name a node (spec.nodeName)
// are admitted first, as the kubelet would admit them; then the rest go
// through the Scheduler in queue order. Every pod comes out placed, pending
// (with kube-scheduler's message and a diagnosis) or refused.
#ifndef GPUSCHED_SCHED_BATCH_H_
#define GPUSCHED_SCHED_BATCH_H_

#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/diagnosis.h"
#include "gpusched/sched/queue_order.h"
#include "gpusched/sched/scheduler.h"

namespace gpusched {

struct BatchResult {
  struct Placed {
    size_t pod;  // index into the input pods
    size_t node;
    std::vector<int32_t> gpus;
    bool preexisting = false;  // was already bound through spec.nodeName
  };
  struct Pending {
    size_t pod;
    std::string message;  // kube-scheduler's FitError text ("" if no scheduler handles the pod)
    Diagnosis diagnosis;
  };
  struct Refused {
    size_t pod;
    std::string error;  // why a pre-bound pod cannot run where it is bound
  };
  std::vector<Placed> placements;  // pre-bound first, then in scheduling order
  std::vector<Pending> pending;    // in scheduling order
  std::vector<Refused> refused;
};

// Schedulers gpusched runs; pods naming another schedulerName stay pending.
inline constexpr const char* kServedSchedulerName = "default-scheduler";

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster, Scheduler& scheduler,
                          QueueOrder order);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_BATCH_H_

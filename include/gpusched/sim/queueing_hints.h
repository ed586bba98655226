// QueueingHints (KEP-4247; on by default since v1.32, GA and locked on
// since v1.34, so kube-scheduler v1.35 always uses them): after a cluster
// event, a pod waiting in the unschedulable pool goes back to activeQ or
// backoffQ only when a plugin that rejected it in its last attempt (its
// Failure::rejectors, upstream's UnschedulablePlugins) registered that event
// and its hint function says Queue
// (pkg/scheduler/backend/queue/scheduling_queue.go isPodWorthRequeuing).
// A pod with no rejector is always requeued; a wildcard event (the
// 5-minute leftover flush) requeues every pod.
//
// The simulator's events are a bound pod finishing or evicted (Pod/Delete of
// an assigned pod) and a node added (Node/Add); no plugin registers
// Node/Delete. Each filter answers for itself, as its EventsToRegister and
// QueueingHintFns do in v1.35 (FilterPlugin::QueueOnAssignedPodDeleted and
// QueueOnNodeAdded, defined beside each plugin's Filter); a filter without
// hints queues on every event, upstream's default.
#ifndef GPUSCHED_SIM_QUEUEING_HINTS_H_
#define GPUSCHED_SIM_QUEUEING_HINTS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// The cluster events of one moment of a simulation.
struct ClusterEvents {
  struct AddedNode {
    const Node* node;  // as added (alive for the moment)
    NodeState state;   // its state when it joined: empty
  };
  struct AddedPod {
    const Pod* pod;    // as bound (alive for the moment)
    const Node* node;  // where
  };
  bool assigned_pod_deleted = false;  // a bound pod finished or was evicted
  // The deleted pods, when every deletion of the moment named its pod
  // (deleted_unknown false): hints that read the pod (QueueOnPodDeleted)
  // are asked about each.
  std::vector<const Pod*> pods_deleted;
  bool deleted_unknown = false;
  std::vector<AddedNode> nodes_added;
  // Pods bound (AssignedPodAdd). Kept only while some pod of the run has a
  // spec a bind may make schedulable (PodInfo::pod_aware): otherwise no
  // hint could answer Queue and the requeue pass would be wasted.
  std::vector<AddedPod> pods_added;
  bool any() const { return assigned_pod_deleted || !nodes_added.empty() || !pods_added.empty(); }
  void Clear() {
    assigned_pod_deleted = false;
    pods_deleted.clear();
    deleted_unknown = false;
    nodes_added.clear();
    pods_added.clear();
  }
};

// isPodWorthRequeuing for one pod of the pool: `rejectors` (Failure's bits
// over `filters`) from its last attempt.
bool WorthRequeuing(const std::vector<std::unique_ptr<FilterPlugin>>& filters, uint64_t rejectors, const PodInfo& pod,
                    const ClusterEvents& events);

}  // namespace gpusched

#endif  // GPUSCHED_SIM_QUEUEING_HINTS_H_

// Simulate: replays a Workload against a cluster through one Scheduler, in
// simulated time, the way kube-scheduler would have placed it.
//
// Time moves from event to event (sim/event_queue.h): pods arrive, bound pods
// finish after their duration, nodes join and leave, and the scheduling
// queue's flush tickers fire. After all events at one time, the scheduler
// pops pods from the scheduling queue (sim/scheduling_queue.h) and calls
// Scheduler::ScheduleOne for each until there is nothing left to pop now:
// scheduling takes no simulated time. A bound pod runs for its duration and
// then finishes (duration < 0: it never does). A pod that fails waits in the
// unschedulable pool with its FitError message until a cluster event (a pod
// finishing or evicted, a node added) moves it back, as kube-scheduler's
// queue does.
//
// A removed node's pods are evicted: released and queued again as new pods at
// that moment (their controllers would recreate them), counted in
// PodOutcome::evictions. Their run starts over from scratch when they are
// bound again: a replacement pod does not resume where the evicted one was.
//
// The run ends at end_time when one is given, and in any case once nothing
// left can release or add room: no arrival, finish or node event remains and
// no pod waits in activeQ or backoffQ, only in the unschedulable pool (or in
// the error backoff, when there is no node). kube-scheduler would go on
// retrying those (every 5 minutes, flushUnschedulablePodsLeftover) against a
// cluster where they already failed, so they would fail the same way; the
// simulation stops instead (their `attempts` leave out those retries).
//
// The queue is kube-scheduler's (sim/scheduling_queue.h) with QueueingHints
// (sim/queueing_hints.h). Where it gives the same answers, waiting pods are
// kept by class (sim/class_queue.h), so that pods whose outcome is already
// known (the same class failed against the same cluster) cost no per-pod
// work; SimOptions::group_by_class false keeps the pod-by-pod queue, the
// reference it is tested against.
//
// Every workload pod comes out finished, running, pending (with
// kube-scheduler's message from its last attempt) or rejected; then every
// Workload::rejected row, as rejected. The same workload, nodes, options and
// a Scheduler built with the same seed give the same SimResult.
#ifndef GPUSCHED_SIM_SIMULATOR_H_
#define GPUSCHED_SIM_SIMULATOR_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/api_objects.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/model/gang.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/framework/queue_order.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"
#include "gpusched/sim/invariants.h"  // CheckNodeInvariants, checked with SimOptions::check_invariants
#include "gpusched/sim/metrics.h"
#include "gpusched/sim/sim_result.h"
#include "gpusched/sim/workload.h"

namespace gpusched {

#ifdef NDEBUG
inline constexpr bool kSimCheckInvariantsByDefault = false;
#else
inline constexpr bool kSimCheckInvariantsByDefault = true;
#endif

// One preemption as the simulator made it, for observers (tests, traces):
// valid only during the call.
struct SimPreemption {
  double time = 0;
  size_t preemptor = 0;       // index into Workload::pods (also its BoundPod::id)
  size_t node = 0;            // the nominated node
  std::vector<size_t> victims;  // in eviction order
  int64_t num_pdb_violations = 0;
  // --preempt-gangs whole: the members of the victims' gangs evicted with
  // them (sched/framework/gang_preemption.h), after the victims.
  std::vector<size_t> co_victims;
  // The state the PostFilter saw (before the victims' termination starts).
  const ClusterState* cluster = nullptr;
  const PodInfo* pod = nullptr;
  const NominatedPods* nominated = nullptr;  // the preemptor's own nomination not yet made
  const std::vector<PdbBudget>* pdbs = nullptr;
};

struct SimOptions {
  std::string policy;  // SimResult::policy; empty: the scheduler's policy name
  QueueOrder order = QueueOrder::kPriority;  // the activeQ's QueueSort
  double initial_backoff = 1;  // KubeSchedulerConfiguration podInitialBackoffSeconds
  double max_backoff = 10;     // podMaxBackoffSeconds
  // Feature gate SchedulerPopFromBackoffQ (on by default since v1.33); see
  // scheduling_queue.h. false gives the v1.32 behaviour, where a pod sits
  // out its backoff even when the scheduler is idle.
  bool pop_from_backoff_q = true;
  // Feature gate SchedulerQueueingHints (GA and locked on in v1.35): after a
  // cluster event only the pods that a plugin which rejected them says the
  // event may help go back to the queue (sim/queueing_hints.h). false gives
  // gpusched's queue before them, where every cluster event moves every
  // pooled pod.
  bool queueing_hints = true;
  // Keep waiting pods by class (sim/class_queue.h) where that gives the
  // same answers as the queue pod by pod, which costs per class instead of
  // per pod. false: pod by pod, always (the reference, for tests).
  bool group_by_class = true;
  // Fragmentation of one node in milli-GPU (FGD); empty means 0.
  NodeFragFn node_frag_milli;
  size_t max_samples = 10000;  // SimResult::series length bound; 0 = unbounded
  // Times of the NodeSnapshots; empty: 4 evenly spaced moments from the
  // first event to the end (the first one included), plus the end.
  std::vector<double> snapshot_times;
  std::optional<double> end_time;  // stop here: waiting pods are pending, bound ones running
  // Stop after this many event batches, as at end_time (0: no bound). For
  // tests of runs that could otherwise loop at one instant.
  size_t max_batches = 0;
  // Called after each successful PostFilter (SimSummary::preemptions).
  std::function<void(const SimPreemption&)> on_preemption;
  // Called with the fraction done (0..1), at most about 100 times, last with 1.
  std::function<void(double fraction)> progress;
  // Check the invariants after every event batch (below). A violation calls
  // invariant_failed, or prints and aborts when it is empty.
  bool check_invariants = kSimCheckInvariantsByDefault;
  std::function<void(const std::string& what)> invariant_failed;
  // The input's resource.k8s.io objects, for pods with resource claims
  // (sched/framework/pre_enqueue.h); null when there are none.
  const DraObjects* dra = nullptr;
  // The input's other API objects (model/api_objects.h: the volume plugins'
  // PVs, PVCs, StorageClasses, CSINodes), handed to the simulated cluster;
  // null when there are none.
  std::shared_ptr<const ApiObjects> objects;
  // Gangs (sim/gang_permit.h): the input's gangs and which
  // profile enforces which. Members of an enforced gang are reserved and
  // wait on Permit; the others are placed one by one. Null: no gangs.
  const GangSet* gangs = nullptr;
  const GangServing* gang_serving = nullptr;
  // --preempt-gangs (sched/framework/gang_preemption.h): with kWhole, a
  // victim's gang left below minCount loses its other running and reserved
  // members too, with the same grace period and requeue. Either way the
  // summary counts the gangs preemption breaks (sim/broken_gangs.h).
  PreemptGangs preempt_gangs = PreemptGangs::kUpstream;
};

// Runs the simulation. Each pod goes to the profile its spec.schedulerName
// names; a pod that none serves, or that sched/framework/pre_enqueue.h holds (gates,
// HAMi, DRA), is never attempted and ends pending with that reason. The
// schedulers are used as given (their random generators and rotating start
// indexes advance); pass fresh ones for a reproducible run. `workload` must
// outlive the call only.
SimResult Simulate(const Workload& workload, std::vector<Node> initial_nodes, const ProfileSchedulers& profiles,
                   const SimOptions& options = {});
// One scheduler serving default-scheduler.
SimResult Simulate(const Workload& workload, std::vector<Node> initial_nodes, Scheduler& scheduler,
                   const SimOptions& options = {});

}  // namespace gpusched

#endif  // GPUSCHED_SIM_SIMULATOR_H_

// SchedulingQueue: kube-scheduler's PriorityQueue
// (pkg/scheduler/backend/queue/scheduling_queue.go, active_queue.go,
// backoff_queue.go, unschedulable_pods.go) over simulated time, for pods the
// simulator names by index. The places a waiting pod can be:
//
//   activeQ        a heap in queue-sort order; the scheduler pops its head.
//   backoffQ       a heap by backoff expiry; pods wait there until their
//                  backoff has passed (flushBackoffQCompleted moves them).
//   unschedulable  the unschedulablePods pool: pods whose last attempt failed,
//                  waiting for a cluster event that may make them fit.
//   error backoff  podErrorBackoffQ: pods whose last attempt failed with an
//                  error (below), waiting for their backoff only.
//
// A new pod goes to activeQ (Add). A pod that fails goes to the pool
// (AddUnschedulableIfNotPresent; its Timestamp is refreshed to the failure
// time). A cluster event (a scheduled pod deleted, a node added) moves every
// pooled pod to backoffQ, or straight to activeQ when its backoff has already
// expired (MoveAllToActiveOrBackoffQueue -> movePodsToActiveOrBackoffQueue ->
// requeuePodWithQueueingStrategy). flushUnschedulablePodsLeftover, every 30 s,
// moves pods pooled for more than 5 minutes the same way.
//
// Backoff (backoff_queue.go calculateBackoffDuration/getBackoffTime): after
// the n-th failure, initial * 2^(n-1) capped at max (1, 2, 4, 8, 10, 10 s with
// the defaults), counted from the failure time; max 0 disables it.
//
// An attempt that fails with an error rather than a FitError (for the
// simulator: ErrNoNodesAvailable, the cluster has no node at all) rejects the
// pod through no plugin, so no cluster event can requeue it: it goes to the
// error backoff queue (podErrorBackoffQ) and is retried when its backoff,
// counted in consecutive errors, expires.
//
// SchedulerPopFromBackoffQ (KEP-5142, beta and on by default since v1.33, so
// in v1.35): when activeQ is empty, Pop takes the head of backoffQ instead of
// waiting for its backoff (activeQueue.unlockedPop with backoffQPopper), and
// backoff expiries are aligned down to whole-second ordering windows, pods in
// one window ordered as in activeQ (alignToWindow,
// lessBackoffCompletedWithPriority). Because the simulator's scheduling takes
// no simulated time, activeQ is always empty once a batch is done, so with
// the gate on a backoff never delays the retry of an unschedulable pod; it
// only orders pods. With the gate off (v1.32 and earlier behaviour) a pod
// waits for its backoff.
//
// The flush loops are tickers started with the scheduler (simulated time 0):
// flushBackoffQCompleted every 1 s, flushUnschedulablePodsLeftover every 30 s.
// Next*Flush() say when the next tick that moves anything falls, so the
// simulator schedules only ticks that matter.
//
// Which pooled pods an event moves is the caller's choice: all of them
// (MoveAllToActiveOrBackoffQueue, the queue before QueueingHints), or those
// the QueueingHints of the plugins that rejected them say the event may
// help (MoveToActiveOrBackoffQueue with sim/queueing_hints.h).
//
// Not modelled: in-flight events (scheduling is instantaneous here, so none
// can happen), PreEnqueue gating, nominated pods.
#ifndef GPUSCHED_SIM_SCHEDULING_QUEUE_H_
#define GPUSCHED_SIM_SCHEDULING_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "gpusched/sched/framework/queue_order.h"

namespace gpusched {

// Upstream constants (scheduling_queue.go, backoff_queue.go).
inline constexpr double kBackoffFlushInterval = 1.0;            // flushBackoffQCompleted period
inline constexpr double kUnschedulableFlushInterval = 30.0;     // flushUnschedulablePodsLeftover period
inline constexpr double kPodMaxInUnschedulablePodsDuration = 300.0;  // DefaultPodMaxInUnschedulablePodsDuration

struct SchedulingQueueOptions {
  QueueOrder order = QueueOrder::kPriority;
  double initial_backoff = 1;  // podInitialBackoffSeconds
  double max_backoff = 10;     // podMaxBackoffSeconds
  bool pop_from_backoff_q = true;  // feature gate SchedulerPopFromBackoffQ
};

// QueuedPodInfo: what the queue knows of a waiting pod.
struct QueuedPod {
  size_t id = 0;           // the caller's pod index; the last tie-breaker everywhere
  int32_t priority = 0;    // spec.priority
  int64_t gpu_milli = 0;   // GPU demand, for largest-/smallest-first
  double timestamp = 0;    // added (Add) or last failed (AddUnschedulable)
  int32_t attempts = 0;    // pops since Add
  int32_t unschedulable_count = 0;  // FitErrors since Add: the backoff exponent
  int32_t consecutive_errors = 0;   // errors in a row; the exponent when > 0
  double backoff_expiration = 0;    // set when the pod enters backoffQ
};

class SchedulingQueue {
 public:
  explicit SchedulingQueue(SchedulingQueueOptions options = {});

  // PriorityQueue.Add: a new pod, into activeQ with Timestamp `now`.
  void Add(size_t id, int32_t priority, int64_t gpu_milli, double now);

  // PriorityQueue.Pop: the head of activeQ (or, with pop_from_backoff_q and an
  // empty activeQ, of backoffQ), its attempts incremented. nullopt when there
  // is nothing to pop now.
  std::optional<QueuedPod> Pop();

  // AddUnschedulableIfNotPresent: `pod` (as Pop returned it) failed at `now`;
  // `error`: with an error, not a FitError (see above). `now` never
  // decreases from one call to the next.
  void AddUnschedulable(QueuedPod pod, double now, bool error = false);

  // MoveAllToActiveOrBackoffQueue: a cluster event at `now` that may make
  // pooled pods schedulable.
  void MoveAllToActiveOrBackoffQueue(double now);
  // The same for the pooled pods `worth(pod)` says the event may make
  // schedulable (QueueingHints, sim/queueing_hints.h); the others stay.
  void MoveToActiveOrBackoffQueue(double now, const std::function<bool(const QueuedPod&)>& worth);
  // PriorityQueue.Activate: the pods `which` selects leave backoffQ (and the
  // error backoff) or the unschedulable pool for activeQ, backoff or not.
  // Permit plugins activate a waiting gang member's siblings so. Returns how
  // many moved.
  size_t Activate(const std::function<bool(const QueuedPod&)>& which);
  // flushBackoffQCompleted at `now`: pods whose backoff completed -> activeQ.
  void FlushBackoffQCompleted(double now);
  // flushUnschedulablePodsLeftover at `now`.
  void FlushUnschedulablePodsLeftover(double now);

  // Time of the first flush tick that moves a pod out of backoffQ / the pool;
  // +infinity when there is none.
  double NextBackoffFlush() const;
  double NextUnschedulableFlush() const;
  // The flush ticks for a pod whose backoff expires at `expiry`, and for the
  // pool's oldest Timestamp.
  double BackoffFlushTick(double expiry) const;
  static double UnschedulableFlushTick(double oldest_timestamp);

  // calculateBackoffDuration for the n-th failure.
  double BackoffDuration(int32_t failures) const;
  // getBackoffTime: the backoff expiry of a pod; -infinity when it has none.
  double BackoffExpiration(const QueuedPod& pod) const;
  // isPodBackingoff at `now`.
  bool IsBackingOff(const QueuedPod& pod, double now) const;

  size_t active_size() const { return active_.size(); }
  size_t backoff_size() const { return backoff_.size(); }
  size_t error_backoff_size() const { return error_backoff_.size(); }
  size_t unschedulable_size() const { return unschedulable_.size(); }
  size_t size() const { return active_.size() + backoff_.size() + error_backoff_.size() + unschedulable_.size(); }
  const SchedulingQueueOptions& options() const { return options_; }

 private:
  SchedulingQueueOptions options_;
  std::vector<QueuedPod> active_;   // heap, ActiveLess
  std::vector<QueuedPod> backoff_;  // heap, BackoffLess
  std::vector<QueuedPod> error_backoff_;  // heap, BackoffLess
  // Pooled pods in failure order. Timestamps only grow, so the pods the
  // leftover flush takes are always a prefix, and MoveAll takes them all.
  std::deque<QueuedPod> unschedulable_;

  bool ActiveLess(const QueuedPod& a, const QueuedPod& b) const;
  bool BackoffLess(const QueuedPod& a, const QueuedPod& b) const;
  void PushActive(QueuedPod p);
  void PushBackoff(QueuedPod p, std::vector<QueuedPod>& heap);
  QueuedPod PopHeap(std::vector<QueuedPod>& heap, bool backoff);
  // requeuePodWithQueueingStrategy with queueAfterBackoff.
  void Requeue(QueuedPod p, double now);
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_SCHEDULING_QUEUE_H_

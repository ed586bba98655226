// ClassQueue: SchedulingQueue (scheduling_queue.h) with QueueingHints and
// SchedulerPopFromBackoffQ on — kube-scheduler v1.35's queue — for a
// simulation in which pods of one class (sched/api/pod_class.h) are many. It
// keeps waiting pods in cohorts — pods of one class whose queue state is
// the same: Timestamp, failure counts (exact below the count where the
// backoff reaches its maximum, then all alike), the Failure of their last
// attempt, and where they wait — so that an event, a flush and a failed
// attempt cost per cohort, not per pod.
//
// It gives the same answers as SchedulingQueue driven pod by pod (the
// simulator's plain path, its reference; tests/sim/class_queue_test.cc
// compares whole simulations): which pods are tried, in which order, which
// are placed, each pod's attempts and last Failure. This rests on three
// facts, all checked by the plain path's tests:
//
//   - With SchedulerPopFromBackoffQ, one moment's scheduling pops activeQ
//     and then backoffQ until both are empty, and a pod that fails goes to
//     the pool (or the error backoff), never back into them: the pods tried
//     at one moment, and their order, are fixed when the moment starts
//     (activeQ by queue sort, then backoffQ by expiry window and queue sort).
//   - A pod of a class that failed at this moment fails again later in the
//     moment: binds only take room (sched/plugins/filter_chain.h AllInTreeFilters), so
//     the rest of that class is not tried; it gets the failure a try would
//     have given (Hooks::failure_now, asked again after each bind).
//   - Every pod of a cohort gets the same answer from the hints, so the
//     cohort moves as one.
//
// Cohorts of one class that come to share all their state merge (the
// smaller into the larger), and a cohort splits only when a bind changes a
// class's failure between two of its pods, which is rare: a moment costs
// O((cohorts + binds) log), not O(pods).
#ifndef GPUSCHED_SIM_CLASS_QUEUE_H_
#define GPUSCHED_SIM_CLASS_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sim/scheduling_queue.h"

namespace gpusched {

class ClassQueue {
 public:
  // options.pop_from_backoff_q must be true.
  explicit ClassQueue(SchedulingQueueOptions options);

  // PriorityQueue.Add: pod `id` of class `cls`, new (or evicted and
  // recreated) at `now`. `priority` and `gpu_milli` are its class's.
  void Add(size_t id, uint32_t cls, int32_t priority, int64_t gpu_milli, double now);

  // MoveToActiveOrBackoffQueue at `now`: the pooled pods for which
  // `worth(id, last failure)` is true (QueueingHints), asked of one pod
  // `id` of each cohort.
  void Requeue(double now, const std::function<bool(size_t id, const Failure& failure)>& worth);
  // flushUnschedulablePodsLeftover at `now`.
  void FlushUnschedulablePodsLeftover(double now);
  // flushBackoffQCompleted at `now` (backoffQ is empty between moments;
  // this moves the error backoff's pods whose backoff is over).
  void FlushBackoffQCompleted(double now);

  struct Hooks {
    // Tries pod `id` (binding it on success): nullptr when it was placed,
    // else its failure.
    std::function<std::shared_ptr<const Failure>(size_t id)> attempt;
    // The failure pod `id` meets now, not tried (a pod of its class failed
    // at this moment, so it fails too).
    std::function<std::shared_ptr<const Failure>(size_t id)> failure_now;
    // Optional: when visit_after_failure(f) is true for the failure f that
    // closed a class, each of its other pods of the moment is still handed
    // to visit(id), at its place in the moment's order, for what a try
    // does besides failing (DefaultPreemption's PostFilter, which nominates
    // and evicts per pod). visit must not bind or unbind: the class's
    // failure and the pods' queue state stay as without it.
    std::function<bool(const Failure& failure)> visit_after_failure;
    std::function<void(size_t id)> visit;
  };
  // Pops activeQ, then backoffQ, until both are empty, trying each pod; the
  // ones that fail go to the pool (or the error backoff) with `now` as
  // their Timestamp. Returns the attempts made: every pod popped counts,
  // tried or known to fail as its class did.
  int64_t ScheduleAll(double now, const Hooks& hooks);

  // A waiting pod's attempts since Add (the one being tried included,
  // inside Hooks::attempt) and the failure of its last one (nullptr before
  // it was tried).
  int64_t Attempts(size_t id) const;
  const std::shared_ptr<const Failure>& LastFailure(size_t id) const;

  double NextBackoffFlush() const;
  double NextUnschedulableFlush() const;
  size_t size() const { return size_; }
  // Pods in activeQ or backoffQ: only between an event and ScheduleAll.
  size_t active_or_backoff_size() const;
  int64_t cohorts() const { return static_cast<int64_t>(cohorts_.size()); }

 private:
  // Where a cohort waits.
  enum class Where : uint8_t { kPool, kErrorBackoff, kMoving };
  struct Cohort {
    uint32_t cls = 0;
    int32_t priority = 0;
    int64_t gpu_milli = 0;
    double timestamp = 0;
    int32_t count = 0;   // unschedulable_count, capped at sat_
    int32_t errors = 0;  // consecutive_errors, capped at sat_
    Where where = Where::kMoving;
    bool error = false;  // waits (or waited) in the error backoff
    std::shared_ptr<const Failure> failure;
    int64_t attempts = 0;  // added to each member's Slot::base
    std::set<size_t> ids;
    // While moving: in backoffQ (else activeQ), and its backoff expiry.
    bool backoff_part = false;
    double expiry = 0;
    bool indexed = false;  // in index_
    std::list<Cohort>::iterator self;
  };
  struct Slot {
    Cohort* cohort = nullptr;
    int64_t base = 0;
  };
  // A cohort at rest, by everything its members share.
  using Key = std::tuple<uint32_t, double, int32_t, int32_t, bool, const Failure*>;
  // A pod's place in one moment's pop order: backoffQ after activeQ, then
  // the backoff expiry (backoffQ only), the queue sort, Timestamp, id.
  using Order = std::tuple<bool, double, int64_t, double, size_t>;

  static Key KeyOf(const Cohort& c) {
    return Key{c.cls, c.timestamp, c.count, c.errors, c.error, c.failure.get()};
  }
  Order OrderOf(const Cohort& c, size_t id) const;
  QueuedPod AsQueuedPod(const Cohort& c) const;
  Cohort& NewCohort(const Cohort& like);
  void Index(Cohort& c);
  void Unindex(Cohort& c);
  void Move(Cohort& c, double now, bool to_active);
  void MoveIds(Cohort& from, Cohort& to, std::set<size_t>::iterator first, std::set<size_t>::iterator last);
  void Erase(Cohort& c);
  Slot& SlotOf(size_t id);

  SchedulingQueue formulas_;  // BackoffExpiration, IsBackingOff, the flush ticks
  int32_t sat_ = 1;           // failure counts from which the backoff is at its maximum
  std::list<Cohort> cohorts_;
  std::map<Key, Cohort*> index_;  // cohorts at rest (pool, error backoff)
  std::vector<Cohort*> moving_;   // cohorts in activeQ/backoffQ this moment
  std::vector<Cohort*> new_of_class_;  // by class: its new pods' cohort this moment
  std::vector<Slot> slots_;       // by pod id
  size_t size_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_CLASS_QUEUE_H_

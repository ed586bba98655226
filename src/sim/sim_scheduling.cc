// Simulation's scheduling cycle glue (sim/simulation.h): the moment's pods
// popped from the scheduling queue (pod by pod, or by class through
// ClassQueue), tried against the cluster, preempting, reserving or binding;
// the bound pods started; and movePodsToActiveOrBackoffQueue for a batch's
// cluster events.
#include <algorithm>
#include <memory>
#include <optional>

#include "gpusched/sim/invariants.h"
#include "gpusched/sim/queueing_hints.h"
#include "simulation.h"

namespace gpusched {
namespace sim_internal {

void Simulation::ScheduleAll(double now) {
  if (classes_queue_) return ScheduleAllByClass(now);
  scheduling_ = true;
  for (;;) {
    const int64_t before = permit_rejections_;
    ScheduleQueue(now);
    if (!permit_ || !permit_->enforcing()) break;
    // Volcano's and KAI's sessions end with the moment: a gang still below
    // minMember is discarded.
    EndSessions(now);
    if (permit_rejections_ == before) break;
    // Members rejected while pods were tried (preempted, Coscheduling's
    // PostFilter) or at the session's end freed room: their unreserve is an
    // AssignedPodDelete event for the other pods, which may then be tried
    // again now. The rejected ones wait for a later event (rejected_now_),
    // so this ends.
    ClusterEvents freed;
    freed.assigned_pod_deleted = true;
    freed.deleted_unknown = true;
    Requeue(now, freed);
  }
  scheduling_ = false;
}

void Simulation::ScheduleQueue(double now) {
  while (std::optional<QueuedPod> qp = queue_.Pop()) {
    const size_t id = qp->id;
    SimPod& p = pods_[id];
    ++p.attempts;
    ++attempts_;
    busy_ = true;
    Scheduler& scheduler = SchedulerFor(p.waiting->info);
    Attempt d = scheduler.Schedule(p.waiting->info, cluster_);
    if (!d.scheduled && PreemptionWouldHelp(*d.failure)) Preempt(id, scheduler, now);
    if (!d.scheduled) {
      // No node at all is ErrNoNodesAvailable, an error rather than a FitError.
      queue_.AddUnschedulable(*qp, now, d.failure->fit_error.num_all_nodes == 0);
      p.waiting->last_failure = std::move(d.failure);
      if (permit_) RejectAll(permit_->FilterFailed(id), now, GangPermit::kOptimisticRejection);
      continue;
    }
    if (permit_ && permit_->EnforcedGangOf(id) >= 0) {
      Reserve(id, d, *qp, now);
      continue;
    }
    Bound(id, d, now);
  }
}

void Simulation::ScheduleAllByClass(double now) {
  ClassQueue& q = *classes_queue_;
  ClassQueue::Hooks hooks;
  hooks.attempt = [&](size_t id) -> std::shared_ptr<const Failure> {
    SimPod& p = pods_[id];
    Scheduler& scheduler = SchedulerFor(p.waiting->info);
    Attempt d = scheduler.Schedule(p.waiting->info, cluster_);
    if (!d.scheduled) {
      if (PreemptionWouldHelp(*d.failure)) Preempt(id, scheduler, now);
      return std::move(d.failure);
    }
    p.attempts += static_cast<int32_t>(q.Attempts(id));
    Bound(id, d, now);
    return nullptr;
  };
  hooks.failure_now = [&](size_t id) {
    const PodInfo& info = pods_[id].waiting->info;
    std::shared_ptr<const Failure> f = SchedulerFor(info).FailureOf(info, cluster_);
    // A pod of a class that failed at this moment fits nowhere after binds.
    if (!f) ReportInvariantViolation(options_.invariant_failed, "a pod of a class that failed now fits");
    return f;
  };
  // A failed try does more than fail when preemption would help: the
  // PostFilter runs for that pod, with its own nomination, and may evict.
  // So the rest of such a class is visited pod by pod, in the moment's
  // order, as the plain queue tries them: its failure is still the class's
  // (a preemption binds and unbinds nothing at once; the victims leave
  // later, as Pod/Delete events), but each pod runs its own PostFilter.
  hooks.visit_after_failure = [](const Failure& f) { return PreemptionWouldHelp(f); };
  hooks.visit = [&](size_t id) {
    const PodInfo& info = pods_[id].waiting->info;
    Scheduler& scheduler = SchedulerFor(info);
    std::shared_ptr<const Failure> f = scheduler.FailureOf(info, cluster_);
    if (!f) ReportInvariantViolation(options_.invariant_failed, "a pod of a class that failed now fits");
    if (f && PreemptionWouldHelp(*f)) Preempt(id, scheduler, now);
  };
  const int64_t tried = q.ScheduleAll(now, hooks);
  if (tried > 0) busy_ = true;
  attempts_ += tried;
}

// Pod `id` was bound by `d` at `now`: it runs until its duration is over.
void Simulation::Bound(size_t id, const Attempt& d, double now) {
  SimPod& p = pods_[id];
  nominated_.Remove(p.waiting->info.pod);  // bound: the nomination is done with
  // AssignedPodAdd: may make a pod-aware pod schedulable (pod affinity).
  if (any_pod_aware_) events_now_.pods_added.push_back({p.waiting->info.pod, &cluster_.node(d.node)});
  p.node = static_cast<int32_t>(d.node);
  Ran(id, d.node);
  NodeChanged(d.node, now);
  Run(id, now);
}

// Pod `id`, bound to p.node, starts running at `now`.
void Simulation::Run(size_t id, double now) {
  SimPod& p = pods_[id];
  idle_timeouts_ = 0;
  if (permit_) permit_->Started(id, p.waiting->info.gpu.total_milli(), now);
  if (broken_gangs_) broken_gangs_->Started(id, p.waiting->info.gpu.total_milli(), now);
  p.waiting.reset();
  p.phase = SimPod::Phase::kRunning;
  if (p.start < 0) p.start = now;
  ++running_;
  const double duration = workload_.pods[id].duration;
  p.run_start = now;
  // A pod recreated after preemption runs what its checkpoints did not keep.
  p.finish_at = duration >= 0 ? now + std::max(0.0, duration - p.done) : kNever;
  if (p.finish_at < kNever) {
    p.finish_event = events_.Push(p.finish_at, EventKind::kPodFinish, id);
    ++live_events_;
  }
}

void Simulation::Requeue(double now, const ClusterEvents& events) {
  if (classes_queue_) {
    classes_queue_->Requeue(now, [this, &events](size_t id, const Failure& f) {
      const PodInfo& info = pods_[id].waiting->info;
      return WorthRequeuing(SchedulerFor(info).filters(), f.rejectors, info, events);
    });
  } else if (options_.queueing_hints) {
    queue_.MoveToActiveOrBackoffQueue(now, [this, &events](const QueuedPod& qp) {
      if (!rejected_now_.empty() && rejected_now_.count(qp.id)) return false;
      const WaitingPod& w = *pods_[qp.id].waiting;
      return WorthRequeuing(SchedulerFor(w.info).filters(), w.last_failure ? w.last_failure->rejectors : 0, w.info,
                            events);
    });
  } else if (!rejected_now_.empty()) {
    queue_.MoveToActiveOrBackoffQueue(now, [this](const QueuedPod& qp) { return !rejected_now_.count(qp.id); });
  } else {
    queue_.MoveAllToActiveOrBackoffQueue(now);
  }
}

}  // namespace sim_internal
}  // namespace gpusched

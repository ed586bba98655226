#include "gpusched/sim/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "gpusched/model/eviction.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/model/validation.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/framework/pre_enqueue.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/plugins/default_preemption.h"
#include "gpusched/sim/invariants.h"
#include "simulation.h"

namespace gpusched {
namespace sim_internal {

void Simulation::Init() {
  const auto& wp = workload_.pods;
  pods_.resize(wp.size());
  arrivals_.reserve(wp.size());
  for (size_t i = 0; i < wp.size(); ++i) {
    SimPod& p = pods_[i];
    if (!std::isfinite(wp[i].arrival)) {
      // No place in time: rejected from the start.
      p.phase = SimPod::Phase::kRejected;
      rejections_[i] = "invalid arrival time: " + FormatSeconds(wp[i].arrival);
      ++arrived_;
      ++rejected_;
      continue;
    }
    arrivals_.push_back(i);
  }
  // A trace lists its pods by creation time already: checking is one pass,
  // sorting a million indices again is not free.
  auto earlier = [&wp](size_t a, size_t b) { return wp[a].arrival < wp[b].arrival; };
  if (!std::is_sorted(arrivals_.begin(), arrivals_.end(), earlier))
    std::stable_sort(arrivals_.begin(), arrivals_.end(), earlier);
  // Node events by time, stably (Workload's contract); the seq keeps that order.
  std::vector<size_t> order(workload_.node_events.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return workload_.node_events[a].time < workload_.node_events[b].time;
  });
  for (size_t k : order) {
    const NodeEvent& ne = workload_.node_events[k];
    if (std::isnan(ne.time)) continue;  // the loaders refuse these; no place in time
    events_.Push(ne.time, ne.kind == NodeEvent::Kind::kAdd ? EventKind::kNodeAdd : EventKind::kNodeRemove, k);
    ++live_events_;
  }
  expected_ = std::max<size_t>(1, 2 * wp.size() + workload_.node_events.size());
}

void Simulation::Handle(const Event& e, double now) {
  // Anything but a Permit timeout or a queue flush may let a gang start.
  if (e.kind != EventKind::kPermitTimeout && e.kind != EventKind::kBackoffFlush &&
      e.kind != EventKind::kUnschedulableFlush)
    idle_timeouts_ = 0;
  switch (e.kind) {
    case EventKind::kPodArrival:  // from the arrival stream, not the heap
      Arrive(e.payload, now);
      break;
    case EventKind::kPodFinish:
      --live_events_;
      // Stale when the pod was evicted (or finished with its node) meanwhile.
      if (pods_[e.payload].finish_event == e.seq) {
        if (pods_[e.payload].terminating) {
          Evicted(e.payload, now);
        } else {
          Finish(e.payload, now);
        }
        busy_ = true;
      }
      break;
    case EventKind::kNodeAdd: {
      --live_events_;
      const NodeEvent& ne = workload_.node_events[e.payload];
      // A name already present would make FindNode ambiguous; the loaders
      // refuse such workloads, so the second node is not added.
      if (cluster_.FindNode(ne.node.name()) >= 0) break;
      const size_t i = cluster_.AddNode(ne.node);
      NodeChanged(i, now);
      busy_ = true;
      events_now_.nodes_added.push_back({&ne.node, cluster_.state(i)});  // Node/Add
      break;
    }
    case EventKind::kNodeRemove: {
      --live_events_;
      const int64_t i = cluster_.FindNode(workload_.node_events[e.payload].name);
      if (i >= 0) {
        RemoveNode(static_cast<size_t>(i), now);
        busy_ = true;
      }
      break;
    }
    case EventKind::kBackoffFlush:
      if (armed_backoff_ == now) armed_backoff_ = kNever;
      if (classes_queue_) {
        classes_queue_->FlushBackoffQCompleted(now);
      } else {
        queue_.FlushBackoffQCompleted(now);
      }
      break;
    case EventKind::kUnschedulableFlush:
      if (armed_leftover_ == now) armed_leftover_ = kNever;
      if (classes_queue_) {
        classes_queue_->FlushUnschedulablePodsLeftover(now);
      } else {
        queue_.FlushUnschedulablePodsLeftover(now);
      }
      break;
    case EventKind::kPermitTimeout: {
      --live_timeouts_;
      const auto gang = static_cast<int32_t>(e.payload);
      std::vector<size_t> out = permit_->Expire(gang, now);
      if (!out.empty()) {
        ++idle_timeouts_;
        RejectAll(out, now, permit_->TimeoutMessage(gang));
      }
      break;
    }
  }
}

// Why a pod is refused on arrival, "" when it is valid. Checked on arrival
// rather than up front: a pod that never arrives is never checked, and no
// per-pod message is held for the whole run.
std::string InvalidReason(const WorkloadPod& wp) {
  if (std::isnan(wp.duration)) return "invalid duration: NaN";
  std::vector<FieldError> errs = ValidateGpuAnnotations(wp.pod);
  if (!errs.empty()) return InvalidObjectMessage("Pod", wp.pod.name(), errs);
  return "";
}

void Simulation::Arrive(size_t id, double now) {
  SimPod& p = pods_[id];
  ++arrived_;
  busy_ = true;
  if (std::string invalid = InvalidReason(workload_.pods[id]); !invalid.empty()) {
    // An invalid request never reaches the scheduler.
    p.phase = SimPod::Phase::kRejected;
    rejections_[id] = std::move(invalid);
    ++rejected_;
    return;
  }
  metrics_.PodArrived(Enqueue(id, now));
}

int64_t Simulation::Enqueue(size_t id, double now) {
  SimPod& p = pods_[id];
  const Pod& pod = workload_.pods[id].pod;
  // The pod's index is its id in ClusterState: unique for the whole run.
  p.waiting = std::make_unique<WaitingPod>(WaitingPod{PodInfo::Make(pod, id), {}});
  const int64_t gpu_milli = p.waiting->info.gpu.total_milli();
  if (std::optional<HeldPod> held = CheckBeforeScheduling(p.waiting->info, profiles_, options_.dra, cluster_)) {
    // Never attempted, whatever happens later in the run.
    p.waiting.reset();
    p.phase = SimPod::Phase::kHeld;
    held_reasons_[id] = held->message.empty() ? held->diagnosis.text
                                              : held->message + " (" + held->diagnosis.text + ")";
    ++held_;
    return gpu_milli;
  }
  p.phase = SimPod::Phase::kWaiting;
  if (classes_queue_) {
    classes_queue_->Add(id, classes_.Intern(p.waiting->info), pod.Priority(), gpu_milli, now);
  } else {
    queue_.Add(id, pod.Priority(), gpu_milli, now);
  }
  return gpu_milli;
}

void Simulation::Finish(size_t id, double now) {
  SimPod& p = pods_[id];
  const auto node = static_cast<size_t>(p.node);
  cluster_.Unbind(node, id);
  Stopped(id, node);
  NodeChanged(node, now);
  p.phase = SimPod::Phase::kFinished;
  p.finish = now;
  p.finish_event = kNoEvent;
  --running_;
  ++finished_;
  if (permit_) permit_->Stopped(id, now);
  if (broken_gangs_) broken_gangs_->Stopped(id, now);
  events_now_.assigned_pod_deleted = true;  // Pod/Delete of a scheduled pod
}

void Simulation::RemoveNode(size_t i, double now) {
  std::vector<BoundPod> evicted = cluster_.RemoveNode(i);
  for (const BoundPod& bp : evicted) Stopped(bp.id, i);
  NodeChanged(i, now);
  for (const BoundPod& bp : evicted) {
    SimPod& p = pods_[bp.id];
    if (p.phase == SimPod::Phase::kReserved) {
      // Waiting on Permit when its node left: its binding cannot happen, and
      // it is queued again as the evicted pods are.
      permit_->Unreserve(bp.id, now);
      --reserved_;
      ++p.evictions;
      Enqueue(bp.id, now);
      continue;
    }
    if (permit_) permit_->Stopped(bp.id, now);
    if (broken_gangs_) broken_gangs_->Stopped(bp.id, now);
    --running_;
    p.finish_event = kNoEvent;
    p.terminating = false;  // a preemption victim goes with its node
    if (p.finish_at <= now) {
      // It ends at the very moment its node leaves: it finished.
      p.phase = SimPod::Phase::kFinished;
      p.finish = now;
      ++finished_;
    } else {
      ++p.evictions;
      Enqueue(bp.id, now);
    }
  }
  // The evicted pods' deletions are Pod/Delete events of scheduled pods.
  if (!evicted.empty()) events_now_.assigned_pod_deleted = true;
}

// PostFilter for a pod that just failed (kube-scheduler's
// DefaultPreemption): on success its victims start their graceful
// termination (terminationGracePeriodSeconds, default 30 s) holding their
// resources, and the pod is nominated to the node; it waits in the
// unschedulable pool until their deletions move it (Pod/Delete). While a
// victim on its nominated node is terminating, it does not preempt again
// (PodEligibleToPreemptOthers). Meanwhile the pods of lower or equal
// priority are filtered with the nominated pod counted on the node
// (sched/plugins/nominated_pods.h).
void Simulation::Preempt(size_t id, const Scheduler& scheduler, double now) {
  SimPod& p = pods_[id];
  std::vector<SchedStatus::Code> codes(cluster_.size(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  FilterVerdict why;
  std::vector<const PodInfo*> scratch;
  // The statuses of the failed cycle, which counted the nominated pods.
  for (size_t i = 0; i < cluster_.size(); ++i)
    if (cluster_.present(i))
      codes[i] = CheckFiltersWithNominated(scheduler.filters(), p.waiting->info, cluster_.node(i), i,
                                           cluster_.state(i), nominated_, why, scratch)
                     ? why.code
                     : SchedStatus::Code::kSuccess;
  PreemptionInputs in;
  in.pod_of = [this](uint64_t v) -> const Pod* { return v < pods_.size() ? &workload_.pods[v].pod : nullptr; };
  in.terminating_by_preemption = [this](uint64_t v) { return v < pods_.size() && pods_[v].terminating; };
  in.nominated = nominated_.All();
  if (!workload_.pdbs.empty()) in.pdbs = Budgets();
  // --preempt-gangs whole: a victim's gang goes with it (gang_preemption.h).
  // A member holds its node while running (not already terminating) or
  // reserved on Permit.
  auto place = [this](uint64_t v) -> std::optional<size_t> {
    const SimPod& vp = pods_[v];
    if ((vp.phase == SimPod::Phase::kRunning && !vp.terminating) || vp.phase == SimPod::Phase::kReserved)
      return static_cast<size_t>(vp.node);
    return std::nullopt;
  };
  if (preemption_gangs_ && options_.preempt_gangs == PreemptGangs::kWhole) {
    const PreemptionGangs* g = &*preemption_gangs_;
    in.unevictable = [g](uint64_t v, int32_t prio) { return g->Unevictable(v, prio); };
    in.co_victims = [this, g, &place](const std::vector<BoundPod>& victims) {
      return g->CoVictims(victims, cluster_, place);
    };
  }
  std::optional<size_t> nominated = nominated_.NodeOf(p.waiting->info.pod);
  if (nominated && (*nominated >= cluster_.size() || !cluster_.present(*nominated))) nominated.reset();
  PreemptionResult r =
      gpusched::Preempt(p.waiting->info, cluster_, codes, scheduler.filters(), in, /*offset_seed=*/0, nominated);
  if (!r.nominated) {
    // Not eligible (victims still terminating): the nomination stands;
    // otherwise it is cleared.
    if (r.message.find(kNotEligibleTerminating) == std::string::npos) nominated_.Remove(p.waiting->info.pod);
    return;
  }
  ++preemptions_;
  std::vector<BoundPod> evict = r.victims;
  for (const CoVictim& cv : r.co_victims) evict.push_back(cv.pod);
  if (options_.on_preemption) {
    SimPreemption sp{now, id, r.node, {}, r.num_pdb_violations, {}, &cluster_, &p.waiting->info, &nominated_, &in.pdbs};
    for (const BoundPod& v : r.victims) sp.victims.push_back(v.id);
    for (const CoVictim& v : r.co_victims) sp.co_victims.push_back(v.pod.id);
    options_.on_preemption(sp);
  }
  nominated_.Nominate(p.waiting->info, r.node);
  std::vector<size_t> terminated;  // the running ones whose termination starts now
  for (const BoundPod& v : evict) {
    SimPod& vp = pods_[v.id];
    if (vp.terminating) continue;  // already being deleted: no second call
    ++victims_;
    ++victims_by_priority_[v.priority];
    if (vp.phase == SimPod::Phase::kReserved) {
      // A victim waiting on Permit is rejected, not deleted
      // (framework/preemption prepareCandidate: waitingPod.Reject(pluginName, "preempted")).
      RejectWaiting(v.id, now, "preempted");
      continue;
    }
    // Gone once its grace period is over (the running finish is dropped),
    // unless it ends first.
    const double gone = now + static_cast<double>(TerminationGracePeriodSeconds(workload_.pods[v.id].pod));
    if (vp.finish_at <= gone) continue;
    vp.terminating = true;
    vp.finish_event = events_.Push(gone, EventKind::kPodFinish, v.id);
    ++live_events_;
    terminated.push_back(v.id);
  }
  if (broken_gangs_) broken_gangs_->Preempted(terminated, now);
}

void Simulation::InitPreemptionGangs() {
  if (!options_.gangs || options_.gangs->gangs.empty()) return;
  if (std::none_of(profiles_.begin(), profiles_.end(), [](const auto& p) { return p.second->preemption(); })) return;
  std::vector<const Pod*> pods;
  pods.reserve(workload_.pods.size());
  for (const WorkloadPod& wp : workload_.pods) pods.push_back(&wp.pod);
  preemption_gangs_.emplace(*options_.gangs, options_.gang_serving, pods);
  if (preemption_gangs_->empty()) {
    preemption_gangs_.reset();
    return;
  }
  broken_gangs_.emplace(*preemption_gangs_, workload_.pods.size());
}

// The workload's PDBs with disruptionsAllowed as the disruption controller
// would compute it now (unless the object has a status): the pods that have
// arrived and are not done with count, those running and not terminating as
// healthy.
std::vector<PdbBudget> Simulation::Budgets() const {
  std::vector<const PodDisruptionBudget*> pdbs;
  for (const PodDisruptionBudget& b : workload_.pdbs) pdbs.push_back(&b);
  std::vector<PdbPod> present;
  for (size_t i = 0; i < pods_.size(); ++i) {
    const SimPod& p = pods_[i];
    if (p.phase == SimPod::Phase::kWaiting || p.phase == SimPod::Phase::kHeld || p.phase == SimPod::Phase::kReserved)
      present.push_back(PdbPod{&workload_.pods[i].pod, false});
    else if (p.phase == SimPod::Phase::kRunning)
      present.push_back(PdbPod{&workload_.pods[i].pod, !p.terminating});
  }
  static const ControllerScales kNoScales;
  return PdbBudgets(pdbs, present, kNoScales);
}

// A preempted pod's grace period is over: it leaves its node, loses the
// work since it started (or since its last checkpoint), and comes back as
// its controller would recreate it (model/eviction.h), or is gone.
void Simulation::Evicted(size_t id, double now) {
  SimPod& p = pods_[id];
  const auto node = static_cast<size_t>(p.node);
  cluster_.Unbind(node, id);
  Stopped(id, node);
  NodeChanged(node, now);
  --running_;
  if (permit_) permit_->Stopped(id, now);
  p.terminating = false;
  p.finish_event = kNoEvent;
  p.finish_at = kNever;
  const Pod& pod = workload_.pods[id].pod;
  const double ran = std::max(0.0, now - p.run_start);
  const double lost = LostWorkSeconds(pod, ran);
  p.done += ran - lost;
  const double lost_gpu_seconds = lost * static_cast<double>(PodInfo::Make(pod, id).gpu.total_milli()) / kGpuMilli;
  gpu_seconds_lost_ += lost_gpu_seconds;
  if (broken_gangs_) {
    broken_gangs_->Stopped(id, now);
    broken_gangs_->Lost(id, lost_gpu_seconds);
  }
  events_now_.assigned_pod_deleted = true;  // Pod/Delete of a scheduled pod
  if (RequeueOnEviction(pod).kind == EvictionRequeue::Kind::kGone) {
    p.phase = SimPod::Phase::kGone;
    ++gone_;
    return;
  }
  Enqueue(id, now);
}

bool PreemptionWouldHelp(const Failure& f) { return f.preemption && f.preemption->would_help; }

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

// Member `id` of an enforced gang passed Filter: it is reserved (bound in
// cluster_, holding its resources) and waits on Permit, unless its gang is
// complete with it, which starts every waiting member.
void Simulation::Reserve(size_t id, const Attempt& d, const QueuedPod& qp, double now) {
  SimPod& p = pods_[id];
  nominated_.Remove(p.waiting->info.pod);  // assumed: the nomination is done with (as at a bind)
  p.phase = SimPod::Phase::kReserved;
  p.node = static_cast<int32_t>(d.node);
  p.waiting->popped = qp;
  Ran(id, d.node);
  NodeChanged(d.node, now);
  ++reserved_;
  GangPermit::Reserved r = permit_->Reserve(id, p.waiting->info.gpu.total_milli(), now);
  const int32_t gang = permit_->EnforcedGangOf(id);
  if (r.deadline) {
    events_.Push(*r.deadline, EventKind::kPermitTimeout, static_cast<uint64_t>(gang));
    ++live_timeouts_;
  }
  if (r.allow.empty()) {
    // GangScheduling's and Coscheduling's Permit activate the gang's
    // unscheduled pods (handle.Activate) before returning Wait, members
    // just rejected by a timeout included. Members rejected while this
    // moment's pods were tried (a session's end, Coscheduling's PostFilter,
    // preemption) are not: each pod is then rejected at most once a moment,
    // so the moment ends (upstream spends real time and backoff there).
    queue_.Activate([&](const QueuedPod& q) {
      return permit_->EnforcedGangOf(q.id) == gang && !rejected_scheduling_now_.count(q.id);
    });
  }
  for (size_t a : r.allow) {
    --reserved_;
    Run(a, now);
  }
}

// A member waiting on Permit is rejected at `now`: unreserved, and back in
// the unschedulable pool with `message` (upstream handleBindingCycleError:
// the rejection is Unschedulable; forgetting the assumed pod is an
// AssignedPodDelete event for the other pods).
void Simulation::RejectWaiting(size_t id, double now, const std::string& message) {
  SimPod& p = pods_[id];
  permit_->Unreserve(id, now);
  const auto node = static_cast<size_t>(p.node);
  cluster_.Unbind(node, id);
  Stopped(id, node);
  NodeChanged(node, now);
  --reserved_;
  p.phase = SimPod::Phase::kWaiting;
  auto f = std::make_shared<Failure>();
  f->message = message;
  p.waiting->last_failure = std::move(f);
  queue_.AddUnschedulable(*p.waiting->popped, now);
  p.waiting->popped.reset();
  rejected_now_.insert(id);
  if (scheduling_) rejected_scheduling_now_.insert(id);
  ++permit_rejections_;
  events_now_.assigned_pod_deleted = true;
  busy_ = true;
}

void Simulation::RejectAll(const std::vector<size_t>& ids, double now, const std::string& message) {
  for (size_t id : ids) RejectWaiting(id, now, message);
}

bool Simulation::EndSessions(double now) {
  const std::vector<size_t> out = permit_->EndSession(now);
  if (out.empty()) return false;
  std::vector<std::string> messages;
  messages.reserve(out.size());
  for (size_t id : out) messages.push_back(permit_->SessionMessage(permit_->EnforcedGangOf(id)));
  for (size_t k = 0; k < out.size(); ++k) RejectWaiting(out[k], now, messages[k]);
  return true;
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

void Simulation::ArmTimers(double now) {
  // Only ticks that move a pod are scheduled; the others would do nothing.
  double b = classes_queue_ ? classes_queue_->NextBackoffFlush() : queue_.NextBackoffFlush();
  // A pod already past its backoff (only a failed-with-error pod under
  // max_backoff 0 can be) waits for the next tick: kube-scheduler would
  // retry it in a hot loop, which in zero-time scheduling would never end.
  if (!(b > now)) b = (std::floor(now / kBackoffFlushInterval) + 1) * kBackoffFlushInterval;
  if (b < armed_backoff_) {
    armed_backoff_ = b;
    events_.Push(b, EventKind::kBackoffFlush);
  }
  const double f = classes_queue_ ? classes_queue_->NextUnschedulableFlush() : queue_.NextUnschedulableFlush();
  if (f < armed_leftover_) {
    armed_leftover_ = std::max(f, now);
    events_.Push(armed_leftover_, EventKind::kUnschedulableFlush);
  }
}

void Simulation::CheckInvariants(double now) {
  std::string what;
  for (size_t i : touched_) {
    what = CheckNodeInvariants(cluster_, i);
    if (what.empty()) {
      NodeUsage usage;
      if (i < running_on_.size()) {
        for (size_t id : running_on_[i]) {
          const PodInfo info = PodInfo::Make(workload_.pods[id].pod, id);
          usage.Add(info.requests, info.gpu);
        }
      }
      what = CheckNodeUsage(cluster_, i, usage);
    }
    if (!what.empty()) break;
  }
  if (what.empty())
    // A bare pod preemption removed is done with, as a finished one is.
    // A member waiting on Permit holds its node like a running pod.
    what = CheckPodConservation(finished_ + gone_, running_ + reserved_, static_cast<int64_t>(QueueSize()) + held_,
                                rejected_, arrived_);
  if (what.empty() && permit_) what = permit_->CheckInvariants();
  if (what.empty()) return;
  ReportInvariantViolation(options_.invariant_failed, "at t=" + FormatSeconds(now) + ": " + what);
}

void Simulation::Progress(double fraction) {
  if (!options_.progress) return;
  const int percent = static_cast<int>(fraction * 100);
  if (percent <= last_percent_) return;
  last_percent_ = percent;
  options_.progress(fraction);
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

SimResult Simulation::Run() {
  Init();
  while (HasEvents()) {
    const double now = NextTime();
    if (options_.end_time && now > *options_.end_time) break;
    if (options_.max_batches > 0 && batches_++ >= options_.max_batches) break;
    if (Quiescent()) break;  // only leftover flushes remain: see simulator.h
    touched_.clear();
    events_now_.Clear();
    rejected_now_.clear();
    rejected_scheduling_now_.clear();
    busy_ = false;
    // Events at one time commute (each only adds to activeQ, changes the
    // cluster, or flags a cluster event handled below), except a node
    // removal and its pods' finishes, which RemoveNode reconciles.
    while (!events_.empty() && events_.Top().time == now) {
      Handle(events_.Pop(), now);
      ++handled_;
    }
    for (; next_arrival_ < arrivals_.size() && workload_.pods[arrivals_[next_arrival_]].arrival == now; ++next_arrival_) {
      Handle(Event{now, 0, arrivals_[next_arrival_], EventKind::kPodArrival}, now);
      ++handled_;
    }
    // movePodsToActiveOrBackoffQueue once for the batch: nothing enters the
    // pool between events at one time, so once is the same as once per event
    // (a pod moves when some event moves it).
    if (events_now_.any()) Requeue(now, events_now_);
    ScheduleAll(now);
    ArmTimers(now);
    if (busy_) {
      if (!first_time_) first_time_ = now;
      last_time_ = now;
      busy_at_now_ = true;
    }
    // A pod that runs for 0 s finishes at this same time: sample once, after.
    const bool again = NextTime() == now && !Quiescent();
    if (!again && busy_at_now_) {
      metrics_.Sample(now, static_cast<int64_t>(QueueSize()) + held_ + reserved_, running_);
      busy_at_now_ = false;
    }
    if (options_.check_invariants) CheckInvariants(now);
    Progress(std::min(0.99, static_cast<double>(handled_) / static_cast<double>(expected_)));
  }
  double end = last_time_.value_or(0);
  if (options_.end_time) {
    end = *options_.end_time;
    const std::optional<double> last = metrics_.last_sample_time();
    if (!last || end > *last) metrics_.Sample(end, static_cast<int64_t>(QueueSize()) + held_ + reserved_, running_);
  }
  SimResult r = Result(end);
  if (options_.progress) options_.progress(1.0);
  return r;
}

}  // namespace sim_internal

SimResult Simulate(const Workload& workload, std::vector<Node> initial_nodes, const ProfileSchedulers& profiles,
                   const SimOptions& options) {
  sim_internal::Simulation sim(workload, std::move(initial_nodes), profiles, options);
  return sim.Run();
}

SimResult Simulate(const Workload& workload, std::vector<Node> initial_nodes, Scheduler& scheduler,
                   const SimOptions& options) {
  return Simulate(workload, std::move(initial_nodes), ProfileSchedulers{{kDefaultSchedulerName, &scheduler}},
                  options);
}

}  // namespace gpusched

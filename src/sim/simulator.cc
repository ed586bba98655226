#include "gpusched/sim/simulator.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "gpusched/model/eviction.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/model/validation.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/framework/pre_enqueue.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/plugins/default_preemption.h"
#include "gpusched/sim/class_queue.h"
#include "gpusched/sim/event_queue.h"
#include "gpusched/sim/invariants.h"
#include "gpusched/sim/percentiles.h"
#include "gpusched/sim/queueing_hints.h"
#include "gpusched/sim/scheduling_queue.h"

namespace gpusched {
namespace {

constexpr uint64_t kNoEvent = ~0ull;

// Shortest text that reads back as the same double ("0.1", not 0.1000...1).
std::string FormatSeconds(double t) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, t);
  return std::string(buf, res.ptr);
}

// What a pod needs only while it waits: made when it is queued, freed when
// it is bound.
struct WaitingPod {
  PodInfo info;  // what Schedule needs
  // Why its last attempt failed: shared with every pod of its class that
  // failed against the same cluster. Its rejectors decide which events
  // requeue it (QueueingHints).
  std::shared_ptr<const Failure> last_failure;
  // status.nominatedNodeName, set by DefaultPreemption. Only the PostFilter
  // reads it (gpusched's Scheduler does not try the nominated node first),
  // so it does not set a pod apart from its class for Schedule.
  std::optional<size_t> nominated;
};

// One workload pod through the run: a million-pod run holds a million, so
// it keeps 56 bytes. What only a waiting pod needs is in `waiting`, the
// message of a rejected pod in Simulation::rejections_; what the WorkloadPod
// says is read from there.
struct SimPod {
  // kHeld: never attempted (sched/pre_enqueue.h: an unserved schedulerName,
  // scheduling gates, HAMi's vGPUs, DRA claims); pending to the end.
  // kGone: a bare pod DefaultPreemption evicted (nothing recreates it).
  enum class Phase : uint8_t { kNotArrived, kWaiting, kRunning, kFinished, kRejected, kHeld, kGone };
  Phase phase = Phase::kNotArrived;
  int32_t node = -1;              // current (running) or last node
  int32_t attempts = 0, evictions = 0;
  // Preempted, running out its grace period: its finish event is the end
  // of its termination.
  bool terminating = false;
  double start = -1, finish = -1;
  double run_start = -1;  // of its current run
  double done = 0;        // seconds of work kept (checkpoints) from runs cut short by preemption
  double finish_at = kNever;        // while running
  uint64_t finish_event = kNoEvent;  // seq of the live finish event
  std::unique_ptr<WaitingPod> waiting;
};

class Simulation {
 public:
  Simulation(const Workload& w, std::vector<Node> nodes, const ProfileSchedulers& profiles, const SimOptions& o)
      : workload_(w),
        profiles_(profiles),
        options_(o),
        cluster_(std::move(nodes)),
        queue_(SchedulingQueueOptions{o.order, o.initial_backoff, o.max_backoff, o.pop_from_backoff_q}),
        metrics_(cluster_, o.node_frag_milli, o.max_samples) {
    if (UseClassQueue(o, profiles)) classes_queue_.emplace(queue_.options());
  }

  // The class queue gives the plain queue's answers when the pop order of a
  // moment is fixed (SchedulerPopFromBackoffQ), a pod is requeued by its
  // class's hints, and a bind can only make a class's pods fail
  // (gpusched's own filters): see class_queue.h.
  static bool UseClassQueue(const SimOptions& o, const ProfileSchedulers& profiles) {
    if (!o.group_by_class || !o.queueing_hints || !o.pop_from_backoff_q) return false;
    for (const auto& [name, s] : profiles)
      if (!AllInTreeFilters(s->filters())) return false;
    return true;
  }

  // The profile serving a pod CheckBeforeScheduling let in (its profile
  // exists). With one profile, no need to read the pod's schedulerName.
  Scheduler& SchedulerFor(const PodInfo& pod) const {
    return profiles_.size() == 1 ? *profiles_.front().second : *ProfileFor(pod, profiles_);
  }

  SimResult Run();

 private:
  const Workload& workload_;
  // Profiles by schedulerName; a pod whose name none serves is held.
  const ProfileSchedulers& profiles_;
  const SimOptions& options_;
  ClusterState cluster_;
  SchedulingQueue queue_;
  // The same queue by pod class (sim/class_queue.h), used instead of queue_
  // when it applies (UseClassQueue).
  std::optional<ClassQueue> classes_queue_;
  PodClassTable classes_;
  SimMetrics metrics_;
  EventQueue events_;
  // Arrivals are streamed in time order (stably: workload order on ties)
  // rather than pushed: the heap then holds only the running pods' finishes
  // and a few timers, which keeps a million-pod trace's heap small.
  std::vector<size_t> arrivals_;
  size_t next_arrival_ = 0;
  std::vector<SimPod> pods_;
  // Why a pod was rejected or held (few are).
  std::unordered_map<size_t, std::string> rejections_;
  std::unordered_map<size_t, std::string> held_reasons_;
  int64_t held_ = 0;

  // Pending finishes and node events: with the arrivals, all that can still
  // release or add room.
  size_t live_events_ = 0;
  double armed_backoff_ = kNever, armed_leftover_ = kNever;
  ClusterEvents events_now_;  // pods deleted and nodes added in this batch
  // Something happened in this batch: not only stale finishes (of evicted
  // pods) or flushes that moved nothing. Only such batches are samples.
  bool busy_ = false;
  bool busy_at_now_ = false;  // some batch at the current time was busy
  std::vector<size_t> touched_;  // nodes changed in this batch (invariant checks)
  // With check_invariants: which pods run on each node, by the simulator's
  // own account, to recompute each touched node's usage from its pods.
  std::vector<std::vector<size_t>> running_on_;
  void Ran(size_t id, size_t node) {
    if (!options_.check_invariants) return;
    if (running_on_.size() <= node) running_on_.resize(node + 1);
    running_on_[node].push_back(id);
  }
  void Stopped(size_t id, size_t node) {
    if (!options_.check_invariants || node >= running_on_.size()) return;
    std::erase(running_on_[node], id);
  }
  int64_t arrived_ = 0, running_ = 0, finished_ = 0, rejected_ = 0;
  int64_t attempts_ = 0;
  // Preemption (profiles with DefaultPreemption): sched/default_preemption.h.
  int64_t gone_ = 0, preemptions_ = 0, victims_ = 0;
  double gpu_seconds_lost_ = 0;
  std::map<int32_t, int64_t> victims_by_priority_;
  void Preempt(size_t id, const Scheduler& scheduler, double now);
  void Evicted(size_t id, double now);
  std::optional<double> first_time_, last_time_;
  // Progress: events handled against an estimate of the total.
  size_t handled_ = 0, expected_ = 1;
  int last_percent_ = -1;

  // Nothing can release or add room any more, and no pod is left to try on
  // what is free now (activeQ and backoffQ are empty). Only the leftover
  // flush and the error backoff remain, and their retries must fail: every
  // pooled pod failed after the last release, and since then pods were only
  // bound, which leaves less room.
  bool Quiescent() const {
    const bool queued = classes_queue_ ? classes_queue_->active_or_backoff_size() > 0
                                       : queue_.active_size() > 0 || queue_.backoff_size() > 0;
    return live_events_ == 0 && next_arrival_ == arrivals_.size() && !queued;
  }
  size_t QueueSize() const { return classes_queue_ ? classes_queue_->size() : queue_.size(); }
  bool HasEvents() const { return !events_.empty() || next_arrival_ < arrivals_.size(); }
  double NextTime() const {
    double t = events_.empty() ? kNever : events_.Top().time;
    if (next_arrival_ < arrivals_.size()) t = std::min(t, workload_.pods[arrivals_[next_arrival_]].arrival);
    return t;
  }
  void Init();
  void Handle(const Event& e, double now);
  void Arrive(size_t id, double now);
  // Returns the pod's GPU request in milli-GPU.
  int64_t Enqueue(size_t id, double now);
  void Finish(size_t id, double now);
  void RemoveNode(size_t i, double now);
  void ScheduleAll(double now);
  void ScheduleAllByClass(double now);
  void Bound(size_t id, const Attempt& a, double now);
  void ArmTimers(double now);
  void NodeChanged(size_t i, double now) {
    metrics_.NodeChanged(cluster_, i, now);
    touched_.push_back(i);
  }
  void CheckInvariants(double now);
  void Progress(double fraction);
  SimResult Result(double end);
};

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
  p.waiting = std::make_unique<WaitingPod>(WaitingPod{PodInfo::Make(pod, id), {}, std::nullopt});
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
  events_now_.assigned_pod_deleted = true;  // Pod/Delete of a scheduled pod
}

void Simulation::RemoveNode(size_t i, double now) {
  std::vector<BoundPod> evicted = cluster_.RemoveNode(i);
  for (const BoundPod& bp : evicted) Stopped(bp.id, i);
  NodeChanged(i, now);
  for (const BoundPod& bp : evicted) {
    SimPod& p = pods_[bp.id];
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
// (PodEligibleToPreemptOthers). Other pods are not kept off the nominated
// node meanwhile (gpusched's Scheduler does not count nominated pods).
void Simulation::Preempt(size_t id, const Scheduler& scheduler, double now) {
  SimPod& p = pods_[id];
  std::vector<SchedStatus::Code> codes(cluster_.size(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  FilterVerdict why;
  for (size_t i = 0; i < cluster_.size(); ++i)
    if (cluster_.present(i))
      codes[i] = CheckFilters(scheduler.filters(), p.waiting->info, cluster_.node(i), cluster_.state(i), why)
                     ? why.code
                     : SchedStatus::Code::kSuccess;
  PreemptionInputs in;
  in.pod_of = [this](uint64_t v) -> const Pod* { return v < pods_.size() ? &workload_.pods[v].pod : nullptr; };
  in.terminating_by_preemption = [this](uint64_t v) { return v < pods_.size() && pods_[v].terminating; };
  std::optional<size_t> nominated = p.waiting->nominated;
  if (nominated && (*nominated >= cluster_.size() || !cluster_.present(*nominated))) nominated.reset();
  PreemptionResult r =
      gpusched::Preempt(p.waiting->info, cluster_, codes, scheduler.filters(), in, /*offset_seed=*/0, nominated);
  if (!r.nominated) {
    // Not eligible (victims still terminating): the nomination stands;
    // otherwise it is cleared.
    if (r.message.find(kNotEligibleTerminating) == std::string::npos) p.waiting->nominated.reset();
    return;
  }
  ++preemptions_;
  p.waiting->nominated = r.node;
  for (const BoundPod& v : r.victims) {
    SimPod& vp = pods_[v.id];
    if (vp.terminating) continue;  // already being deleted: no second call
    ++victims_;
    ++victims_by_priority_[v.priority];
    // Gone once its grace period is over (the running finish is dropped),
    // unless it ends first.
    const double gone = now + static_cast<double>(TerminationGracePeriodSeconds(workload_.pods[v.id].pod));
    if (vp.finish_at <= gone) continue;
    vp.terminating = true;
    vp.finish_event = events_.Push(gone, EventKind::kPodFinish, v.id);
    ++live_events_;
  }
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
  p.terminating = false;
  p.finish_event = kNoEvent;
  p.finish_at = kNever;
  const Pod& pod = workload_.pods[id].pod;
  const double ran = std::max(0.0, now - p.run_start);
  const double lost = LostWorkSeconds(pod, ran);
  p.done += ran - lost;
  gpu_seconds_lost_ += lost * static_cast<double>(PodInfo::Make(pod, id).gpu.total_milli()) / kGpuMilli;
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
  p.waiting.reset();
  p.phase = SimPod::Phase::kRunning;
  p.node = static_cast<int32_t>(d.node);
  Ran(id, d.node);
  if (p.start < 0) p.start = now;
  ++running_;
  NodeChanged(d.node, now);
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
    what = CheckPodConservation(finished_ + gone_, running_, static_cast<int64_t>(QueueSize()) + held_, rejected_,
                                arrived_);
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

SimResult Simulation::Run() {
  Init();
  while (HasEvents()) {
    const double now = NextTime();
    if (options_.end_time && now > *options_.end_time) break;
    if (Quiescent()) break;  // only leftover flushes remain: see simulator.h
    touched_.clear();
    events_now_.Clear();
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
    if (events_now_.any()) {
      if (classes_queue_) {
        classes_queue_->Requeue(now, [this](size_t id, const Failure& f) {
          const PodInfo& info = pods_[id].waiting->info;
          return WorthRequeuing(SchedulerFor(info).filters(), f.rejectors, info, events_now_);
        });
      } else if (options_.queueing_hints) {
        queue_.MoveToActiveOrBackoffQueue(now, [this](const QueuedPod& qp) {
          const WaitingPod& w = *pods_[qp.id].waiting;
          return WorthRequeuing(SchedulerFor(w.info).filters(), w.last_failure ? w.last_failure->rejectors : 0, w.info,
                                events_now_);
        });
      } else {
        queue_.MoveAllToActiveOrBackoffQueue(now);
      }
    }
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
      metrics_.Sample(now, static_cast<int64_t>(QueueSize()) + held_, running_);
      busy_at_now_ = false;
    }
    if (options_.check_invariants) CheckInvariants(now);
    Progress(std::min(0.99, static_cast<double>(handled_) / static_cast<double>(expected_)));
  }
  double end = last_time_.value_or(0);
  if (options_.end_time) {
    end = *options_.end_time;
    const std::optional<double> last = metrics_.last_sample_time();
    if (!last || end > *last) metrics_.Sample(end, static_cast<int64_t>(QueueSize()) + held_, running_);
  }
  SimResult r = Result(end);
  if (options_.progress) options_.progress(1.0);
  return r;
}

SimResult Simulation::Result(double end) {
  SimResult r;
  r.policy = options_.policy.empty() && !profiles_.empty() ? std::string(profiles_.front().second->policy().Name())
                                                           : options_.policy;
  for (size_t i = 0; i < cluster_.size(); ++i) r.node_names.push_back(cluster_.node(i).name());
  r.series = metrics_.Series();

  std::vector<double> times = options_.snapshot_times;
  if (times.empty()) {
    const double start = std::min(first_time_.value_or(0), end);
    for (int k = 0; k < 4; ++k) times.push_back(start + (end - start) * k / 4);
    times.push_back(end);
  }
  std::sort(times.begin(), times.end());
  r.snapshots = metrics_.Snapshots(times, cluster_.size());
  metrics_.ReleaseChangeLog();

  SimSummary& s = r.summary;
  std::vector<double> delays, jcts;
  delays.reserve(pods_.size());
  jcts.reserve(pods_.size());
  r.pods.reserve(pods_.size() + workload_.rejected.size());
  for (size_t i = 0; i < pods_.size(); ++i) {
    const SimPod& p = pods_[i];
    const WorkloadPod& wp = workload_.pods[i];
    PodOutcome o;
    o.name.reserve(wp.pod.ns().size() + 1 + wp.pod.name().size());
    o.name.append(wp.pod.ns()).append("/").append(wp.pod.name());
    o.arrival = wp.arrival;
    o.start = p.start;
    o.finish = p.finish;
    if (p.node >= 0) o.node = cluster_.node(static_cast<size_t>(p.node)).name();
    o.attempts = p.attempts;
    o.evictions = p.evictions;
    switch (p.phase) {
      case SimPod::Phase::kFinished: o.state = PodOutcome::State::kFinished; ++s.finished; break;
      case SimPod::Phase::kRunning: o.state = PodOutcome::State::kRunning; ++s.running; break;
      case SimPod::Phase::kWaiting: {
        o.state = PodOutcome::State::kPending;
        const Failure* last = p.waiting->last_failure.get();
        if (classes_queue_) {
          o.attempts += static_cast<int32_t>(classes_queue_->Attempts(i));
          last = classes_queue_->LastFailure(i).get();
        }
        if (last) o.reason = last->message;
        ++s.pending;
        break;
      }
      case SimPod::Phase::kHeld:
        o.state = PodOutcome::State::kPending;
        if (auto it = held_reasons_.find(i); it != held_reasons_.end()) o.reason = it->second;
        ++s.pending;
        break;
      case SimPod::Phase::kNotArrived:
        o.state = PodOutcome::State::kPending;
        o.reason = "not arrived: it arrives at " + FormatSeconds(wp.arrival) + " s, after the end of the simulation (" +
                   FormatSeconds(end) + " s)";
        ++s.pending;
        break;
      case SimPod::Phase::kGone:
        o.state = PodOutcome::State::kPreempted;
        o.reason = "preempted; a bare pod is not recreated";
        ++s.preempted;
        break;
      case SimPod::Phase::kRejected:
        o.state = PodOutcome::State::kRejected;
        if (auto it = rejections_.find(i); it != rejections_.end()) o.reason = it->second;
        ++s.rejected;
        break;
    }
    if (p.start >= 0) delays.push_back(p.start - wp.arrival);
    if (o.state == PodOutcome::State::kFinished) jcts.push_back(p.finish - wp.arrival);
    r.pods.push_back(std::move(o));
  }
  for (const InputError& e : workload_.rejected) {
    PodOutcome o;
    if (e.object.rfind("Pod/", 0) == 0) {
      o.name = e.object.substr(4);
    } else if (!e.object.empty()) {
      o.name = e.object;
    } else {
      o.name = e.file + (e.line > 0 ? ":" + std::to_string(e.line) : "");
    }
    o.state = PodOutcome::State::kRejected;
    o.reason = e.message;
    ++s.rejected;
    r.pods.push_back(std::move(o));
  }
  s.policy = r.policy;
  s.pods = static_cast<int64_t>(r.pods.size());
  s.end_time = end;
  s.mean_gpu_alloc_pct = metrics_.MeanGpuAllocPct(end);
  s.mean_frag_pct = metrics_.MeanFragPct(end);
  s.queueing_delay = ComputePercentiles(std::move(delays));
  s.jct = ComputePercentiles(std::move(jcts));
  s.scheduling_attempts = attempts_;
  s.preemptions = preemptions_;
  s.victims = victims_;
  s.victims_by_priority.assign(victims_by_priority_.begin(), victims_by_priority_.end());
  s.gpu_hours_lost = gpu_seconds_lost_ / 3600;
  return r;
}

}  // namespace

SimResult Simulate(const Workload& workload, std::vector<Node> initial_nodes, const ProfileSchedulers& profiles,
                   const SimOptions& options) {
  Simulation sim(workload, std::move(initial_nodes), profiles, options);
  return sim.Run();
}

SimResult Simulate(const Workload& workload, std::vector<Node> initial_nodes, Scheduler& scheduler,
                   const SimOptions& options) {
  return Simulate(workload, std::move(initial_nodes), ProfileSchedulers{{kDefaultSchedulerName, &scheduler}},
                  options);
}

}  // namespace gpusched

// Simulate and Simulation's event loop (sim/simulation.h): the run's
// batches of events at one time, each event's handler (arrivals, finishes,
// node changes, queue flushes, Permit timeouts), the timers and progress.
// The rest of the simulation lives beside it, one concern a file:
// sim_scheduling.cc (the scheduling cycle and requeueing),
// sim_preemption.cc (DefaultPreemption, evictions), sim_permit.cc (gangs
// waiting on Permit), sim_invariants.cc (the checks after each batch) and
// sim_outcomes.cc (the SimResult). The handlers stay here with the loop:
// they are what a batch does, and RemoveNode reconciles a node's removal
// with its pods' finishes at the same time.
#include "gpusched/sim/simulator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpusched/model/gpu_request.h"
#include "gpusched/model/validation.h"
#include "gpusched/sched/framework/pre_enqueue.h"
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
  p.waiting = std::make_unique<WaitingPod>(WaitingPod{PodInfo::Make(pod, id), {}, std::nullopt});
  any_pod_aware_ |= p.waiting->info.pod_aware;
  const int64_t gpu_milli = p.waiting->info.gpu.total_milli();
  if (std::optional<HeldPod> held = CheckBeforeScheduling(p.waiting->info, profiles_, options_.dra, cluster_)) {
    // Never attempted, whatever happens later in the run.
    p.waiting.reset();
    p.phase = SimPod::Phase::kHeld;
    // The advice follows the reason (only a pod of a scheduler gpusched does
    // not run has one, and it has no message).
    held_reasons_[id] = {held->message.empty() ? held->diagnosis.text
                                               : held->message + " (" + held->diagnosis.text + ")",
                         held->diagnosis.advice};
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
  events_now_.pods_deleted.push_back(&workload_.pods[id].pod);
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
  for (const BoundPod& bp : evicted) events_now_.pods_deleted.push_back(&workload_.pods[bp.id].pod);
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


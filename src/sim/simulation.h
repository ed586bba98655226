// The simulation's internals (sim/simulator.h's Simulate), shared by the
// files that implement it, one concern a file: simulator.cc runs the event
// loop and its event handlers; sim_scheduling.cc the scheduling cycle and
// requeueing; sim_preemption.cc DefaultPreemption and evictions;
// sim_permit.cc the members of gangs waiting on Permit (the Permit stage
// itself is gang_permit.h); sim_invariants.cc the checks after each batch;
// sim_outcomes.cc turns the final state into a SimResult. They share one
// class because every step reads and writes the same per-pod phases and
// counters, and the conservation invariant (CheckInvariants) holds only
// when each transition keeps all of them.
#ifndef GPUSCHED_SRC_SIM_SIMULATION_H_
#define GPUSCHED_SRC_SIM_SIMULATION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/framework/pre_enqueue.h"
#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sim/broken_gangs.h"
#include "gpusched/sim/class_queue.h"
#include "gpusched/sim/event_queue.h"
#include "gpusched/sim/gang_permit.h"
#include "gpusched/sim/queueing_hints.h"
#include "gpusched/sim/scheduling_queue.h"
#include "gpusched/sim/simulator.h"

namespace gpusched {
namespace sim_internal {

inline constexpr uint64_t kNoEvent = ~0ull;

// Shortest text that reads back as the same double ("0.1", not 0.1000...1).
std::string FormatSeconds(double t);

// What a pod needs only while it waits: made when it is queued, freed when
// it is bound.
struct WaitingPod {
  PodInfo info;  // what Schedule needs
  // Why its last attempt failed: shared with every pod of its class that
  // failed against the same cluster. Its rejectors decide which events
  // requeue it (QueueingHints).
  std::shared_ptr<const Failure> last_failure;
  // Its status.nominatedNodeName, when DefaultPreemption set one, is in
  // Simulation::nominated_ (which points at `info`).
  // Reserved and waiting on Permit (kReserved): the queue entry it was
  // popped as, to go back to the pool with its counts if it is rejected.
  std::optional<QueuedPod> popped;
};

// One workload pod through the run: a million-pod run holds a million, so
// it keeps 56 bytes. What only a waiting pod needs is in `waiting`, the
// message of a rejected pod in Simulation::rejections_; what the WorkloadPod
// says is read from there.
struct SimPod {
  // kHeld: never attempted (sched/framework/pre_enqueue.h: an unserved schedulerName,
  // scheduling gates, HAMi's vGPUs, DRA claims); pending to the end.
  // kGone: a bare pod DefaultPreemption evicted (nothing recreates it).
  // kReserved: a gang member bound to its node (holding its resources) and
  // waiting on Permit (sim/gang_permit.h); not running.
  enum class Phase : uint8_t { kNotArrived, kWaiting, kRunning, kFinished, kRejected, kHeld, kGone, kReserved };
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
        cluster_(std::move(nodes), o.objects),
        queue_(SchedulingQueueOptions{o.order, o.initial_backoff, o.max_backoff, o.pop_from_backoff_q}),
        metrics_(cluster_, o.node_frag_milli, o.max_samples) {
    if (o.objects) cluster_.set_objects(o.objects);
    if (o.gangs && !o.gangs->gangs.empty()) {
      std::vector<const Pod*> pods;
      pods.reserve(w.pods.size());
      for (const WorkloadPod& wp : w.pods) pods.push_back(&wp.pod);
      permit_.emplace(*o.gangs, o.gang_serving ? *o.gang_serving : no_gang_serving_, pods);
    }
    // The class queue assumes a bind only makes a class's pods fail; a
    // Permit rejection unbinds at a moment of its own, so gangs enforced
    // at Permit keep the pod-by-pod queue.
    if (UseClassQueue(o, profiles, w) && !(permit_ && permit_->enforcing())) classes_queue_.emplace(queue_.options());
    for (const auto& [name, s] : profiles_)
      if (s->preemption()) s->set_nominated_pods(&nominated_);
    InitPreemptionGangs();
  }
  ~Simulation() {
    for (const auto& [name, s] : profiles_)
      if (s->preemption()) s->set_nominated_pods(nullptr);
  }
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // The class queue gives the plain queue's answers when the pop order of a
  // moment is fixed (SchedulerPopFromBackoffQ), a pod is requeued by its
  // class's hints, and a bind can only make a class's pods fail
  // (gpusched's own filters): see class_queue.h.
  //
  // Nor when a pod may be nominated (a profile preempts and some pod that
  // may preempt outranks another): the nominated pods count on their nodes
  // for the pods of lower or equal priority (sched/plugins/nominated_pods.h)
  // but not for themselves, so a nominated pod may fit where the rest of
  // its class fails, and a nomination that is cleared or bound elsewhere
  // gives room back within a moment.
  static bool UseClassQueue(const SimOptions& o, const ProfileSchedulers& profiles, const Workload& w) {
    if (!o.group_by_class || !o.queueing_hints || !o.pop_from_backoff_q) return false;
    bool preempts = false;
    for (const auto& [name, s] : profiles) {
      if (!AllInTreeFilters(s->filters())) return false;
      preempts = preempts || s->preemption();
    }
    // A bind may make a pod-aware pod fit (pod affinity, a spread's
    // smallest domain growing).
    for (const WorkloadPod& wp : w.pods)
      if (PodAwareSpec(wp.pod)) return false;
    return !preempts || !MayPreempt(w);
  }
  // Some pod that may preempt (preemptionPolicy not Never) outranks another.
  static bool MayPreempt(const Workload& w) {
    if (w.pods.empty()) return false;
    int32_t lowest = w.pods.front().pod.Priority();
    std::optional<int32_t> highest_preemptor;
    for (const WorkloadPod& wp : w.pods) {
      const int32_t p = wp.pod.Priority();
      lowest = std::min(lowest, p);
      if (wp.pod.preemption_policy != "Never" && (!highest_preemptor || p > *highest_preemptor)) highest_preemptor = p;
    }
    return highest_preemptor && *highest_preemptor > lowest;
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
  std::unordered_map<size_t, std::pair<std::string, Advice>> held_reasons_;  // reason, advice
  int64_t held_ = 0;

  // Gangs: Permit for the enforced ones, metrics for all.
  GangServing no_gang_serving_;
  std::optional<GangPermit> permit_;
  int64_t reserved_ = 0;  // pods in Phase::kReserved
  int64_t permit_rejections_ = 0;
  size_t live_timeouts_ = 0;   // Permit deadlines armed and not yet fired
  int64_t idle_timeouts_ = 0;  // timeouts that fired since a pod last started
  // Members rejected at Permit in this batch: like upstream's rejected pod,
  // not moved by the event their own unreserve makes.
  std::unordered_set<size_t> rejected_now_;
  std::unordered_set<size_t> rejected_scheduling_now_;  // of them, while pods were tried
  bool scheduling_ = false;  // inside ScheduleAll
  void Reserve(size_t id, const Attempt& d, const QueuedPod& qp, double now);
  void Run(size_t id, double now);
  void RejectWaiting(size_t id, double now, const std::string& message);
  void RejectAll(const std::vector<size_t>& ids, double now, const std::string& message);
  bool EndSessions(double now);

  // Pending finishes and node events: with the arrivals, all that can still
  // release or add room.
  size_t live_events_ = 0;
  double armed_backoff_ = kNever, armed_leftover_ = kNever;
  ClusterEvents events_now_;  // pods deleted and nodes added in this batch
  bool any_pod_aware_ = false;  // some pod so far has PodInfo::pod_aware
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
  // Preemption (profiles with DefaultPreemption): sched/plugins/defaultpreemption/default_preemption.h.
  int64_t gone_ = 0, preemptions_ = 0, victims_ = 0;
  double gpu_seconds_lost_ = 0;
  std::map<int32_t, int64_t> victims_by_priority_;
  // The waiting pods DefaultPreemption nominated (status.nominatedNodeName),
  // until they bind or their PostFilter clears it: the profiles' schedulers
  // count them on their nodes (sched/plugins/nominated_pods.h).
  NominatedPods nominated_;
  void Preempt(size_t id, const Scheduler& scheduler, double now);
  // Gangs under preemption (--preempt-gangs; sim/broken_gangs.h), when a
  // profile preempts and the input has gangs.
  std::optional<PreemptionGangs> preemption_gangs_;
  std::optional<BrokenGangs> broken_gangs_;
  void InitPreemptionGangs();
  std::vector<PdbBudget> Budgets() const;
  void Evicted(size_t id, double now);
  std::optional<double> first_time_, last_time_;
  // Progress: events handled against an estimate of the total.
  size_t handled_ = 0, expected_ = 1;
  size_t batches_ = 0;  // SimOptions::max_batches
  int last_percent_ = -1;

  // Nothing can release or add room any more, and no pod is left to try on
  // what is free now (activeQ and backoffQ are empty). Only the leftover
  // flush and the error backoff remain, and their retries must fail: every
  // pooled pod failed after the last release, and since then pods were only
  // bound, which leaves less room.
  //
  // Gangs waiting on Permit add their timeouts, which release room too; but
  // once only they remain and a round of them (each enforced gang timing
  // out twice) started nothing, the members would go on being reserved and
  // rejected the same way forever: the run stops, and they end pending.
  bool Quiescent() const {
    const bool queued = classes_queue_ ? classes_queue_->active_or_backoff_size() > 0
                                       : queue_.active_size() > 0 || queue_.backoff_size() > 0;
    const bool timeouts_matter = live_timeouts_ > 0 && idle_timeouts_ <= 2 * permit_->enforced_gangs() + 1;
    return live_events_ == 0 && next_arrival_ == arrivals_.size() && !queued && !timeouts_matter;
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
  void ScheduleQueue(double now);
  // movePodsToActiveOrBackoffQueue for the batch's events_now_.
  void Requeue(double now, const ClusterEvents& events);
  void ArmTimers(double now);
  void NodeChanged(size_t i, double now) {
    metrics_.NodeChanged(cluster_, i, now);
    touched_.push_back(i);
  }
  void CheckInvariants(double now);
  void Progress(double fraction);
  SimResult Result(double end);
};

bool PreemptionWouldHelp(const Failure& f);

}  // namespace sim_internal
}  // namespace gpusched

#endif  // GPUSCHED_SRC_SIM_SIMULATION_H_

// GangPermit: the Permit stage of gang scheduling in `gpusched simulate`,
// and the bookkeeping of every gang through a run.
//
// Under a profile that enforces a pod's gang (sched/framework/gang_batch.h's
// GangServing), a member that passes Filter is reserved on its node (it holds
// its resources) and WAITS, not running, until the gang's members waiting or
// running reach minCount (and the task / subgroup minimums Volcano and KAI
// check: GangReady, model/gang_readiness.h); then every waiting member is allowed at once and
// starts. This is how upstream's plugins gate a gang:
// - kube-scheduler's GangScheduling (v1.35,
//   pkg/scheduler/framework/plugins/gangscheduling; KEP-4671): Permit returns
//   Wait while |assumed ∪ assigned| < minCount, with one deadline per group
//   (workloadmanager's defaultSchedulingTimeoutSeconds, 300 s), re-armed
//   after it expires; at the deadline the framework rejects the waiting pods;
// - scheduler-plugins' Coscheduling (pkg/coscheduling/coscheduling.go):
//   Permit waits until the assigned count reaches minMember, for the
//   PodGroup's scheduleTimeoutSeconds or else the args'
//   permitWaitingTimeSeconds (60 s); when one waiting pod times out, its
//   Unreserve rejects the group's other waiting pods, so the group's
//   deadline is its first waiting member's. Its PostFilter rejects the
//   group's waiting pods as soon as a sibling fails Filter and more than
//   podGroupRejectPercentage of minMember is unassigned ("optimistic
//   rejection in PostFilter").
// - Volcano and KAI have no Permit wait: they allocate a job's tasks in a
//   session and commit them only when the job is ready (minMember),
//   discarding the tentative allocations otherwise. gpusched models a
//   session as one scheduling moment: members reserved at a moment whose
//   gang is still below minCount when the moment's scheduling ends are all
//   rejected (EndSession).
// A rejected member is unreserved and goes back to the scheduling queue's
// unschedulable pool (upstream: handleBindingCycleError, a Permit rejection
// being Unschedulable); the caller does that.
//
// Under any other profile the members are placed one by one as stock
// kube-scheduler does; GangPermit then measures the GPU-seconds held by
// groups that run partially (members running while the group has never had
// minCount running at once).
//
// GangPermit keeps no cluster: the simulator binds, unbinds and queues; this
// class says who waits, who starts, who is rejected, and measures. Pod ids
// are the simulator's workload indices.
#ifndef GPUSCHED_SIM_GANG_PERMIT_H_
#define GPUSCHED_SIM_GANG_PERMIT_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/gang.h"
#include "gpusched/model/gang_readiness.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sim/sim_result.h"

namespace gpusched {

class GangPermit {
 public:
  // `pods[i]` is workload pod i; `gangs` and `serving` outlive the object.
  GangPermit(const GangSet& gangs, const GangServing& serving, const std::vector<const Pod*>& pods);

  // Some pod's gang is enforced: the simulator must route binds through
  // Reserve.
  bool enforcing() const { return enforcing_; }
  // Some gang's pods are in the run (metrics are worth reporting).
  bool any() const { return !gangs_.empty(); }
  int64_t enforced_gangs() const { return enforced_gangs_; }
  // The gang (index into the GangSet) of pod `id` whose scheduler enforces
  // it, or -1.
  int32_t EnforcedGangOf(size_t id) const;
  // Gang `gang` is enforced by a session (Volcano, KAI), not at Permit.
  bool Session(int32_t gang) const { return gangs_[static_cast<size_t>(gang)].session; }

  struct Reserved {
    // The members to start now (the reserved one among them), in the order
    // they were reserved; empty: the member waits.
    std::vector<size_t> allow;
    // A new deadline to arm for this gang (its first waiting member's).
    std::optional<double> deadline;
  };
  // Member `id` of an enforced gang passed Filter and is reserved at `now`,
  // holding `gpu_milli`.
  Reserved Reserve(size_t id, int64_t gpu_milli, double now);
  // The deadline armed for gang `gang` fired at `now`: the waiting members
  // to reject (empty when the gang started or the deadline is stale).
  std::vector<size_t> Expire(int32_t gang, double now);
  // The end of a scheduling moment: the waiting members of session gangs
  // (Volcano, KAI) to reject, gang by gang.
  std::vector<size_t> EndSession(double now);
  // Member `id` failed Filter at `now`: Coscheduling's PostFilter may reject
  // its group's waiting members (returned).
  std::vector<size_t> FilterFailed(size_t id);
  // A waiting member leaves at `now`, whoever rejects it (Expire's,
  // EndSession's and FilterFailed's members included): it no longer waits.
  void Unreserve(size_t id, double now);

  // Any gang member (enforced or not) starts or stops running.
  void Started(size_t id, int64_t gpu_milli, double now);
  void Stopped(size_t id, double now);

  bool Waiting(size_t id) const;
  // The scheduler's message for a member rejected by Expire / EndSession /
  // FilterFailed: "rejected due to timeout after waiting 5m0s at plugin
  // GangScheduling", ...
  std::string TimeoutMessage(int32_t gang) const;
  std::string SessionMessage(int32_t gang) const;
  static constexpr const char* kOptimisticRejection = "optimistic rejection in PostFilter";
  // Why a member still waits at the end of the run.
  std::string WaitingReason(size_t id) const;

  // The metrics at `end` (open intervals closed there).
  GangSimMetrics Metrics(double end) const;

  // "" or what is wrong: an enforced gang runs a member while it has
  // never had minCount running (the Permit invariant).
  std::string CheckInvariants() const;

 private:
  static constexpr double kNoDeadline = std::numeric_limits<double>::infinity();
  struct State {
    const Gang* gang = nullptr;
    const GangEnforcement* enforcement = nullptr;  // null: placed one by one
    bool session = false;                          // Volcano, KAI
    double timeout = 0;
    std::vector<size_t> waiting;  // in reservation order
    GangCount running_count;  // members running: in all (total) and by subgroup, for GangReady
    int64_t running_milli = 0;
    bool started = false;  // has been ready (GangReady) with its running members alone
    double deadline = kNoDeadline;
    double first_reserved = -1;  // of the wait not yet ended by a start
    bool timed_out = false;      // a timeout happened: the next reservation round is a retry
    bool retrying = false;
    double partial_since = -1;  // non-enforced: running members, never started
    bool ever_partial = false;
  };
  struct Member {
    int32_t gang = -1;
    bool enforced = false;
    bool waiting = false;
    bool running = false;
    int64_t milli = 0;
    double since = 0;  // reserved at
    std::string subgroup;  // its task / subgroup label (SubgroupLabel)
  };
  std::vector<State> gangs_;
  std::vector<Member> members_;  // by pod id
  bool enforcing_ = false;
  int64_t enforced_gangs_ = 0;
  // Measured as the run goes.
  std::vector<double> waits_;
  double waiting_gpu_seconds_ = 0;
  double partial_gpu_seconds_ = 0;
  int64_t timeouts_ = 0, retries_ = 0, session_rejections_ = 0, optimistic_rejections_ = 0;
  std::string violation_;

  void CloseWait(Member& m, double now);
  void AccruePartial(State& g, double now);
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_GANG_PERMIT_H_

// BrokenGangs: what preemption costs gangs in `gpusched simulate`, under
// either --preempt-gangs mode (sched/framework/gang_preemption.h).
//
// A gang is broken by preemption when it had at least minCount members
// running (not terminating) and a preemption's evictions leave it below
// minCount ("at least minCount" being GangReady, model/gang_readiness.h:
// its task / subgroup minimums included). Measured:
//  - gangs broken (a gang broken twice counts twice);
//  - GPU-hours lost with them: the work the evicted members of a broken gang
//    lose (since they started, or since their last checkpoint: the same
//    LostWorkSeconds as every victim's, so this is part of
//    SimSummary::gpu_hours_lost);
//  - idle GPU-hours: the GPUs a broken gang's members that still run hold,
//    from the break until the gang has minCount running again or they all
//    stop. Under `upstream` that is what half a job costs; under `whole` it
//    is 0 unless a member outlives its gang's eviction (it was not on the
//    cluster when its gang was evicted, e.g. reserved and recreated).
// Pod ids are the simulator's workload indices.
#ifndef GPUSCHED_SIM_BROKEN_GANGS_H_
#define GPUSCHED_SIM_BROKEN_GANGS_H_

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "gpusched/model/gang_readiness.h"
#include "gpusched/sched/framework/gang_preemption.h"

namespace gpusched {

class BrokenGangs {
 public:
  // `gangs` outlives the object; `num_pods` bounds the ids.
  BrokenGangs(const PreemptionGangs& gangs, size_t num_pods);

  // Member `id` starts running at `now` holding `gpu_milli`.
  void Started(size_t id, int64_t gpu_milli, double now);
  // Member `id` stops running at `now` (finished, its node left, or its
  // graceful termination starts); a second call does nothing.
  void Stopped(size_t id, double now);
  // One preemption at `now` starts the termination of `terminated` (its
  // victims and co-victims that were running): counts the gangs it breaks,
  // then stops them.
  void Preempted(const std::vector<size_t>& terminated, double now);
  // Evicted pod `id` lost `gpu_seconds` of work: counted when it was a
  // member of a gang its preemption broke.
  void Lost(size_t id, double gpu_seconds);

  struct Metrics {
    int64_t gangs_broken = 0;
    double gpu_hours_lost = 0;
    double idle_gpu_hours = 0;
  };
  Metrics Result(double end) const;

 private:
  struct State {
    GangCount running_count;  // members running: in all (total) and by subgroup, for GangReady
    int64_t running_milli = 0;
    bool broken = false;
    double since = 0;  // idle accrued up to here while broken
  };
  const PreemptionGangs& gangs_;
  std::vector<State> state_;
  std::vector<int64_t> milli_;  // by pod: its GPUs while counted running, else -1
  std::unordered_set<size_t> lost_with_gang_;
  int64_t broken_ = 0;
  double lost_gpu_seconds_ = 0;
  double idle_milli_seconds_ = 0;
  void Accrue(State& s, double now);
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_BROKEN_GANGS_H_

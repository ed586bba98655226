// Simulation's preemption (sim/simulation.h): DefaultPreemption as the
// PostFilter of a pod that just failed, the PDB budgets it reads, gangs
// under --preempt-gangs, and the end of a victim's grace period (Evicted).
// Kept together: the victims' termination started in Preempt is completed
// in Evicted, and both keep the same counters (victims, lost GPU-seconds).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/eviction.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "simulation.h"

namespace gpusched {
namespace sim_internal {

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
  // The failed cycle's PreFilter state, for the filters that compare the pod
  // with the pods on a node (NodePorts...), as batch_preemption.cc does.
  CycleState cycle;
  SchedStatus reject = SchedStatus::Success();
  PodInfo info = p.waiting->info;
  if (info.cycle == nullptr && scheduler.PreFilter(info, cluster_, cycle, reject) && reject.IsSuccess())
    info.cycle = &cycle;
  std::vector<SchedStatus::Code> codes(cluster_.size(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  FilterVerdict why;
  std::vector<const PodInfo*> scratch;
  // The statuses of the failed cycle, which counted the nominated pods.
  for (size_t i = 0; i < cluster_.size(); ++i)
    if (cluster_.present(i))
      codes[i] = CheckFiltersWithNominated(scheduler.filters(), info, cluster_.node(i), i,
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
      gpusched::Preempt(info, cluster_, codes, scheduler.filters(), in, /*offset_seed=*/0, nominated);
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
  events_now_.pods_deleted.push_back(&pod);
  if (RequeueOnEviction(pod).kind == EvictionRequeue::Kind::kGone) {
    p.phase = SimPod::Phase::kGone;
    ++gone_;
    return;
  }
  Enqueue(id, now);
}

bool PreemptionWouldHelp(const Failure& f) { return f.preemption && f.preemption->would_help; }

}  // namespace sim_internal
}  // namespace gpusched

#include "gpusched/sched/framework/pre_enqueue.h"

#include "gpusched/model/hami.h"
#include "gpusched/model/scheduling_gates.h"
#include "gpusched/sched/framework/dynamic_resources_verdict.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {
namespace {

// Schedulers users name in spec.schedulerName, with what gpusched can and
// cannot say about them.
struct KnownScheduler {
  const char* name;
  const char* what;
};
constexpr KnownScheduler kKnownSchedulers[] = {
    {"kai-scheduler", "NVIDIA KAI-Scheduler: queues, gang scheduling, GPU sharing"},
    {"volcano", "Volcano's scheduler: queues, gang scheduling"},
    {"yunikorn", "Apache YuniKorn: hierarchical queues"},
    {"scheduler-plugins-scheduler", "the kubernetes-sigs/scheduler-plugins scheduler"},
};

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

std::string ServedList(const ProfileSchedulers& profiles) {
  std::string s;
  for (const auto& [name, sch] : profiles) s += (s.empty() ? "" : ", ") + Quoted(name);
  return s.empty() ? "none" : s;
}

HeldPod NotModelledHami(const Pod& pod, const std::vector<std::string>& resources) {
  HeldPod h;
  h.diagnosis.kind = Diagnosis::Kind::kNotModelled;
  h.diagnosis.forever = true;
  std::string asks;
  if (!resources.empty()) {
    asks = " (";
    for (size_t i = 0; i < resources.size(); ++i) asks += (i ? ", " : "") + resources[i];
    asks += ")";
  }
  h.diagnosis.text = "not scheduled: it asks for HAMi vGPUs" + asks +
                     ", where nvidia.com/gpu counts slices of a device, not devices; HAMi's scheduler "
                     "(hami-scheduler, a kube-scheduler extender) places them from the per-device memory and "
                     "cores each node registers (hami.io/node-nvidia-register), which gpusched does not model, "
                     "so it neither places the pod nor counts it as whole GPUs";
  if (pod.scheduler_name != kHamiSchedulerName)
    h.diagnosis.text += " (its spec.schedulerName is " + Quoted(pod.scheduler_name) +
                        ", as without HAMi's webhook: that scheduler runs its own filters on it, which is what the "
                        "message says)";
  return h;
}

// The FitError of a plain scan of the profile's filters (with
// DefaultPreemption's verdict when the profile has it), or "" when some node
// passes them all.
std::string FilterFailureMessage(const PodInfo& pod, const ClusterState& cluster, const Scheduler& scheduler) {
  FitError err;
  err.num_all_nodes = static_cast<int64_t>(cluster.num_present());
  ReasonTally tally;
  FilterVerdict why;
  std::vector<SchedStatus::Code> codes(cluster.size(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    if (!CheckFilters(scheduler.filters(), pod, cluster.node(i), cluster.state(i), why)) return "";
    tally.Add(why);
    codes[i] = why.code;
  }
  tally.AddTo(err);
  if (scheduler.preemption())
    err.post_filter_message = EvaluatePreemption(pod, cluster, scheduler.filters(), codes).message;
  return err.Error();
}

}  // namespace

Scheduler* ProfileFor(const PodInfo& pod, const ProfileSchedulers& profiles) {
  Scheduler* s = nullptr;
  for (const auto& [name, sch] : profiles)
    if (name == pod.pod->scheduler_name) s = sch;
  return s;
}

std::optional<HeldPod> CheckBeforeScheduling(const PodInfo& pod, const ProfileSchedulers& profiles,
                                             const DraObjects* dra, const ClusterState& cluster) {
  const Pod& p = *pod.pod;
  // HAMi's resources are extended resources, requested as limited (their
  // requests default to and must equal their limits): most pods ask for none.
  const std::vector<std::string> hami = pod.other_extended ? HamiResourcesOf(p) : std::vector<std::string>{};
  Scheduler* scheduler = ProfileFor(pod, profiles);
  if (!scheduler) {
    if (p.scheduler_name == kHamiSchedulerName) return NotModelledHami(p, hami);
    HeldPod h;
    h.diagnosis.kind = Diagnosis::Kind::kSchedulerNotRun;
    // Not "can never fit": nothing was tried, and the scheduler it names
    // (or gpusched serving that name) may well place it.
    h.diagnosis.forever = false;
    std::string who;
    for (const KnownScheduler& k : kKnownSchedulers)
      if (p.scheduler_name == k.name) who = std::string(" (") + k.what + ")";
    h.diagnosis.text = "not scheduled: spec.schedulerName is " + Quoted(p.scheduler_name) + who +
                       ", a scheduler gpusched does not run (it serves " + ServedList(profiles) +
                       "), so the pod waits for that scheduler";
    h.diagnosis.advice = Advice{Advice::Kind::kServeSchedulerName, p.scheduler_name};
    return h;
  }
  if (p.IsSchedulingGated()) {
    HeldPod h;
    h.message = kSchedulingGatedMessage;
    h.diagnosis.kind = Diagnosis::Kind::kSchedulingGated;
    h.diagnosis.forever = false;
    h.diagnosis.text = std::string("not attempted (") + kReasonSchedulingGated +
                       "): " + SchedulingGatesStatusMessage(p.Extras().scheduling_gates) +
                       "; kube-scheduler's SchedulingGates plugin keeps the pod out of its queue until whoever added "
                       "the gates (e.g. a queueing controller such as Kueue) removes them (pending is not an error)";
    return h;
  }
  // schedule_one.go skipPodSchedule: a pod being deleted is popped from the
  // queue and dropped, with a FailedScheduling event (after the queue's
  // PreEnqueue: a gated pod is never popped).
  if (p.deleting) {
    HeldPod h;
    h.message = "skip schedule deleting pod: " + p.ns() + "/" + p.name();
    h.diagnosis.kind = Diagnosis::Kind::kBeingDeleted;
    h.diagnosis.forever = false;
    h.diagnosis.text = "not attempted: the pod is being deleted (metadata.deletionTimestamp is set), and "
                       "kube-scheduler skips such a pod (its FailedScheduling event says \"" + h.message + "\")";
    return h;
  }
  if (!hami.empty()) {
    // kube-scheduler itself would run its filters on such a pod: its message
    // is what they say (typically Insufficient nvidia.com/gpumem, a resource
    // no node advertises), or none if some node passed them.
    HeldPod h = NotModelledHami(p, hami);
    h.message = FilterFailureMessage(pod, cluster, *scheduler);
    return h;
  }
  if (std::optional<DraVerdict> d = EvaluateDynamicResources(pod, dra))
    return HeldPod{std::move(d->message), std::move(d->diagnosis)};
  return std::nullopt;
}

}  // namespace gpusched

#include "gpusched/sched/framework/batch.h"

#include <algorithm>
#include <memory>

#include "gpusched/sched/framework/batch_preemption.h"
#include "gpusched/sched/diagnosis/diagnosis_cache.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/gpu_share.h"
#include "gpusched/sched/plugins/node_affinity.h"
#include "gpusched/sched/framework/pre_enqueue.h"

namespace gpusched {
namespace {

// The kubelet's admission check for a pod bound by spec.nodeName
// (pkg/kubelet/lifecycle/predicate.go): node affinity and NoExecute taints
// (PredicateFailureError), then the resources must fit, or the pod fails with
// reason OutOf<resource> and InsufficientResourceError's message.
std::string KubeletAdmit(const PodInfo& pod, const Node& node, const NodeState& s) {
  // generalFilter runs the scheduler's NodeAffinity (selector and required
  // affinity) and then rejects untolerated NoExecute taints.
  if (!NodeAffinityFilter().Filter(pod, node, s).IsSuccess())
    return std::string("Pod was rejected: Predicate NodeAffinity failed: ") + kReasonNodeAffinity;
  for (const Taint& t : node.taints)
    if (t.effect == kTaintEffectNoExecute && !TolerationsTolerateTaint(pod.pod->tolerations, t))
      return "Pod was rejected: Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate";
  auto check = [&](std::string_view name, int64_t req, int64_t used, int64_t cap) -> std::string {
    if (req > 0 && req > SatSub(cap, used))
      return "Pod was rejected: Node didn't have enough resource: " + std::string(name) +
             ", requested: " + std::to_string(req) + ", used: " + std::to_string(used) +
             ", capacity: " + std::to_string(cap);
    return "";
  };
  if (s.num_pods + 1 > s.allocatable.allowed_pods)
    return "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: " +
           std::to_string(s.num_pods) + ", capacity: " + std::to_string(s.allocatable.allowed_pods);
  const Resources& r = pod.requests;
  std::string e = check("cpu", r.milli_cpu, s.requested.milli_cpu, s.allocatable.milli_cpu);
  if (e.empty()) e = check("memory", r.memory, s.requested.memory, s.allocatable.memory);
  if (e.empty())
    e = check("ephemeral-storage", r.ephemeral_storage, s.requested.ephemeral_storage, s.allocatable.ephemeral_storage);
  for (const auto& [name, q] : r.scalars) {
    if (!e.empty()) break;
    e = check(name, q, s.requested.Scalar(name), s.allocatable.Scalar(name));
  }
  // A GPU share is checked by the device plugin's Allocate, which fails
  // admission with UnexpectedAdmissionError when no device has room.
  if (e.empty() && !GpuShareFilter().Filter(pod, node, s).IsSuccess())
    e = "Pod was rejected: Allocate failed due to not enough free GPU share on the node's devices, which is "
        "unexpected";
  return e;
}

}  // namespace

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster,
                          const ProfileSchedulers& schedulers, const BatchOptions& options) {
  BatchResult out;
  std::vector<PodInfo> queue;
  for (size_t i = 0; i < pods.size(); ++i) {
    const Pod& p = *pods[i];
    PodInfo info = PodInfo::Make(p, i);
    if (p.node_name.empty()) {
      queue.push_back(std::move(info));
      continue;
    }
    int64_t n = cluster.FindNode(p.node_name);
    if (n < 0) {
      out.refused.push_back({i, "spec.nodeName: node \"" + p.node_name + "\" is not in the input, so the pod cannot run"});
      continue;
    }
    std::string err = KubeletAdmit(info, cluster.node(static_cast<size_t>(n)), cluster.state(static_cast<size_t>(n)));
    if (!err.empty()) {
      out.refused.push_back({i, err});
      continue;
    }
    std::vector<int32_t> gpus = cluster.DefaultGpuChoice(static_cast<size_t>(n), info.gpu);
    cluster.Bind(static_cast<size_t>(n), info.requests, info.non_zero_requests, info.input_index, p.Priority(),
                 info.gpu, gpus);
    out.placements.push_back({i, static_cast<size_t>(n), std::move(gpus), true, std::nullopt});
  }
  std::string served;
  for (const auto& [name, s] : schedulers) served += (served.empty() ? "\"" : ", \"") + name + "\"";
  // What the pods to place ask for in all, against what is free once the
  // bound pods run (for the diagnosis, which only then suggests reordering).
  BatchDemand demand;
  int64_t share_milli = 0;
  for (const PodInfo& info : queue) {
    demand.requested.Add(info.requests);
    if (info.gpu.any() && info.gpu.from_annotations) share_milli = SatAdd(share_milli, info.gpu.total_milli());
  }
  demand.requested.AddScalar(kResourceGPU, share_milli / kGpuMilli + (share_milli % kGpuMilli != 0));
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    Resources free = cluster.state(i).allocatable;
    free.Sub(cluster.state(i).requested);
    // An overcommitted node has nothing free, not less than nothing.
    free.Max(Resources{});
    for (auto& [name, v] : free.scalars) v = std::max<int64_t>(v, 0);
    demand.free.Add(free);
  }
  // One per profile: the pending pods of one shape share their diagnosis.
  std::vector<std::unique_ptr<DiagnosisCache>> diagnoses(schedulers.size());
  for (size_t qi : OrderQueue(queue, options.order)) {
    const PodInfo& info = queue[qi];
    // An unserved schedulerName, scheduling gates, HAMi's vGPUs, DRA claims:
    // the pod never reaches a scheduler's filters (pre_enqueue.h).
    if (std::optional<HeldPod> held = CheckBeforeScheduling(info, schedulers, options.dra, cluster)) {
      out.pending.push_back({info.input_index, std::move(held->message), std::move(held->diagnosis), std::nullopt});
      continue;
    }
    Scheduler* scheduler = ProfileFor(info, schedulers);
    std::optional<PodExplain> explain;
    std::string message;
    Decision d;  // the explained attempt
    Attempt a;   // the other ones (a.failure is shared by the pod's class)
    const PreemptionVerdict* preemption = nullptr;  // into d or *a.failure
    Diagnosis diag;
    if (options.explain || options.explain_pod == info.input_index) {
      // Explained pods get the plain scan and the full diagnosis (with the
      // pods that would have to finish).
      explain.emplace();
      d = scheduler->ScheduleOne(info, cluster, &*explain);
      if (d.scheduled) {
        out.placements.push_back({info.input_index, d.node, std::move(d.gpus), false, std::move(explain)});
        continue;
      }
      message = d.fit_error.Error();
      if (d.preemption) preemption = &*d.preemption;
    } else {
      a = scheduler->Schedule(info, cluster);
      if (a.scheduled) {
        out.placements.push_back({info.input_index, a.node, std::move(a.gpus), false, std::nullopt});
        continue;
      }
      message = a.failure->message;
      if (a.failure->preemption) preemption = &*a.failure->preemption;
    }
    // DefaultPreemption: evict, then place the pod (batch_preemption.h).
    // Only a pod whose verdict says preemption would help gets here; the
    // others keep the shared Failure and the cached diagnosis.
    if (preemption && preemption->would_help &&
        PlaceByPreemption(info, cluster, *scheduler, {&pods, options.pdbs, options.controller_scales}, message,
                          explain, out))
      continue;
    if (explain) {
      diag = Diagnose(info, cluster, scheduler->filters(), &demand);
    } else {
      const size_t profile = static_cast<size_t>(
          std::find_if(schedulers.begin(), schedulers.end(), [&](const auto& p) { return p.second == scheduler; }) -
          schedulers.begin());
      if (!diagnoses[profile]) diagnoses[profile] = std::make_unique<DiagnosisCache>();
      diag = diagnoses[profile]->Diagnose(info, cluster, scheduler->filters(), &demand);
    }
    if (preemption && preemption->would_help) {
      // Reached only when the PostFilter's dry run disagreed (batch_preemption.h).
      diag.text = "evicting " + std::to_string(preemption->victims) + " lower-priority pod(s) on " +
                  cluster.node(preemption->node).name() +
                  " would make room, but DefaultPreemption's dry run found no candidate node; " + diag.text;
    }
    out.pending.push_back({info.input_index, std::move(message), std::move(diag), std::move(explain)});
  }
  return out;
}

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster, Scheduler& scheduler,
                          QueueOrder order) {
  return ScheduleBatch(pods, cluster, ProfileSchedulers{{kDefaultSchedulerName, &scheduler}}, BatchOptions{order});
}

}  // namespace gpusched

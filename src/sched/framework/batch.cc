#include "gpusched/sched/framework/batch.h"

#include <algorithm>
#include <map>
#include <memory>

#include "gpusched/sched/framework/batch_preemption.h"
#include "gpusched/sched/diagnosis/diagnosis_cache.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/gpushare/gpu_share.h"
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"
#include "gpusched/sched/plugins/nodeports/node_ports.h"
#include "gpusched/sched/plugins/volumebinding/binder.h"
#include "gpusched/sched/plugins/volumebinding/volume_binding.h"
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
  if (!NodeAffinityPlugin().Filter(pod, node, s).IsSuccess())
    return std::string("Pod was rejected: Predicate NodeAffinity failed: ") + kReasonNodeAffinity;
  // AdmissionCheck's nodeports.Fits (after NodeAffinity and NodeName).
  if (!NodePorts::Fits(*pod.pod, s))
    return std::string("Pod was rejected: Predicate NodePorts failed: ") + kReasonNodePorts;
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
  if (e.empty() && !GpuShare().Filter(pod, node, s).IsSuccess())
    e = "Pod was rejected: Allocate failed due to not enough free GPU share on the node's devices, which is "
        "unexpected";
  return e;
}

}  // namespace

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster,
                          const ProfileSchedulers& schedulers, const BatchOptions& options) {
  BatchResult out;
  out.pod_infos.reserve(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) out.pod_infos.push_back(PodInfo::Make(*pods[i], i));
  // Into out.pod_infos, which does not grow again (a move of `out` keeps
  // its elements where they are).
  std::vector<const PodInfo*> queue;
  for (size_t i = 0; i < pods.size(); ++i) {
    const Pod& p = *pods[i];
    const PodInfo& info = out.pod_infos[i];
    if (p.node_name.empty()) {
      queue.push_back(&info);
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
                 info.gpu, gpus, &p);
    out.placements.push_back({i, static_cast<size_t>(n), std::move(gpus), true, std::nullopt});
  }
  std::string served;
  for (const auto& [name, s] : schedulers) served += (served.empty() ? "\"" : ", \"") + name + "\"";
  // What the pods to place ask for in all, against what is free once the
  // bound pods run (for the diagnosis, which only then suggests reordering).
  BatchDemand demand;
  int64_t share_milli = 0;
  for (const PodInfo* info : queue) {
    demand.requested.Add(info->requests);
    if (info->gpu.any() && info->gpu.from_annotations) share_milli = SatAdd(share_milli, info->gpu.total_milli());
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
  // Gangs as preemption sees them: only worth building when a profile preempts.
  std::optional<PreemptionGangs> preemption_gangs;
  if (options.gangs && !options.gangs->gangs.empty() &&
      std::any_of(schedulers.begin(), schedulers.end(), [](const auto& p) { return p.second->preemption(); }))
    preemption_gangs.emplace(*options.gangs, options.gang_serving, pods);
  BatchPreemptionInputs preemption_inputs{&pods, options.pdbs, options.controller_scales};
  if (preemption_gangs && !preemption_gangs->empty()) preemption_inputs.gangs = &*preemption_gangs;
  preemption_inputs.preempt_gangs = options.preempt_gangs;
  // One per profile: the pending pods of one shape share their diagnosis.
  std::vector<std::unique_ptr<DiagnosisCache>> diagnoses(schedulers.size());
  // One pod's attempt on `on`; binds it there when it fits. An explained pod
  // (`explain` holds a value) gets the plain scan and the full diagnosis
  // (with the pods that would have to finish); the others get the
  // scheduler's shared Failure and the profile's DiagnosisCache. `diagnose`
  // false skips the diagnosis (ever_fits below only asks whether it fits).
  auto attempt = [&](const PodInfo& info, ClusterState& on, std::optional<PodExplain>* explain,
                     bool diagnose) -> MemberAttempt {
    MemberAttempt a;
    // An unserved schedulerName, scheduling gates, HAMi's vGPUs, DRA claims:
    // the pod never reaches a scheduler's filters (pre_enqueue.h).
    if (std::optional<HeldPod> held = CheckBeforeScheduling(info, schedulers, options.dra, on)) {
      a.message = std::move(held->message);
      a.diagnosis = std::move(held->diagnosis);
      a.held_before_filters = true;
      return a;
    }
    Scheduler* scheduler = ProfileFor(info, schedulers);
    const PreemptionVerdict* preemption = nullptr;  // into d or *quick.failure
    Decision d;     // the explained attempt
    Attempt quick;  // the other ones (quick.failure is shared by the pod's class)
    if (explain && *explain) {
      d = scheduler->ScheduleOne(info, on, &**explain);
      if (d.scheduled) {
        a.placed = true;
        a.node = d.node;
        a.gpus = std::move(d.gpus);
        a.claims = std::move(d.claims);
        return a;
      }
      a.message = d.fit_error.Error();
      if (d.preemption) preemption = &*d.preemption;
    } else {
      quick = scheduler->Schedule(info, on);
      if (quick.scheduled) {
        a.placed = true;
        a.node = quick.node;
        a.gpus = std::move(quick.gpus);
        a.claims = std::move(quick.claims);
        return a;
      }
      if (!diagnose) return a;
      a.message = quick.failure->message;
      if (quick.failure->preemption) preemption = &*quick.failure->preemption;
    }
    // DefaultPreemption: evict, then place the pod (batch_preemption.h).
    // Only a pod whose verdict says preemption would help gets here; the
    // others keep the shared Failure and the cached diagnosis. `explain` is
    // null for the members of an enforced gang, which are tried on trial
    // copies and never evict (docs/gangs.md).
    std::string post_filter;  // the PostFilter's message when it nominated no node
    if (explain && preemption && preemption->would_help) {
      BatchPreemptionInputs pin = preemption_inputs;
      pin.message = &post_filter;
      if (PlaceByPreemption(info, on, *scheduler, pin, a.message, *explain, out)) {
        a.placed_by_preemption = true;
        return a;
      }
    }
    // PodEligibleToPreemptOthers said no (a victim of its earlier
    // preemption still terminating on its nominated node): the pod waits,
    // with the PostFilter's message as kube-scheduler reports it.
    const bool not_eligible = post_filter.find(kNotEligibleTerminating) != std::string::npos;
    if (not_eligible) a.message += " " + post_filter;
    if (!diagnose) return a;
    // The filters' NeverPasses see the pod's PreFilter state (a bound
    // volume's node affinity excludes a node for good).
    CycleState cycle;
    PodInfo with = info;
    // A pod without rules of its own is compared with running pods too when
    // some of them carry required anti-affinity (InterPodAffinity's
    // PreFilter keeps state for it then).
    if ((info.pod_aware || on.pods_with_required_anti_affinity() > 0) && scheduler->PreFilterState(info, on, cycle))
      with.cycle = &cycle;
    if (explain && *explain) {
      a.diagnosis = Diagnose(with, on, scheduler->filters(), &demand);
    } else {
      const size_t profile = static_cast<size_t>(
          std::find_if(schedulers.begin(), schedulers.end(), [&](const auto& p) { return p.second == scheduler; }) -
          schedulers.begin());
      if (!diagnoses[profile]) diagnoses[profile] = std::make_unique<DiagnosisCache>();
      a.diagnosis = diagnoses[profile]->Diagnose(with, on, scheduler->filters(), &demand);
    }
    // A PreFilter rejected it before any node was tried (VolumeBinding's
    // missing or unbound claims...): that, not what the nodes hold, is why.
    if (const std::string& pre_filter = explain && *explain ? d.fit_error.pre_filter_message
                                                             : quick.failure->fit_error.pre_filter_message;
        !pre_filter.empty()) {
      a.diagnosis = Diagnosis{};
      a.diagnosis.kind = Diagnosis::Kind::kPreFilterRejected;
      a.diagnosis.forever = true;  // nothing in the run changes the objects it names
      a.diagnosis.text = "can never fit as the input stands: rejected before any node is tried: " + pre_filter;
      if (pre_filter == kReasonUnboundImmediateClaims)
        if (std::string why = ExplainUnboundImmediateClaim(*info.pod, on.objects().volumes); !why.empty())
          a.diagnosis.text += " (" + why + ")";
    }
    if (not_eligible) {
      a.diagnosis.text = "not eligible to preempt: a lower-priority pod on its nominated node " +
                         info.pod->nominated_node_name +
                         " is terminating after a preemption (status.nominatedNodeName, the victim's "
                         "deletionTimestamp and DisruptionTarget condition); kube-scheduler waits for it to go; " +
                         a.diagnosis.text;
    } else if (preemption && preemption->would_help) {
      if (explain) {
        // Reached only when the PostFilter's dry run disagreed (batch_preemption.h).
        a.diagnosis.text = "evicting " + std::to_string(preemption->victims) + " lower-priority pod(s) on " +
                           on.node(preemption->node).name() +
                           " would make room, but DefaultPreemption's dry run found no candidate node; " +
                           a.diagnosis.text;
      } else {
        a.diagnosis.text = "evicting " + std::to_string(preemption->victims) + " lower-priority pod(s) on " +
                           on.node(preemption->node).name() +
                           " would make room for this member, but a gang's members do not preempt in gpusched's "
                           "all-or-nothing trial; " +
                           a.diagnosis.text;
      }
    }
    return a;
  };
  const std::vector<size_t> order = OrderQueue(queue, options.order);

  // --- Gang hook (gang_batch.h): enforced gangs, all or nothing. ---------
  // Their members still to place, in queue order, and their members already
  // bound. Trial binds and their rollback go through ClusterState::Bind and
  // Unbind, which bump version(), so the scheduler's failures and the
  // DiagnosisCache answers seen during a trial are never reused after it.
  std::map<const Gang*, std::vector<size_t>> gang_members;
  std::map<const Gang*, GangCount> gang_bound;
  std::vector<const Gang*> gang_of(queue.size(), nullptr);
  // Without gangs or an enforcer, the per-pod path pays nothing for them.
  if (options.gangs && options.gang_serving && !options.gangs->gangs.empty() && !options.gang_serving->empty()) {
    for (size_t qi : order) {
      const Pod& p = *queue[qi]->pod;
      gang_of[qi] = EnforcedGang(p, p.ns() + "/" + p.name(), *options.gangs, *options.gang_serving);
      if (gang_of[qi]) gang_members[gang_of[qi]].push_back(qi);
    }
    for (const auto& pl : out.placements) {
      const Pod& p = *pods[pl.pod];
      if (const Gang* g = EnforcedGang(p, p.ns() + "/" + p.name(), *options.gangs, *options.gang_serving))
        gang_bound[g].Add(SubgroupLabel(p, g->api));
    }
  }
  std::optional<ClusterState> empty_cluster;  // for ever_fits below
  // Places the whole gang of queue[qi] with its first member in the queue.
  auto schedule_gang = [&](const Gang& g) {
    auto it = gang_members.find(&g);
    if (it == gang_members.end()) return;  // placed with its first member
    std::vector<PodInfo> members;
    for (size_t m : it->second) members.push_back(*queue[m]);
    gang_members.erase(it);
    const GangEnforcement& e = *EnforcementFor(*members.front().pod, *options.gang_serving);
    // Whether the gang fits the cluster's nodes with nothing running: tried
    // on one empty copy of the nodes per batch (built when a gang first
    // fails), its trial binds undone after each gang. Copying every node
    // for each failing gang was most of a gang-heavy batch at 10,000 nodes
    // (gpusched_bench --only gangs).
    auto ever_fits = [&]() {
      if (!empty_cluster) {
        std::vector<Node> nodes;
        for (size_t n = 0; n < cluster.size(); ++n)
          if (cluster.present(n)) nodes.push_back(cluster.node(n));
        empty_cluster.emplace(std::move(nodes));
      }
      // The members that fit, with those bound already, by subgroup.
      GangCount fit = gang_bound[&g];
      std::vector<std::pair<size_t, uint64_t>> bound;  // node, pod id
      for (const PodInfo& m : members) {
        const MemberAttempt a = attempt(m, *empty_cluster, nullptr, false);
        if (!a.placed) continue;
        fit.Add(SubgroupLabel(*m.pod, g.api));
        bound.emplace_back(a.node, m.input_index);
      }
      for (const auto& [node, id] : bound) empty_cluster->Unbind(node, id);
      return GangReady(g, fit);
    };
    GangOutcome o = ScheduleGang(
        g, e, members, gang_bound[&g], cluster,
        [&](const PodInfo& m, ClusterState& on) { return attempt(m, on, nullptr, true); }, ever_fits);
    for (size_t k = 0; k < members.size(); ++k) {
      MemberAttempt& a = o.members[k];
      if (a.placed) {
        out.placements.push_back({members[k].input_index, a.node, std::move(a.gpus), false, std::nullopt});
        out.placements.back().claims = std::move(a.claims);
      } else
        out.pending.push_back({members[k].input_index, std::move(a.message), std::move(a.diagnosis), std::nullopt});
    }
  };
  // -----------------------------------------------------------------------

  for (size_t qi : order) {
    const PodInfo& info = *queue[qi];
    if (const Gang* g = gang_of[qi]) {
      schedule_gang(*g);
      continue;
    }
    std::optional<PodExplain> explain;
    if (options.explain || options.explain_pod == info.input_index) explain.emplace();
    MemberAttempt a = attempt(info, cluster, &explain, true);
    if (a.placed_by_preemption) continue;  // PlaceByPreemption recorded it
    if (a.held_before_filters) explain.reset();  // it reached no node
    if (a.placed) {
      out.placements.push_back({info.input_index, a.node, std::move(a.gpus), false, std::move(explain)});
      out.placements.back().claims = std::move(a.claims);
    } else
      out.pending.push_back({info.input_index, std::move(a.message), std::move(a.diagnosis), std::move(explain)});
  }
  return out;
}

BatchResult ScheduleBatch(const std::vector<const Pod*>& pods, ClusterState& cluster, Scheduler& scheduler,
                          QueueOrder order) {
  return ScheduleBatch(pods, cluster, ProfileSchedulers{{kDefaultSchedulerName, &scheduler}}, BatchOptions{order});
}

}  // namespace gpusched

#include "gpusched/sched/framework/batch_preemption.h"

#include <algorithm>

#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

std::optional<PreemptionResult> PreemptInBatch(const PodInfo& pod_in, ClusterState& cluster,
                                               const Scheduler& scheduler, const BatchPreemptionInputs& in) {
  // The failed cycle's PreFilter state: the filters that compare the pod
  // with the pods on a node (NodePorts...) check the dry run with it, as
  // they checked the cycle (a PreFilter rejection leaves them without it).
  CycleState cycle;
  SchedStatus reject = SchedStatus::Success();
  PodInfo pod = pod_in;
  if (pod.cycle == nullptr && scheduler.PreFilter(pod_in, cluster, cycle, reject) && reject.IsSuccess())
    pod.cycle = &cycle;
  // Every node's status in the failed cycle (the scheduler tallies them
  // without keeping them).
  std::vector<SchedStatus::Code> codes(cluster.size(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  FilterVerdict why;
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    codes[i] = CheckFilters(scheduler.filters(), pod, cluster.node(i), cluster.state(i), why)
                   ? why.code
                   : SchedStatus::Code::kSuccess;
  }
  PreemptionInputs pin;
  pin.min_candidate_nodes_percentage = in.min_candidate_nodes_percentage;
  pin.min_candidate_nodes_absolute = in.min_candidate_nodes_absolute;
  const std::vector<const Pod*>* pods = in.pods;
  pin.pod_of = [pods](uint64_t id) -> const Pod* {
    return pods != nullptr && id < pods->size() ? (*pods)[id] : nullptr;
  };
  // From the input: status.startTime (a pod the batch placed has none, as
  // an assumed or bound pod not yet started), and the victims of an earlier
  // preemption still terminating (PodEligibleToPreemptOthers).
  pin.start_time = [pods](uint64_t id) -> std::optional<int64_t> {
    return pods != nullptr && id < pods->size() ? (*pods)[id]->start_time_ns : std::nullopt;
  };
  pin.terminating_by_preemption = [pods](uint64_t id) {
    return pods != nullptr && id < pods->size() && (*pods)[id]->TerminatingByPreemption();
  };
  if (in.pdbs != nullptr && !in.pdbs->empty() && pods != nullptr) {
    // Every pod of the input counts (an integer minAvailable expects them
    // all); the bound ones are the healthy ones.
    std::vector<char> running(pods->size(), 0);
    for (size_t i = 0; i < cluster.size(); ++i) {
      if (!cluster.present(i)) continue;
      for (const BoundPod& bp : cluster.state(i).pods)
        if (bp.id < pods->size()) running[bp.id] = 1;
    }
    std::vector<PdbPod> bound;
    bound.reserve(pods->size());
    for (size_t k = 0; k < pods->size(); ++k) bound.push_back(PdbPod{(*pods)[k], running[k] != 0});
    static const ControllerScales kNoScales;
    pin.pdbs = PdbBudgets(*in.pdbs, bound, in.scales != nullptr ? *in.scales : kNoScales);
  }
  // Where each gang member is bound (the batch keeps no index by pod).
  std::vector<std::optional<size_t>> node_of;
  auto place = [&node_of](uint64_t id) { return id < node_of.size() ? node_of[id] : std::nullopt; };
  if (in.gangs != nullptr && !in.gangs->empty()) {
    node_of.resize(pods != nullptr ? pods->size() : 0);
    for (size_t i = 0; i < cluster.size(); ++i) {
      if (!cluster.present(i)) continue;
      for (const BoundPod& bp : cluster.state(i).pods)
        if (bp.id < node_of.size() && in.gangs->GangOf(bp.id) >= 0) node_of[bp.id] = i;
    }
    if (in.preempt_gangs == PreemptGangs::kWhole) {
      const PreemptionGangs* g = in.gangs;
      pin.unevictable = [g](uint64_t id, int32_t prio) { return g->Unevictable(id, prio); };
      pin.co_victims = [g, &cluster, &place](const std::vector<BoundPod>& victims) {
        return g->CoVictims(victims, cluster, place);
      };
    }
  }
  // Upstream starts the dry run at a random node; 0 keeps the answer a
  // function of the input.
  // status.nominatedNodeName: the node an earlier cycle nominated (one not
  // in the input is none, as NodeInfos().Get finds no node).
  std::optional<size_t> nominated;
  if (!pod.pod->nominated_node_name.empty())
    if (const int64_t n = cluster.FindNode(pod.pod->nominated_node_name); n >= 0 && cluster.present(static_cast<size_t>(n)))
      nominated = static_cast<size_t>(n);
  PreemptionResult r = Preempt(pod, cluster, codes, scheduler.filters(), pin, /*offset_seed=*/0, nominated);
  if (in.message != nullptr) *in.message = r.message;
  if (!r.nominated) return std::nullopt;
  if (in.gangs != nullptr && in.broken != nullptr) {
    std::vector<uint64_t> evicted;
    for (const BoundPod& v : r.victims) evicted.push_back(v.id);
    for (const CoVictim& v : r.co_victims) evicted.push_back(v.pod.id);
    for (int32_t g : in.gangs->Broken(evicted, place)) in.broken->push_back(g);
  }
  for (const BoundPod& v : r.victims) cluster.Unbind(r.node, v.id);
  return r;
}

bool PlaceByPreemption(const PodInfo& pod, ClusterState& cluster, Scheduler& scheduler,
                       const BatchPreemptionInputs& in, const std::string& first_attempt,
                       std::optional<PodExplain>& first_explain, BatchResult& out) {
  std::vector<int32_t> broken;
  BatchPreemptionInputs with_broken = in;
  with_broken.broken = &broken;
  std::optional<PreemptionResult> r = PreemptInBatch(pod, cluster, scheduler, with_broken);
  if (!r) return false;
  for (int32_t g : broken) out.broken_gangs.push_back({&in.gangs->gang(g), pod.input_index});
  std::vector<std::pair<size_t, size_t>> evicted;  // (pod, node)
  for (const BoundPod& v : r->victims) evicted.emplace_back(v.id, r->node);
  for (const CoVictim& v : r->co_victims) evicted.emplace_back(v.pod.id, v.node);
  std::vector<size_t> victims;
  for (const auto& [id, node] : evicted) {
    victims.push_back(id);
    out.preempted.push_back({id, node, pod.input_index});
    auto it = std::find_if(out.placements.begin(), out.placements.end(),
                           [&](const BatchResult::Placed& p) { return p.pod == id; });
    if (it != out.placements.end()) out.placements.erase(it);
  }
  // The next cycle: the only node that changed is the nominated one, so it
  // is where the pod fits now.
  // The co-victims (--preempt-gangs whole) leave after the pod is placed:
  // kube-scheduler tries a pod's nominated node first and takes it when the
  // filters pass (schedule_one.go, evaluateNominatedNode), so the room they
  // free elsewhere does not draw the pod away from it.
  std::optional<PodExplain> again;
  if (first_explain) again.emplace();
  Decision d = scheduler.ScheduleOne(pod, cluster, again ? &*again : nullptr);
  for (const CoVictim& v : r->co_victims) cluster.Unbind(v.node, v.pod.id);
  if (!d.scheduled) {
    // Cannot happen while the filters are deterministic; reported rather
    // than hidden.
    out.pending.push_back({pod.input_index,
                           first_attempt,
                           Diagnosis{},
                           std::move(first_explain)});
    out.pending.back().diagnosis.text = "preempted pods on " + cluster.node(r->node).name() +
                                        " but did not fit there afterwards";
    return true;
  }
  BatchResult::Placed placed{pod.input_index, d.node, std::move(d.gpus), false, std::move(again)};
  placed.preempted = std::move(victims);
  placed.first_attempt = first_attempt;
  placed.first_attempt_explain = std::move(first_explain);
  placed.claims = std::move(d.claims);
  out.placements.push_back(std::move(placed));
  return true;
}

}  // namespace gpusched

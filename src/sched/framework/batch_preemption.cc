#include "gpusched/sched/framework/batch_preemption.h"

#include <algorithm>

#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {

std::optional<PreemptionResult> PreemptInBatch(const PodInfo& pod, ClusterState& cluster, const Scheduler& scheduler,
                                               const BatchPreemptionInputs& in) {
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
  // Upstream starts the dry run at a random node; 0 keeps the answer a
  // function of the input.
  PreemptionResult r = Preempt(pod, cluster, codes, scheduler.filters(), pin, /*offset_seed=*/0);
  if (!r.nominated) return std::nullopt;
  for (const BoundPod& v : r.victims) cluster.Unbind(r.node, v.id);
  return r;
}

bool PlaceByPreemption(const PodInfo& pod, ClusterState& cluster, Scheduler& scheduler,
                       const BatchPreemptionInputs& in, const std::string& first_attempt,
                       std::optional<PodExplain>& first_explain, BatchResult& out) {
  std::optional<PreemptionResult> r = PreemptInBatch(pod, cluster, scheduler, in);
  if (!r) return false;
  std::vector<size_t> victims;
  for (const BoundPod& v : r->victims) {
    victims.push_back(v.id);
    out.preempted.push_back({v.id, r->node, pod.input_index});
    auto it = std::find_if(out.placements.begin(), out.placements.end(),
                           [&](const BatchResult::Placed& p) { return p.pod == v.id; });
    if (it != out.placements.end()) out.placements.erase(it);
  }
  // The next cycle: the only node that changed is the nominated one, so it
  // is where the pod fits now.
  std::optional<PodExplain> again;
  if (first_explain) again.emplace();
  Decision d = scheduler.ScheduleOne(pod, cluster, again ? &*again : nullptr);
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
  out.placements.push_back(std::move(placed));
  return true;
}

}  // namespace gpusched

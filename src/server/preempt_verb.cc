#include "gpusched/server/preempt_verb.h"

#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"

namespace gpusched {

NodeToMetaVictims ExtenderPreemptVictims(const PodInfo& pod, const ClusterState& cluster, const Scheduler& scheduler,
                                         const NodeToMetaVictims& proposed,
                                         const std::function<std::string(uint64_t)>& uid_of) {
  PreemptionInputs in;
  in.pod_of = [](uint64_t) -> const Pod* { return nullptr; };
  in.terminating_by_preemption = [](uint64_t) { return false; };
  // The preemptor's PreFilter state, as kube-scheduler's PostFilter has it
  // from the cycle: without it the filters that compare the pod with other
  // pods (its anti-affinity, spread, host ports) would pass anywhere and no
  // victim they need gone would be kept.
  CycleState cycle;
  PodInfo with = pod;
  if (scheduler.PreFilterState(pod, cluster, cycle)) with.cycle = &cycle;
  NodeToMetaVictims out;
  for (const auto& [name, theirs] : proposed) {
    const int64_t node = cluster.FindNode(name);
    if (node < 0) continue;
    const VictimSelection s = SelectVictimsOnNode(with, cluster, static_cast<size_t>(node), scheduler.filters(), in);
    if (s.code != SchedStatus::Code::kSuccess) continue;
    MetaVictims mine;
    mine.num_pdb_violations = theirs.num_pdb_violations;
    bool named = true;
    for (const BoundPod& v : s.victims) {
      std::string uid = uid_of(v.id);
      if (uid.empty()) named = false;
      mine.pod_uids.push_back(std::move(uid));
    }
    if (named) out.emplace(name, std::move(mine));
  }
  return out;
}

}  // namespace gpusched

// Gangs and DefaultPreemption: `--preempt-gangs upstream|whole`.
//
// upstream (the default): kube-scheduler v1.35's DefaultPreemption knows
// nothing of gangs. It evicts the victims SelectVictimsOnNode chose, and a
// gang that loses a member keeps its other members running, idle, while the
// job cannot make progress (KEP-5710 "workload-aware preemption" is the
// upstream proposal to change that; not in v1.35).
//
// whole: what the batch schedulers that gang do, for those who run them:
//  - KAI-Scheduler's preempt/reclaim actions (pkg/scheduler/actions/preempt/
//    preempt.go, solvers/pod_scenario_builder.go) take victims job by job:
//    podgroup_info.GetTasksToEvict gives one task of a job that runs more
//    than minAvailable (its elastic surplus) and otherwise every active task
//    of the job at once, so a job is never left running below minAvailable;
//    the victim job filter (buildFilterFuncForPreempt) keeps jobs of lower
//    priority than the preemptor only.
//  - Volcano's gang plugin (pkg/scheduler/plugins/gang/gang.go,
//    preemptableFn) offers a job's tasks as victims only while the job has
//    more than minAvailable ready, so preemption never breaks a gang; a Job
//    whose policy restarts it on PodEvicted loses all its pods when one is
//    evicted anyway.
// gpusched keeps DefaultPreemption's victim selection and node choice and
// adds KAI's rule on top: when a node's victims would leave a gang with
// fewer than minCount members running or reserved, the gang's other running
// and reserved members are evicted too, by the same preemptor (its
// co-victims). A victim from a gang's surplus above minCount goes alone, as
// KAI evicts an elastic job's surplus task by task. A gang with a member of
// priority equal to or above the preemptor's is not a victim at all (KAI
// compares job priorities). pickOneNodeForPreemption's criteria count each
// candidate's co-victims with its victims (a gang costs every member it
// loses), except the PDB-violation count, which stays the victims' own.
//
// Either way a gang is "broken by preemption" when it had at least minCount
// members running and an eviction leaves it below minCount; the simulator
// and `schedule` report those. "minCount" here is GangReady
// (model/gang_readiness.h): a member whose eviction puts its task / subgroup
// below its minimum is no surplus, as KAI's GetTasksToEvict
// (podgroup_info/eviction_info.go) judges surplus per subgroup (PodSet).
//
// Pods are named by their BoundPod id: their index in `pods`.
#ifndef GPUSCHED_SCHED_FRAMEWORK_GANG_PREEMPTION_H_
#define GPUSCHED_SCHED_FRAMEWORK_GANG_PREEMPTION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/gang.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/plugins/defaultpreemption/default_preemption.h"

namespace gpusched {

enum class PreemptGangs { kUpstream, kWhole };

// "upstream", "whole"; nullopt for anything else.
std::optional<PreemptGangs> ParsePreemptGangs(std::string_view s);
std::string_view PreemptGangsName(PreemptGangs g);
inline constexpr const char* kPreemptGangsNames = "upstream, whole";

class PreemptionGangs {
 public:
  // A pod's gang is the one its scheduler enforces, else its first
  // (ReportedGang); gangs of minCount 1 are no gangs here (one pod alone
  // is never left below its minimum). `gangs` must outlive the object.
  PreemptionGangs(const GangSet& gangs, const GangServing* serving, const std::vector<const Pod*>& pods);

  bool empty() const { return gangs_.empty(); }
  size_t size() const { return gangs_.size(); }
  // The gang of pod `id` (an index for gang() and Members()), or -1.
  int32_t GangOf(uint64_t id) const { return id < gang_of_.size() ? gang_of_[id] : -1; }
  const Gang& gang(int32_t g) const { return *gangs_[static_cast<size_t>(g)].gang; }
  // Its member pods' ids, in pod order.
  const std::vector<uint64_t>& Members(int32_t g) const { return gangs_[static_cast<size_t>(g)].members; }
  // The task / subgroup label of member `id` (SubgroupLabel), "" for none.
  const std::string& SubgroupOf(uint64_t id) const;

  // Where pod `id` holds resources now (running or reserved on Permit,
  // and not already on its way out), or nullopt.
  using PlaceFn = std::function<std::optional<size_t>(uint64_t id)>;

  // --preempt-gangs whole: the members that go with `victims` (see above),
  // gang by gang in the order the victims name them, each gang's in pod
  // order, with their BoundPod on their node in `cluster`.
  std::vector<CoVictim> CoVictims(const std::vector<BoundPod>& victims, const ClusterState& cluster,
                                  const PlaceFn& place) const;
  // --preempt-gangs whole: pod `id` may not be a victim of a preemptor of
  // `priority`: its gang has a member of that priority or above.
  bool Unevictable(uint64_t id, int32_t preemptor_priority) const;
  // The gangs (in first-victim order) that evicting `evicted` breaks: at
  // least minCount of their members run (`running`), fewer would after.
  std::vector<int32_t> Broken(const std::vector<uint64_t>& evicted, const PlaceFn& running) const;

 private:
  struct Entry {
    const Gang* gang = nullptr;
    std::vector<uint64_t> members;
    int32_t max_priority = 0;
  };
  std::vector<Entry> gangs_;
  std::vector<int32_t> gang_of_;
  std::vector<std::string> subgroup_of_;  // by pod id
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_GANG_PREEMPTION_H_

// DefaultPreemption's PostFilter as kube-scheduler v1.35 runs it
// (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go), on gpusched's
// ClusterState:
//  - PodEligibleToPreemptOthers: not with preemptionPolicy Never; not while a
//    lower-priority pod on its nominated node is terminating because of
//    preemption (unless that node is now UnschedulableAndUnresolvable);
//  - candidates: the nodes whose filter status is Unschedulable
//    (NodesForStatusCode); the others are "Preemption is not helpful for
//    scheduling";
//  - DryRunPreemption from `offset`, stopping once it has a candidate that
//    violates no PDB and at least numCandidates (max(10% of nodes, 100),
//    capped at the nodes) in all; non-violating candidates first;
//  - SelectVictimsOnNode: remove every pod of lower priority, check the
//    preemptor fits (with the nominated pods of equal or higher priority,
//    RunFilterPluginsWithNominatedPods), then add victims back most important
//    first (higher priority, then earlier start), PDB-violating ones before
//    the others, keeping each that still lets the preemptor fit;
//  - pickOneNodeForPreemption's criteria in order: fewest PDB violations,
//    lowest highest victim priority, smallest sum of (priority + 2^31),
//    fewest victims, latest start among the highest-priority victims, then
//    the first candidate (upstream: map order; here the dry run's order).
// A pod's start time (GetPodStartTime in pkg/scheduler/util/utils.go) is
// PreemptionInputs::start_time: status.startTime from the input in
// `schedule`, where a pod without one (not started, or placed by the batch)
// counts as started now, after every pod with one (and after the pods bound
// before it); unset (`simulate`), a pod started when it was bound
// (BoundPod::bind_seq).
#ifndef GPUSCHED_SCHED_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
#define GPUSCHED_SCHED_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pdb.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/api/status.h"
#include "gpusched/sched/plugins/nominated_pods.h"

namespace gpusched {

// A PodDisruptionBudget as the preemption reads it: its status.
struct PdbBudget {
  const PodDisruptionBudget* pdb = nullptr;
  int32_t disruptions_allowed = 0;          // status.disruptionsAllowed
  std::vector<std::string> disrupted_pods;  // status.disruptedPods (names)
};

// status.disruptionsAllowed of each PDB: the object's own status when the
// input carried one, else computed from `pods` (the pods present, those
// running counted healthy) as the disruption controller would
// (ComputePdbStatus).
std::vector<PdbBudget> PdbBudgets(const std::vector<const PodDisruptionBudget*>& pdbs,
                                  const std::vector<PdbPod>& pods, const ControllerScales& scales);

// A pod evicted with a victim because they belong to one gang
// (--preempt-gangs whole; sched/framework/gang_preemption.h): it may run on
// another node than the candidate's.
struct CoVictim {
  size_t node = 0;
  BoundPod pod;
};

struct PreemptionInputs {
  // The Pod behind a BoundPod::id, for labels and names; may return nullptr
  // (a pod with no labels matches no PDB).
  std::function<const Pod*(uint64_t)> pod_of;
  std::vector<PdbBudget> pdbs;
  std::vector<NominatedPod> nominated;
  // A bound pod terminating because the scheduler preempted it (deletion
  // timestamp and DisruptionTarget=True/PreemptionByScheduler).
  std::function<bool(uint64_t)> terminating_by_preemption;
  // A bound pod's status.startTime (ns since the Unix epoch), nullopt when
  // it has none: upstream's GetPodStartTime then reads the clock, so such a
  // pod started after every pod with a start time; between two of them the
  // order is the clock's (here the one bound later started later). Unset:
  // the start is BoundPod::bind_seq.
  std::function<std::optional<int64_t>(uint64_t)> start_time;
  const FilterPlugin* last = nullptr;  // one more filter after the chain (DynamicResources)
  // --preempt-gangs whole (not upstream): pods that may not be victims of a
  // preemptor of that priority (a gang member whose gang holds a pod of
  // equal or higher priority), and the pods that go with a candidate's
  // victims (their gangs' other members). Unset: DefaultPreemption as is.
  std::function<bool(uint64_t id, int32_t preemptor_priority)> unevictable;
  std::function<std::vector<CoVictim>(const std::vector<BoundPod>& victims)> co_victims;
  // DefaultPreemptionArgs.
  int32_t min_candidate_nodes_percentage = 10;
  int32_t min_candidate_nodes_absolute = 100;
};

inline constexpr const char* kNotEligiblePreemptNever = "not eligible due to preemptionPolicy=Never.";
inline constexpr const char* kNotEligibleTerminating = "not eligible due to a terminating pod on the nominated node.";

// The reason the pod may not preempt, or nullopt when it may.
// `nominated_node`: its status.nominatedNodeName's node, when it has one;
// `nominated_code`: that node's status in the failed cycle.
std::optional<std::string> PodIneligibleToPreemptOthers(const PodInfo& pod, std::optional<size_t> nominated_node,
                                                        SchedStatus::Code nominated_code,
                                                        const ClusterState& cluster, const PreemptionInputs& in);

// The nodes whose status is Unschedulable (codes beyond the vector count as
// UnschedulableAndUnresolvable, as absent NodeToStatus entries do), in
// node order; removed nodes are skipped.
std::vector<size_t> NodesWherePreemptionMightHelp(const ClusterState& cluster,
                                                  const std::vector<SchedStatus::Code>& codes);

// calculateNumCandidates.
int32_t NumPreemptionCandidates(int32_t num_nodes, int32_t percentage, int32_t absolute);

struct VictimSelection {
  SchedStatus::Code code = SchedStatus::Code::kSuccess;
  std::vector<ReasonView> reasons;  // when not kSuccess (views valid while the pod is)
  std::vector<BoundPod> victims;    // most important first
  int64_t num_pdb_violations = 0;
  int64_t filter_calls = 0;         // times the filter chain ran (upstream's tests count them)
};

VictimSelection SelectVictimsOnNode(const PodInfo& pod, const ClusterState& cluster, size_t node,
                                    const std::vector<std::unique_ptr<FilterPlugin>>& filters,
                                    const PreemptionInputs& in);

struct PreemptionCandidate {
  size_t node = 0;
  std::vector<BoundPod> victims;  // most important first
  int64_t num_pdb_violations = 0;
  // With PreemptionInputs::co_victims: the pods evicted with `victims`.
  // SelectCandidate counts them with the victims in every criterion but
  // the PDB violations (a gang costs all the members it loses).
  std::vector<CoVictim> co_victims = {};
};

struct DryRun {
  std::vector<PreemptionCandidate> candidates;  // non-violating first, each group in visiting order
  ReasonTally statuses;                         // the nodes that are not candidates
  int64_t filter_calls = 0;
  // The first node where the pod fit with every victim reprieved (upstream:
  // an Error status, "expected at least one victim pod on node ..."); "" when none.
  std::string error;
};

// DryRunPreemption over `potential` from `offset` (sequentially, as upstream
// with parallelism 1).
DryRun DryRunPreemption(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& potential,
                        size_t offset, int32_t num_candidates,
                        const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PreemptionInputs& in);

// pickOneNodeForPreemption: the index of the chosen candidate (0 for one).
// `start_time` as PreemptionInputs::start_time.
size_t SelectCandidate(const std::vector<PreemptionCandidate>& candidates,
                       const std::function<std::optional<int64_t>(uint64_t)>& start_time = {});

struct PreemptionResult {
  bool nominated = false;  // Success: the preemptor is nominated to `node`
  size_t node = 0;
  std::vector<BoundPod> victims;  // in eviction order (most important first)
  int64_t num_pdb_violations = 0;
  std::vector<CoVictim> co_victims;  // evicted after `victims` (PreemptionInputs::co_victims)
  std::string message;  // "preemption: ..." when !nominated
};

// The whole PostFilter. `codes[i]` is node i's status from the failed
// cycle; `offset_seed` picks the dry run's start (upstream: a random
// offset; here seed % potential nodes, so the same input gives the same
// answer).
PreemptionResult Preempt(const PodInfo& pod, const ClusterState& cluster,
                         const std::vector<SchedStatus::Code>& codes,
                         const std::vector<std::unique_ptr<FilterPlugin>>& filters, const PreemptionInputs& in,
                         uint64_t offset_seed, std::optional<size_t> nominated_node = std::nullopt);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_

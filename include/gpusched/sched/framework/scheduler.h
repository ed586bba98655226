// Scheduler: the one narrow entry point through which everything (the CLI,
// the simulator, the extender) asks "where does this pod go?". It runs the
// filter chain over the nodes — starting where the last scan stopped when the
// policy rotates, stopping once the policy has enough feasible nodes — lets
// the policy choose among them, binds the pod on success, and on failure
// builds kube-scheduler's FitError (with DefaultPreemption's message when the
// profile has it).
#ifndef GPUSCHED_SCHED_FRAMEWORK_SCHEDULER_H_
#define GPUSCHED_SCHED_FRAMEWORK_SCHEDULER_H_

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/index/failure_summary.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/index/node_index.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sched/plugins/preemption.h"
#include "gpusched/util/random.h"

namespace gpusched {

// Why a pod fits nowhere, made once and shared by every pod of its class
// (pod_class.h) that fails against the same cluster.
struct Failure {
  FitError fit_error;
  std::optional<PreemptionVerdict> preemption;  // when the profile preempts
  std::string message;  // fit_error.Error()
  // Bit k: filters()[k] failed some node (k >= 63 share bit 63), i.e.
  // upstream's Diagnosis.UnschedulablePlugins, which decide the queueing
  // hints that may requeue the pod. 0 when unknown (a failure not
  // explained, or no node at all).
  uint64_t rejectors = 0;
};

// ScheduleOne's answer without copies: a failure is shared.
struct Attempt {
  bool scheduled = false;
  size_t node = 0;             // valid when scheduled
  std::vector<int32_t> gpus;   // device indices taken on `node`
  std::shared_ptr<const Failure> failure;  // valid when !scheduled
};

struct Decision {
  bool scheduled = false;
  size_t node = 0;             // valid when scheduled
  std::vector<int32_t> gpus;   // device indices taken on `node`
  FitError fit_error;          // valid when !scheduled
  std::optional<PreemptionVerdict> preemption;  // when !scheduled and the profile preempts
};

class Scheduler {
 public:
  // `preemption`: the profile has DefaultPreemption as PostFilter.
  Scheduler(std::vector<std::unique_ptr<FilterPlugin>> filters, std::unique_ptr<Policy> policy, uint64_t seed,
            bool preemption = false);

  // Schedules one pod: on success it is bound in `cluster`. `explain`, when
  // given, is filled with one entry per node.
  Decision ScheduleOne(const PodInfo& pod, ClusterState& cluster, PodExplain* explain = nullptr);
  // The same without explain: a pod that fails where a pod of its class
  // failed on the unchanged cluster costs a lookup.
  Attempt Schedule(const PodInfo& pod, ClusterState& cluster);
  // The failure `pod` meets on `cluster` when it fits nowhere, the same one
  // Schedule would give; nullptr (nothing bound, no node chosen) when it
  // fits. For callers that know a pod of this class fails and want its
  // message on the cluster as it is now.
  std::shared_ptr<const Failure> FailureOf(const PodInfo& pod, ClusterState& cluster);

  // Off: every scan visits every node and a pod that fits nowhere is
  // explained from a plain rescan (the reference the fast paths are tested
  // against; --explain always scans plainly).
  void set_use_index(bool on) { use_index_ = on; }
  // Off: a pod that fits nowhere gets an empty FitError (only num_all_nodes)
  // and no preemption verdict, saving the full rescan that builds the
  // message. For callers that only count failures (the paper protocol).
  void set_explain_failures(bool on) { explain_failures_ = on; }
  // The nominated pods (status.nominatedNodeName) the caller keeps, or
  // nullptr (none can be outstanding). A pod for which some other pod of
  // priority >= its own is nominated is filtered with those pods counted on
  // their nodes (RunFilterPluginsWithNominatedPods), by the plain scan and
  // without the failure cache. Must outlive its use here.
  void set_nominated_pods(const NominatedPods* n) { nominated_ = n; }

  const std::vector<std::unique_ptr<FilterPlugin>>& filters() const { return filters_; }
  const Policy& policy() const { return *policy_; }
  bool preemption() const { return preemption_; }

 private:
  std::vector<std::unique_ptr<FilterPlugin>> filters_;
  std::unique_ptr<Policy> policy_;
  Rng rng_;
  bool preemption_;
  size_t next_start_index_ = 0;
  // The scan jumps over nodes the index shows cannot pass the resource
  // filters. A pod that fits nowhere gets its FitError from summaries_ when
  // its shape alone decides its verdicts, else from a plain rescan.
  NodeFitIndex index_;
  bool index_usable_ = false, index_gpu_checked_ = false, index_devices_checked_ = false, use_index_ = true;
  // Where the index settles the whole chain without running it. A node is
  // "plain" when it is not cordoned and has no NoSchedule/NoExecute taint:
  // NodeUnschedulable and TaintToleration pass there whatever the pod. For
  // a pod whose other filters look only at what NodeFitIndex holds exactly
  // (DecidedByIndex), a plain node meeting its need passes every filter.
  bool chain_known_ = false;   // every filter declares FilterTraits::in_tree
  std::vector<uint8_t> plain_;  // per node slot (nodes never change once added)
  uint64_t plain_serial_ = 0;
  void SyncPlain(const ClusterState& cluster);
  bool DecidedByIndex(const PodInfo& pod) const;
  bool explain_failures_ = true;

  FailureSummaries summaries_;
  bool IndexedScan(const PodInfo& pod, const ClusterState& cluster, size_t start, int64_t to_find,
                   const NodeFitIndex::Need& need);

  // Failures are deterministic: a pod of the class (pod_class.h) of one
  // that failed fails again with the same message while the cluster has not
  // changed. A simulation retries many such pods after every event, and a
  // batch holds many pods of one shape; each gets the shared Failure.
  uint64_t failure_cluster_ = 0;  // ClusterState::serial()
  uint64_t failure_version_ = 0;  // ClusterState::version()
  struct CachedFailure {
    PodClassKey key;
    std::shared_ptr<const Failure> failure;
  };
  std::unordered_multimap<size_t, CachedFailure> failures_;  // by ClassHash
  static constexpr size_t kMaxCachedFailures = 4096;
  void SyncFailures(const ClusterState& cluster);
  const std::shared_ptr<const Failure>* FindFailure(const PodInfo& pod, size_t hash) const;
  std::shared_ptr<const Failure> Remember(const PodInfo& pod, size_t hash, Decision& d, uint64_t rejectors);
  bool dry_run_ = false;  // FailureOf: Commit binds nothing
  const NominatedPods* nominated_ = nullptr;
  std::vector<const PodInfo*> nominated_scratch_;
  bool CountsNominated(const PodInfo& pod) const;
  static std::shared_ptr<const Failure> MakeFailure(Decision& d, uint64_t rejectors);
  // Fills d.fit_error and d.preemption; sets `rejectors` (see Failure).
  Decision ScheduleUncached(const PodInfo& pod, ClusterState& cluster, PodExplain* explain, uint64_t& rejectors);
  size_t PluginIndex(const FilterPlugin* p) const;
  // Chooses among feasible_ and binds the pod.
  Decision Commit(const PodInfo& pod, ClusterState& cluster, int64_t to_find, PodExplain* explain);
  // Reused between calls, so that the scans allocate nothing.
  std::vector<size_t> feasible_;
  std::vector<SchedStatus::Code> codes_;  // per node, for preemption's dry run
  FilterVerdict verdict_;
  ReasonTally tally_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_SCHEDULER_H_

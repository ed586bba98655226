// Scheduler: the one narrow entry point through which everything (the CLI,
// the simulator, the extender) asks "where does this pod go?". It runs the
// filter chain over the nodes — starting where the last scan stopped when the
// policy rotates, stopping once the policy has enough feasible nodes — lets
// the policy choose among them, binds the pod on success, and on failure
// builds kube-scheduler's FitError (with DefaultPreemption's message when the
// profile has it).
//
// How it gets there is chosen once, when it is made, from what the filters
// declare (ChainTraits) and what the policy declares (HasOwnIndex): a
// NodeSearch (IndexedScan, PolicyIndexSearch) finds the feasible nodes, or
// the policy's choice, faster than the plain scan; SummarizedFailures
// explains a failure from per-shape summaries; FailureCache shares one
// Failure per pod class while the cluster is unchanged. PlainScan, the
// reference they are all tested against, does the rest, and everything
// when a filter declares nothing.
#ifndef GPUSCHED_SCHED_FRAMEWORK_SCHEDULER_H_
#define GPUSCHED_SCHED_FRAMEWORK_SCHEDULER_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/explain.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/framework/chain_traits.h"
#include "gpusched/sched/framework/failure_cache.h"
#include "gpusched/sched/framework/node_search.h"
#include "gpusched/sched/framework/plain_scan.h"
#include "gpusched/sched/framework/summarized_failures.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/plugins/nominated_pods.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"
#include "gpusched/util/random.h"

namespace gpusched {

// ScheduleOne's answer without copies: a failure is shared.
struct Attempt {
  bool scheduled = false;
  size_t node = 0;             // valid when scheduled
  std::vector<int32_t> gpus;   // device indices taken on `node`
  std::shared_ptr<const Failure> failure;  // valid when !scheduled
  std::vector<ClaimDevices> claims = {};   // DynamicResources' Reserve: the pod's claims and devices
};

struct Decision {
  bool scheduled = false;
  size_t node = 0;             // valid when scheduled
  std::vector<int32_t> gpus;   // device indices taken on `node`
  FitError fit_error;          // valid when !scheduled
  std::optional<PreemptionVerdict> preemption;  // when !scheduled and the profile preempts
  std::vector<ClaimDevices> claims;            // DynamicResources' Reserve: the pod's claims and devices
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
  // The PreFilter states of `pod` on `cluster`, for what looks at a failed
  // pod node by node afterwards (the diagnosis): true when some plugin left
  // state, which `cycle` then holds; false when every PreFilter skipped the
  // pod or one rejected it.
  bool PreFilterState(const PodInfo& pod, const ClusterState& cluster, CycleState& cycle) const;

  // Off: every scan visits every node and a pod that fits nowhere is
  // explained from a plain rescan (the reference the fast paths are tested
  // against; --explain always scans plainly).
  void set_use_index(bool on);
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

  // RunPreFilterPlugins for the filters that have a PreFilter: false when
  // each skipped the pod (it then goes the usual way, fast paths and
  // caches included). Otherwise `cycle` holds their states, or `reject`
  // the first rejection (its plugin named), and the pod's attempt is its
  // own: plain scan, no failure looked up or kept (its verdicts depend on
  // the other pods, not only on its class).
  bool PreFilter(const PodInfo& pod, const ClusterState& cluster, CycleState& cycle, SchedStatus& reject) const;

  const std::vector<std::unique_ptr<FilterPlugin>>& filters() const { return filters_; }
  const Policy& policy() const { return *policy_; }
  // What this scheduler's run of the policy keeps (its indexes, caches,
  // tie-break ranks): for tests and diagnostics.
  const PolicyState& policy_state() const { return *policy_state_; }
  bool preemption() const { return preemption_; }

  // The strategies chosen (tests): the NodeSearch's Name() or "plain scan",
  // and whether failures are summarized and cached.
  std::string_view search_name() const { return search_ ? search_->Name() : "plain scan"; }
  bool summarizes_failures() const { return summaries_ != nullptr; }
  bool caches_failures() const { return failures_ != nullptr; }

 private:
  SearchContext Context(const PodInfo& pod, const ClusterState& cluster, size_t start, int64_t to_find);
  // Fills d.fit_error and d.preemption; sets `rejectors` (see Failure).
  Decision ScheduleUncached(const PodInfo& pod, ClusterState& cluster, PodExplain* explain, uint64_t& rejectors);
  // Chooses among feasible_ and binds the pod.
  Decision Commit(const PodInfo& pod, ClusterState& cluster, int64_t to_find, PodExplain* explain);
  static std::shared_ptr<const Failure> MakeFailure(Decision& d, uint64_t rejectors);
  // The attempt of a pod PreFilter rejected: every node gets the status
  // (SetAbsentNodesStatus), the FitError the message, and DefaultPreemption
  // its say on that.
  Decision PreFilterRejected(const PodInfo& pod, const ClusterState& cluster, const SchedStatus& reject,
                             uint64_t& rejectors);
  // A stateful attempt (PreFilter returned true): the pod with `cycle`,
  // scheduled without the caches.
  Decision ScheduleWithCycle(const PodInfo& pod, ClusterState& cluster, const CycleState& cycle,
                             const SchedStatus& reject, PodExplain* explain, uint64_t& rejectors);

  std::vector<std::unique_ptr<FilterPlugin>> filters_;
  std::unique_ptr<Policy> policy_;
  std::unique_ptr<PolicyState> policy_state_;  // policy_->NewState(), for as long as the scheduler lives
  Rng rng_;
  bool preemption_;
  bool use_index_ = true, explain_failures_ = true;
  bool dry_run_ = false;  // FailureOf: Commit binds nothing
  size_t next_start_index_ = 0;
  // A pod that counts nominations (CountsNominated) takes the plain scan
  // with them, and its failure is neither looked up nor kept: it depends on
  // the nominations and on which pod it is, not only on its class.
  const NominatedPods* nominated_ = nullptr;
  bool CountsNominated(const PodInfo& pod) const;
  // Its failure may be looked up and kept (FailureCache) for its class.
  bool Cacheable(const PodInfo& pod) const;

  // The strategies, chosen in the constructor; null when not safe.
  std::unique_ptr<NodeSearch> search_;
  std::unique_ptr<SummarizedFailures> summaries_;
  std::unique_ptr<FailureCache> failures_;
  PlainScan plain_;

  // The chain's DynamicResources, whose Reserve Commit runs; null without it.
  const DynamicResources* dra_ = nullptr;

  // Indices into filters_ of the filters with a PreFilter.
  std::vector<size_t> pre_filters_;

  // Reused between calls, so that the scans allocate nothing.
  std::vector<size_t> feasible_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_SCHEDULER_H_

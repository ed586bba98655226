// InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity:
// plugin.go, filtering.go, scoring.go), Kubernetes v1.35.
//
// PreFilter counts, per topology pair (key, value), the running pods whose
// required anti-affinity matches the pod (existingAntiAffinityCounts) and
// those matching the pod's own required affinity (all terms) and
// anti-affinity terms (affinityCounts, antiAffinityCounts); it skips a pod
// without required terms when no running pod has required anti-affinity
// (a cluster-level count, so the skip is O(1)). Filter: the node's pair of
// every affinity term must have a count, unless no pod matches anywhere and
// the pod matches its own terms (the first pod of a group); no anti-affinity
// term's pair may; no existing pod's anti-affinity may have counted any of
// the node's labels. Filter in filtering.cc; Score (preferred terms both
// ways, existing pods' required affinity with hardPodAffinityWeight,
// min-max NormalizeScore) in scoring.cc; queueing hints, explain and args
// in plugin.cc and args.cc.
#ifndef GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_INTER_POD_AFFINITY_H_
#define GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_INTER_POD_AFFINITY_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/interpodaffinity/anti_affinity_index.h"
#include "gpusched/sched/plugins/pod_match_index.h"
#include "gpusched/sched/plugins/interpodaffinity/affinity_terms.h"

namespace gpusched {

inline constexpr const char* kReasonExistingAntiAffinityRulesNotMatch =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr const char* kReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
inline constexpr const char* kReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

// v1 InterPodAffinityArgs (pkg/scheduler/apis/config/v1/types_pluginargs.go),
// defaulted (SetDefaults_InterPodAffinityArgs: hardPodAffinityWeight 1).
struct InterPodAffinityArgs : PluginArgs {
  int32_t hard_pod_affinity_weight = 1;
  bool ignore_preferred_terms_of_existing_pods = false;
};

// Reads profiles[].pluginConfig[].args of InterPodAffinity into the
// profile's plugin_args, with ValidateInterPodAffinityArgs's error.
void DecodeInterPodAffinityArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                SchedulerProfile& profile);

// PreFilter's state (preFilterState).
struct InterPodAffinityState : PreFilterData {
  const ClusterState* cluster = nullptr;
  uint64_t cluster_version = 0;  // ClusterState::version() when PreFilter counted
  std::vector<AffinityTerm> affinity;  // the pod's required terms, namespaces merged
  std::vector<AffinityTerm> anti_affinity;
  const LabelMap* namespace_labels = nullptr;  // of the pod's namespace
  // Pods matching all of `affinity`, per (topology key, value).
  TopologyCounts affinity_counts;
  // The pods each term of `anti_affinity` selects, per node and per domain
  // of its key (pinned for the cycle).
  std::vector<std::shared_ptr<const PodMatchCounts>> anti_counts;
  std::vector<const PodMatchCounts::ByKey*> anti_by_key;  // anti_counts[k]'s sums for term k's key
  // The existing pods' required anti-affinity terms that select this pod,
  // with where they are carried.
  std::vector<std::shared_ptr<const CarriedTerm>> existing;
  // Their pods per domain, summed per topology key.
  struct ExistingByKey {
    std::shared_ptr<const TopologyDomains> domains;
    std::vector<int64_t> counts;  // by domain id
  };
  std::vector<ExistingByKey> existing_by_key;
};

class InterPodAffinity : public FilterPlugin, public ScorePlugin {
 public:
  explicit InterPodAffinity(InterPodAffinityArgs args = {}) : args_(args) {}
  std::string_view Name() const override { return names::kInterPodAffinity; }
  const InterPodAffinityArgs& args() const { return args_; }
  void SetUseIndex(bool on) const override { use_index_ = on; }

  bool HasPreFilter() const override { return true; }
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // Pods its PreFilter skips pass everywhere.
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // What runs on a node always matters.
  int NeverPasses(const PodInfo&, const Node&, const NodeState&) const override { return 0; }

  // isSchedulableAfterPodChange: an added pod that matches all the pod's
  // required affinity terms; isSchedulableAfterNodeChange: a node with one
  // of its terms' topology keys.
  bool QueueOnAssignedPodAdded(const PodInfo& pod, const Pod& added, const Node& node) const override;
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  // A deleted pod that matches all the pod's required anti-affinity terms;
  // an unknown one may be anything.
  bool QueueOnAssignedPodDeleted() const override { return true; }
  bool QueueOnPodDeleted(const PodInfo& pod, const Pod& deleted) const override;

  // For explain and the diagnosis: which pods on which nodes make `node`
  // fail for `pod` ("node b runs default/infer-0, which this pod's
  // anti-affinity forbids on the same kubernetes.io/hostname"); "" when it
  // passes or without the pod's PreFilter state (pod.cycle), whose cluster
  // it searches for the other nodes of the domain.
  std::string ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const override;

  bool PreScore(const PodInfo& pod, const ClusterState& cluster) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;

 private:
  InterPodAffinityArgs args_;
  // What PreFilter counts, kept current across pods; off: counted from
  // every node's pods (the reference).
  mutable PodMatchIndex match_index_;
  mutable AntiAffinityIndex anti_index_;
  mutable std::atomic<bool> use_index_ = true;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_INTERPODAFFINITY_INTER_POD_AFFINITY_H_

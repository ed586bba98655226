// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread,
// v1.35): plugin.go (args, system default constraints, events), common.go
// (the internal constraint, node inclusion policies, default constraints,
// counting), filtering.go (PreFilter state, Filter), scoring.go (PreScore,
// Score, NormalizeScore); helper.DefaultSelector
// (plugins/helper/spread.go). Feature gates as v1.35 ships them: minDomains,
// nodeAffinityPolicy/nodeTaintsPolicy and matchLabelKeys are all on.
//
// Common part in common.cc, Filter in filtering.cc, Score in scoring.cc,
// args in args.cc.
//
// Pods known only by their requests (BoundPod::pod is nullptr: trace pods
// bound by the simulator's replay, serve's pods today) have no labels and
// match no selector.
#ifndef GPUSCHED_SCHED_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
#define GPUSCHED_SCHED_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/api_objects.h"
#include "gpusched/model/topology_spread.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/pod_match_index.h"

namespace gpusched {

// plugin.go ErrReasonConstraintsNotMatch and ErrReasonNodeLabelNotMatch.
inline constexpr const char* kReasonSpreadConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
inline constexpr const char* kReasonSpreadNodeLabelNotMatch =
    "node(s) didn't match pod topology spread constraints (missing required label)";

// v1 PodTopologySpreadArgs (pkg/scheduler/apis/config/v1), defaulted
// (SetDefaults_PodTopologySpreadArgs: defaultingType System).
struct PodTopologySpreadArgs : PluginArgs {
  std::vector<TopologySpreadConstraint> default_constraints;
  std::string defaulting_type = "System";  // "System" or "List"
};

// profiles[].pluginConfig[].args of PodTopologySpread into
// profile.plugin_args, checked as ValidatePodTopologySpreadArgs
// (apis/config/validation/validation_pluginargs.go) checks them.
void DecodePodTopologySpreadArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                 SchedulerProfile& profile);

// common.go topologySpreadConstraint: a constraint with its selector parsed.
struct SpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  // labels.Nothing(): a null labelSelector.
  bool nothing = false;
  // The requirements (matchLabels, then matchExpressions); none is
  // labels.Everything().
  LabelSelector selector;
  int32_t min_domains = 1;
  bool honor_node_affinity = true;   // nodeAffinityPolicy, Honor when unset
  bool honor_node_taints = false;    // nodeTaintsPolicy, Ignore when unset

  bool Matches(const LabelMap& labels) const { return !nothing && SelectorMatches(selector, labels); }
  // labels.Selector.Empty(): no requirement (Everything; Nothing is not empty).
  bool Empty() const { return !nothing && selector.Empty(); }
};

// helper.DefaultSelector: the selectors of the Services that select the pod
// (their maps merged), then the pod's controller's: a ReplicationController's
// map, a ReplicaSet's or StatefulSet's requirements. A pod gpusched made for
// a Deployment whose ReplicaSet the input does not hold gets the selector of
// that ReplicaSet (the Deployment's, with pod-template-hash).
LabelSelector DefaultSelector(const Pod& pod, const ApiObjects& objects);

class PodTopologySpread : public FilterPlugin, public ScorePlugin {
 public:
  explicit PodTopologySpread(PodTopologySpreadArgs args = {});

  std::string_view Name() const override { return names::kPodTopologySpread; }
  void SetUseIndex(bool on) const override { use_index_ = on; }

  // --- Filter (filtering.cc) ---
  bool HasPreFilter() const override { return true; }
  // Skip (nullptr) when the pod has no DoNotSchedule constraint, its own or
  // a default one, decided without looking at other pods.
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // The constraint Check fails, with the counts it compared: "node n has no
  // label K", or "K=V holds 2 matching pods and the least-loaded K 0:
  // placing this pod there makes the skew 3, above maxSkew 1".
  std::string ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  // Pods it skips pass everywhere.
  FilterTraits Traits() const override { return {.in_tree = true}; }
  // isSchedulableAfterNodeChange: an added node that has every topology
  // key of the pod's constraints.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  // isSchedulableAfterPodChange: a pod of the same namespace that one of
  // the pod's constraints selects.
  bool QueueOnAssignedPodAdded(const PodInfo& pod, const Pod& added, const Node& node) const override;
  bool QueueOnAssignedPodDeleted() const override { return true; }
  // A node without a topology key of the pod's DoNotSchedule constraints
  // never passes (reason 2); skew depends on the other pods (0).
  int NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;

  // --- Score (scoring.cc) ---
  bool PreScore(const PodInfo& pod, const ClusterState& cluster) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  // The raw score of a node without the topology keys (IgnoredNodes) is
  // -1, upstream's invalidScore, which NormalizeScore turns into 0.
  void ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                  std::vector<int64_t>& scores) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;

  // getConstraints / initPreScoreState's constraints: the pod's own with
  // whenUnsatisfiable `action` (matchLabelKeys merged), or, when it has
  // none, the default constraints with `action` and the pod's default
  // selector (none when that selector is empty).
  std::vector<SpreadConstraint> Constraints(const Pod& pod, const ApiObjects& objects, std::string_view action) const;
  bool system_defaulted() const { return system_defaulted_; }

 private:
  // Whether a pod without constraints of its own may get default ones
  // with `action` at all (cheap: no selector computed).
  bool HasDefaults(std::string_view action) const;
  // Check, and with `explain` the words of ExplainRejection.
  bool Evaluate(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why,
                std::string* explain) const;

  std::vector<TopologySpreadConstraint> default_constraints_;
  bool system_defaulted_ = false;
  bool hard_defaults_ = false;  // a default constraint is DoNotSchedule
  bool soft_defaults_ = false;  // a default constraint is ScheduleAnyway
  // The pods each constraint selects, counted per node and domain; off:
  // PreFilter and ScoreNodes match every node's pods (the reference).
  mutable PodMatchIndex match_index_;
  mutable std::atomic<bool> use_index_ = true;
};

// --- common.go helpers, shared by filtering.cc and scoring.cc ---
// filterTopologySpreadConstraints for one constraint.
SpreadConstraint ToSpreadConstraint(const TopologySpreadConstraint& c, const LabelMap& pod_labels);
// nodeLabelsMatchSpreadConstraints: the node has every constraint's key.
bool NodeHasAllTopologyKeys(const Node& node, const std::vector<SpreadConstraint>& constraints);
// matchNodeInclusionPolicies.
bool MatchNodeInclusionPolicies(const SpreadConstraint& c, const Pod& pod, const Node& node);
// Whether matchNodeInclusionPolicies can exclude any node for this pod
// (false: every node with the keys counts).
bool InclusionFilters(const SpreadConstraint& c, const Pod& pod);
// The pods countPodsMatchSelector counts for `c` in namespace `ns`, for
// the plugin's PodMatchIndex.
PodMatcher SpreadMatcher(const SpreadConstraint& c, const std::string& ns);
// countPodsMatchSelector over a node's pods.
int64_t CountPodsMatchSelector(const NodeState& state, const SpreadConstraint& c, const std::string& ns);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_

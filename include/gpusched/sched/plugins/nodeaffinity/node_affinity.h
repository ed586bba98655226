// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity/
// node_affinity.go). Filter: the node must match the args' addedAffinity
// required terms when given ("scheduler-enforced"), then the pod's
// spec.nodeSelector and, when set, one of its required node affinity terms.
// Score: the sum of the weights of the args' addedAffinity preferred terms
// and of the pod's preferred terms that match the node; NormalizeScore =
// DefaultNormalizeScore(MaxNodeScore, reverse = false); PreScore skips a pod
// with no preferred terms when the args add none. Filter in
// node_affinity.cc, Score in node_affinity_score.cc, args in args.cc.
// Reason text: Kubernetes v1.35 (gpusched/sched/api/version.h).
//
// PreFilter: when every required term names nodes (matchFields
// metadata.name In, as the DaemonSet controller writes), the union of the
// terms' names is its PreFilterResult (cycle_state.h: the other nodes are
// "node(s) didn't satisfy plugin(s) [NodeAffinity]"), and no name at all is
// "pod affinity terms conflict"; for every other pod it skips (upstream
// keeps the parsed selector as its state, which Check here does not need).
//
// Not modelled: the Error status PreScore returns for a preferred term of
// the pod that fails to parse (such a term never matches).
#ifndef GPUSCHED_SCHED_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
#define GPUSCHED_SCHED_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/node_affinity.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {

// node_affinity.go ErrReasonPod and errReasonEnforced.
inline constexpr const char* kReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector";
inline constexpr const char* kReasonNodeAffinityEnforced = "node(s) didn't match scheduler-enforced node affinity";
// errReasonConflict: PreFilter's rejection when the terms name no node.
inline constexpr const char* kReasonNodeAffinityConflict = "pod affinity terms conflict";

// NodeAffinityArgs (pkg/scheduler/apis/config/v1/types_pluginargs.go):
// addedAffinity, a node affinity every pod of the profile gets on top of
// its own. has_required tells an absent requiredDuringScheduling...
// selector from one with no terms (which matches no node).
struct NodeAffinityArgs : PluginArgs {
  std::optional<NodeAffinity> added_affinity;
};

// Reads profiles[].pluginConfig[].args of NodeAffinity into the profile's
// plugin_args, with ValidateNodeAffinityArgs's errors (every term must parse:
// NodeSelectorTermErrors) at their paths.
void DecodeNodeAffinityArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path, SchedulerProfile& profile);
// ValidateNodeAffinityArgs (apis/config/validation/validation_pluginargs.go)
// with `path` the args' field path ("" for upstream's nil path).
std::vector<FieldError> ValidateNodeAffinityArgs(const std::string& path, const NodeAffinityArgs& args);

// Named NodeAffinityPlugin: NodeAffinity is the pod's field (model/node_affinity.h).
class NodeAffinityPlugin : public FilterPlugin, public ScorePlugin {
 public:
  NodeAffinityPlugin() = default;
  // As New: the args are valid (the configuration was validated).
  explicit NodeAffinityPlugin(const NodeAffinityArgs& args);

  std::string_view Name() const override { return names::kNodeAffinity; }

  bool HasPreFilter() const override { return true; }
  std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                           SchedStatus& reject) const override;
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  // A scheduler-enforced selector rejects nodes for pods without a selector
  // of their own, which the plain-node fast paths rely on never happening:
  // with one the filter declares nothing.
  FilterTraits Traits() const override { return {.in_tree = !added_required_}; }
  // isSchedulableAfterNodeChange: an added node that matches the pod's
  // nodeSelector and required terms (requiredNodeAffinity.Match); registered
  // for node events only.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override {
    return Check(pod, node, state, nullptr);
  }
  bool QueueOnAssignedPodDeleted() const override { return false; }
  // 2 for a node the scheduler-enforced selector rejects, 1 for the pod's own.
  int NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  // "not matching its nodeSelector or node affinity", and when the pod asks
  // for a label the kubelet sets on every node but no node carries, that
  // the Node objects were written by hand.
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;

  bool PreScore(const PodInfo& pod, const ClusterState&) const override;
  int64_t Score(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  void NormalizeScore(const PodInfo& pod, std::vector<int64_t>& scores) const override;

 private:
  // addedNodeSelector: set when addedAffinity has a required selector.
  bool added_required_ = false;
  std::vector<NodeSelectorTerm> added_required_terms_;
  // addedPrefSchedTerms: the preferred terms (NewPreferredSchedulingTerms
  // drops the weight-0 and empty ones); set when addedAffinity has any.
  bool added_preferred_ = false;
  std::vector<PreferredSchedulingTerm> added_preferred_terms_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

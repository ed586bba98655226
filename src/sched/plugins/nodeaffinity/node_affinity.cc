// NodeAffinity's Filter: pkg/scheduler/framework/plugins/nodeaffinity. The
// node must match the args' addedAffinity required terms when given
// (errReasonEnforced otherwise); the pod must match spec.nodeSelector (every
// key a node label with that value) and, when set, one of the required node
// selector terms (k8s.io/component-helpers/scheduling/corev1/nodeaffinity
// RequiredNodeAffinity.Match, parse errors ignored).
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"

#include <algorithm>
#include <iterator>
#include <optional>

namespace gpusched {
namespace {

// The labels the kubelet puts on every node it registers (k8s.io/api/core/v1
// well_known_labels.go: LabelHostname, LabelOSStable, LabelArchStable; set in
// pkg/kubelet/kubelet_node_status.go initialNode). A pod asking for one that
// no node carries meets Node manifests written by hand, not a real cluster:
// say so, since "label a node" would mislead there.
std::string MissingKubeletLabels(const Pod& pod, const ClusterState& cluster) {
  static constexpr std::string_view kKubeletLabels[] = {"kubernetes.io/arch", "kubernetes.io/hostname",
                                                        "kubernetes.io/os"};
  std::vector<std::string_view> asked;
  for (std::string_view key : kKubeletLabels) {
    bool wanted = pod.node_selector.count(key) > 0;
    if (pod.node_affinity)
      for (const NodeSelectorTerm& t : pod.node_affinity->required)
        for (const NodeSelectorRequirement& r : t.match_expressions)  // NotIn and DoesNotExist match it absent
          wanted = wanted || (r.key == key && r.op != "NotIn" && r.op != "DoesNotExist");
    if (!wanted) continue;
    bool carried = false;
    for (size_t i = 0; i < cluster.size() && !carried; ++i)
      carried = cluster.present(i) && cluster.node(i).meta.labels.count(key) > 0;
    if (!carried) asked.push_back(key);
  }
  if (asked.empty()) return "";
  std::string keys;
  for (size_t i = 0; i < asked.size(); ++i) keys += (i ? (i + 1 == asked.size() ? " and " : ", ") : "") + std::string(asked[i]);
  return "; no node carries " + keys + ", which the kubelet sets on every node it registers: these Node objects "
         "were written without " + (asked.size() == 1 ? "it" : "them") + " (add " +
         (asked.size() == 1 ? "it" : "them") + " to the Node manifests, or take them from `kubectl get nodes -o json`)";
}

}  // namespace

NodeAffinityPlugin::NodeAffinityPlugin(const NodeAffinityArgs& args) {
  if (!args.added_affinity) return;
  const NodeAffinity& added = *args.added_affinity;
  added_required_ = added.has_required;
  added_required_terms_ = added.required;
  added_preferred_ = !added.preferred.empty();
  for (const PreferredSchedulingTerm& t : added.preferred)
    if (t.weight != 0 && !(t.preference.match_expressions.empty() && t.preference.match_fields.empty()))
      added_preferred_terms_.push_back(t);
}

std::unique_ptr<PreFilterData> NodeAffinityPlugin::PreFilter(const PodInfo& pod, const ClusterState&,
                                                             SchedStatus& reject) const {
  // node_affinity.go PreFilter: the nodes the required terms name, when
  // each term names some (a term without a metadata.name In requirement
  // admits every node, the terms being ORed; within a term the names are
  // ANDed).
  const auto& aff = pod.pod->node_affinity;
  if (!aff || !aff->has_required || aff->required.empty()) return nullptr;
  std::vector<std::string> names;
  for (const NodeSelectorTerm& t : aff->required) {
    std::optional<std::vector<std::string>> term_names;
    for (const NodeSelectorRequirement& r : t.match_fields) {
      if (r.key != "metadata.name" || r.op != "In") continue;
      std::vector<std::string> s = r.values;
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
      if (!term_names) {
        term_names = std::move(s);
      } else {
        std::vector<std::string> both;
        std::set_intersection(term_names->begin(), term_names->end(), s.begin(), s.end(), std::back_inserter(both));
        term_names = std::move(both);
      }
    }
    if (!term_names) return nullptr;
    names.insert(names.end(), term_names->begin(), term_names->end());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (names.empty()) {
    reject = SchedStatus::Unresolvable(kReasonNodeAffinityConflict);
    return nullptr;
  }
  auto data = std::make_unique<PreFilterData>();
  data->node_names = std::move(names);
  return data;
}

bool NodeAffinityPlugin::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  if (added_required_ && !MatchesAnyNodeSelectorTerm(added_required_terms_, node)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonNodeAffinityEnforced);
    return false;
  }
  bool ok = true;
  for (const auto& [key, value] : pod.pod->node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) {
      ok = false;
      break;
    }
  }
  const auto& aff = pod.pod->node_affinity;
  if (ok && aff && aff->has_required && !MatchesAnyNodeSelectorTerm(aff->required, node)) ok = false;
  if (!ok && why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonNodeAffinity);
  return ok;
}

int NodeAffinityPlugin::NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const {
  if (added_required_ && !MatchesAnyNodeSelectorTerm(added_required_terms_, node)) return 2;
  return Check(pod, node, state, nullptr) ? 0 : 1;
}

std::string NodeAffinityPlugin::ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const {
  if (reason == 2)
    return "not matching the scheduler-enforced node affinity (the addedAffinity of NodeAffinity's args in the "
           "scheduler configuration)";
  return "not matching its nodeSelector or node affinity (fix them or label a node)" +
         MissingKubeletLabels(*pod.pod, cluster);
}

}  // namespace gpusched

#include "gpusched/controllers/daemon_pods.h"

#include "gpusched/model/node_affinity.h"

namespace gpusched {
namespace {

// The well-known taints (k8s.io/api/core/v1 well_known_taints.go).
constexpr const char* kNotReady = "node.kubernetes.io/not-ready";
constexpr const char* kUnreachable = "node.kubernetes.io/unreachable";
constexpr const char* kDiskPressure = "node.kubernetes.io/disk-pressure";
constexpr const char* kMemoryPressure = "node.kubernetes.io/memory-pressure";
constexpr const char* kPidPressure = "node.kubernetes.io/pid-pressure";
constexpr const char* kNetworkUnavailable = "node.kubernetes.io/network-unavailable";

// v1helper.AddOrUpdateTolerationInPodSpec, with the model's tolerations (no
// tolerationSeconds): a toleration equal in key, operator, value and effect
// (Toleration.MatchToleration) is left as it is.
void AddOrUpdate(std::vector<Toleration>& ts, Toleration t) {
  for (const Toleration& have : ts)
    if (have.key == t.key && have.op == t.op && have.value == t.value && have.effect == t.effect) return;
  ts.push_back(std::move(t));
}

}  // namespace

void AddDaemonPodTolerations(Pod& pod, bool host_network) {
  AddOrUpdate(pod.tolerations, Toleration{kNotReady, "Exists", "", kTaintEffectNoExecute});
  AddOrUpdate(pod.tolerations, Toleration{kUnreachable, "Exists", "", kTaintEffectNoExecute});
  AddOrUpdate(pod.tolerations, Toleration{kDiskPressure, "Exists", "", kTaintEffectNoSchedule});
  AddOrUpdate(pod.tolerations, Toleration{kMemoryPressure, "Exists", "", kTaintEffectNoSchedule});
  AddOrUpdate(pod.tolerations, Toleration{kPidPressure, "Exists", "", kTaintEffectNoSchedule});
  AddOrUpdate(pod.tolerations, Toleration{kTaintNodeUnschedulable, "Exists", "", kTaintEffectNoSchedule});
  if (host_network) AddOrUpdate(pod.tolerations, Toleration{kNetworkUnavailable, "Exists", "", kTaintEffectNoSchedule});
}

bool DaemonShouldRunOnNode(const Pod& tmpl, bool host_network, const Node& node) {
  if (!tmpl.node_name.empty() && tmpl.node_name != node.name()) return false;
  // nodeaffinity.GetRequiredNodeAffinity(pod).Match(node).
  for (const auto& [k, v] : tmpl.node_selector) {
    auto it = node.meta.labels.find(k);
    if (it == node.meta.labels.end() || it->second != v) return false;
  }
  if (tmpl.node_affinity && tmpl.node_affinity->has_required &&
      !MatchesAnyNodeSelectorTerm(tmpl.node_affinity->required, node))
    return false;
  Pod pod = tmpl;
  AddDaemonPodTolerations(pod, host_network);
  for (const Taint& taint : node.taints) {
    if (taint.effect != kTaintEffectNoSchedule && taint.effect != kTaintEffectNoExecute) continue;
    if (!TolerationsTolerateTaint(pod.tolerations, taint)) return false;
  }
  return true;
}

Pod DaemonPodFor(const Pod& tmpl, bool host_network, const std::string& node) {
  Pod pod = tmpl;
  AddDaemonPodTolerations(pod, host_network);
  NodeSelectorTerm term;
  term.match_fields.push_back(NodeSelectorRequirement{"metadata.name", "In", {node}});
  if (!pod.node_affinity) pod.node_affinity = NodeAffinity{};
  pod.node_affinity->has_required = true;
  pod.node_affinity->required = {std::move(term)};
  return pod;
}

std::optional<std::string> DaemonPodTargetNode(const Pod& pod) {
  if (!pod.node_name.empty()) return pod.node_name;
  if (!pod.node_affinity || !pod.node_affinity->has_required) return std::nullopt;
  for (const NodeSelectorTerm& term : pod.node_affinity->required)
    for (const NodeSelectorRequirement& r : term.match_fields)
      if (r.key == "metadata.name" && r.op == "In") {
        if (r.values.size() != 1) return std::nullopt;
        return r.values[0];
      }
  return std::nullopt;
}

}  // namespace gpusched

// Builders for the PodTopologySpread tests, in the spirit of upstream's
// st.MakePod().Name().Label().Node().SpreadConstraint(...) and
// st.MakeNode().Name().Label(): pods and nodes written as in the upstream
// tables, existing pods bound to their node (with their Pod, which the
// plugin reads) and the PreFilter state put where Check reads it.
#ifndef GPUSCHED_TESTS_SCHED_PLUGINS_PODTOPOLOGYSPREAD_SPREAD_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_PLUGINS_PODTOPOLOGYSPREAD_SPREAD_TEST_UTIL_H_

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod.h"
#include "gpusched/sched/api/cycle_state.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"

namespace gpusched::spreadtest {

struct PodB {
  Pod pod;
  explicit PodB(const std::string& name) {
    pod.meta.name = name;
    pod.meta.namespace_ = "default";
  }
  PodB& Label(const std::string& k, const std::string& v) {
    pod.meta.labels[k] = v;
    return *this;
  }
  PodB& Namespace(const std::string& ns) {
    pod.meta.namespace_ = ns;
    return *this;
  }
  PodB& Node(const std::string& n) {
    pod.node_name = n;
    return *this;
  }
  PodB& Terminating() {
    pod.deleting = true;
    return *this;
  }
  PodB& NodeSelector(const std::string& k, const std::string& v) {
    pod.node_selector[k] = v;
    return *this;
  }
  PodB& NodeAffinity(const std::string& key, const std::string& op, std::vector<std::string> values) {
    if (!pod.node_affinity) pod.node_affinity.emplace();
    pod.node_affinity->has_required = true;
    NodeSelectorTerm term;
    term.match_expressions.push_back({key, op, std::move(values)});
    pod.node_affinity->required.push_back(std::move(term));
    return *this;
  }
  PodB& Toleration(const std::string& key) {
    pod.tolerations.push_back({key, "Exists", "", ""});
    return *this;
  }
  // SpreadConstraint(maxSkew, key, action, selector, minDomains,
  // nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys).
  PodB& Spread(int32_t max_skew, const std::string& key, const std::string& action,
               std::optional<LabelSelector> selector, std::optional<int32_t> min_domains = std::nullopt,
               const std::string& affinity_policy = "", const std::string& taints_policy = "",
               std::vector<std::string> match_label_keys = {}) {
    auto extras = pod.extras ? std::make_shared<PodSpecExtras>(*pod.extras) : std::make_shared<PodSpecExtras>();
    TopologySpreadConstraint c;
    c.max_skew = max_skew;
    c.topology_key = key;
    c.when_unsatisfiable = action;
    c.label_selector = std::move(selector);
    c.min_domains = min_domains;
    c.node_affinity_policy = affinity_policy;
    c.node_taints_policy = taints_policy;
    c.match_label_keys = std::move(match_label_keys);
    extras->topology_spread_constraints.push_back(std::move(c));
    pod.extras = std::move(extras);
    return *this;
  }
  PodB& Owner(const std::string& kind, const std::string& name, const std::string& api_version = "apps/v1") {
    pod.controller_ref = OwnerReference{api_version, kind, name, ""};
    return *this;
  }
  Pod Obj() const { return pod; }
};

inline Node MakeNode(const std::string& name, const std::map<std::string, std::string>& labels,
                     std::vector<Taint> taints = {}) {
  Node n;
  n.meta.name = name;
  for (const auto& [k, v] : labels) n.meta.labels[k] = v;
  n.taints = std::move(taints);
  return n;
}

// `key` Exists: upstream's fooSelector / barSelector
// (st.MakeLabelSelector().Exists("foo")).
inline LabelSelector Exists(const std::string& key) {
  LabelSelector s;
  s.match_expressions.push_back({key, "Exists", {}});
  return s;
}

// A cluster of `nodes` with `existing` bound to the node each names.
struct Fixture {
  std::deque<Pod> pods;  // stable addresses: BoundPod::pod points here
  std::unique_ptr<ClusterState> cluster;
  ApiObjects objects;

  Fixture(const std::vector<Node>& nodes, const std::vector<Pod>& existing) {
    cluster = std::make_unique<ClusterState>(nodes);
    uint64_t id = 0;
    for (const Pod& p : existing) {
      pods.push_back(p);
      const int64_t i = cluster->FindNode(p.node_name);
      if (i < 0) continue;  // on a node not in the snapshot
      cluster->Bind(static_cast<size_t>(i), Resources{}, Resources{}, id++, 0, GpuRequest{}, {}, &pods.back());
    }
  }
  void SetObjects() { cluster->set_objects(std::make_shared<const ApiObjects>(objects)); }
};

// PreFilter's state for `pod`, in `cycle`; nullptr when it skipped.
inline const PreFilterData* RunPreFilter(const PodTopologySpread& pl, const PodInfo& pod, const ClusterState& cluster,
                                         CycleState& cycle) {
  SchedStatus reject = SchedStatus::Success();
  std::unique_ptr<PreFilterData> data = pl.PreFilter(pod, cluster, reject);
  const PreFilterData* raw = data.get();
  if (data) cycle.Put(&pl, std::move(data));
  return raw;
}

}  // namespace gpusched::spreadtest

#endif  // GPUSCHED_TESTS_SCHED_PLUGINS_PODTOPOLOGYSPREAD_SPREAD_TEST_UTIL_H_

// Builders for InterPodAffinity's tests, shaped as upstream's st.MakePod()
// (pkg/scheduler/testing/wrappers.go: PodAffinityIn, PodAntiAffinityExists...)
// so that the ported tables read as theirs, and a cluster run through
// PreFilter and Filter as upstream's tests run them.
#ifndef GPUSCHED_TESTS_SCHED_PLUGINS_INTERPODAFFINITY_AFFINITY_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_PLUGINS_INTERPODAFFINITY_AFFINITY_TEST_UTIL_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"

namespace gpusched::testing {

inline PodAffinityTerm Term(const std::string& key, const std::string& op, std::vector<std::string> values,
                            const std::string& topology) {
  PodAffinityTerm t;
  t.label_selector = LabelSelector{};
  t.label_selector->match_expressions.push_back(LabelSelectorRequirement{key, op, std::move(values)});
  t.topology_key = topology;
  return t;
}

// st.MakePod(): a pod without resources, in namespace "" as upstream's
// defaultNamespace, built term by term.
class MakePod {
 public:
  MakePod() { pod_.meta.namespace_ = ""; }
  MakePod& Name(const std::string& n) { pod_.meta.name = n; return *this; }
  MakePod& Namespace(const std::string& ns) { pod_.meta.namespace_ = ns; return *this; }
  MakePod& Labels(const LabelMap& l) { pod_.meta.labels = l; return *this; }
  MakePod& Label(const std::string& k, const std::string& v) { pod_.meta.labels[k] = v; return *this; }
  MakePod& Node(const std::string& n) { pod_.node_name = n; return *this; }
  MakePod& AffinityIn(const std::string& key, const std::string& topo, std::vector<std::string> values) {
    Aff().required.push_back(Term(key, "In", std::move(values), topo));
    return *this;
  }
  MakePod& AffinityNotIn(const std::string& key, const std::string& topo, std::vector<std::string> values) {
    Aff().required.push_back(Term(key, "NotIn", std::move(values), topo));
    return *this;
  }
  MakePod& Affinity(PodAffinityTerm t) {
    Aff().required.push_back(std::move(t));
    return *this;
  }
  MakePod& AffinityExists(const std::string& key, const std::string& topo) {
    Aff().required.push_back(Term(key, "Exists", {}, topo));
    return *this;
  }
  MakePod& AntiIn(const std::string& key, const std::string& topo, std::vector<std::string> values) {
    Anti().required.push_back(Term(key, "In", std::move(values), topo));
    return *this;
  }
  MakePod& AntiNotIn(const std::string& key, const std::string& topo, std::vector<std::string> values) {
    Anti().required.push_back(Term(key, "NotIn", std::move(values), topo));
    return *this;
  }
  MakePod& AntiExists(const std::string& key, const std::string& topo) {
    Anti().required.push_back(Term(key, "Exists", {}, topo));
    return *this;
  }
  // Preferred terms (PodAffinityWithPreferredReq...).
  MakePod& PrefAffinity(int32_t weight, PodAffinityTerm t) {
    Aff().preferred.push_back({weight, std::move(t)});
    return *this;
  }
  MakePod& PrefAnti(int32_t weight, PodAffinityTerm t) {
    Anti().preferred.push_back({weight, std::move(t)});
    return *this;
  }
  // createPodWithAffinityTerms: both podAffinity and podAntiAffinity set.
  MakePod& Terms(std::vector<PodAffinityTerm> aff, std::vector<PodAffinityTerm> anti) {
    Aff().required = std::move(aff);
    Anti().required = std::move(anti);
    return *this;
  }
  Pod Obj() const {
    Pod p = pod_;
    if (spec_.affinity || spec_.anti_affinity) p.pod_affinity = std::make_shared<PodAffinitySpec>(spec_);
    return p;
  }
  operator Pod() const { return Obj(); }

 private:
  PodAffinityRules& Aff() {
    if (!spec_.affinity) spec_.affinity.emplace();
    return *spec_.affinity;
  }
  PodAffinityRules& Anti() {
    if (!spec_.anti_affinity) spec_.anti_affinity.emplace();
    return *spec_.anti_affinity;
  }
  Pod pod_;
  PodAffinitySpec spec_;
};

inline Node LabeledNode(const std::string& name, const LabelMap& labels) {
  Node n;
  n.meta.name = name;
  n.meta.labels = labels;
  return n;
}

// upstream's `namespaces` (interpod_affinity tests' informers).
inline std::shared_ptr<const ApiObjects> TestNamespaces() {
  auto o = std::make_shared<ApiObjects>();
  o->namespace_labels["subteam1.team1"] = {{"team", "team1"}};
  o->namespace_labels["subteam2.team1"] = {{"team", "team1"}};
  o->namespace_labels["subteam1.team2"] = {{"team", "team2"}};
  o->namespace_labels["subteam2.team2"] = {{"team", "team2"}};
  return o;
}

// A snapshot of `nodes` with `pods` bound where their nodeName says (pods
// on a node not in the snapshot are left out, as cache.NewSnapshot does).
struct Snapshot {
  std::deque<Pod> pods;  // stable addresses for BoundPod::pod
  ClusterState cluster;
  Snapshot(std::vector<Node> nodes, const std::vector<Pod>& existing) : cluster(std::move(nodes)) {
    cluster.set_objects(TestNamespaces());
    uint64_t id = 0;
    for (const Pod& p : existing) {
      const int64_t n = cluster.FindNode(p.node_name);
      pods.push_back(p);
      if (n < 0) continue;
      cluster.Bind(static_cast<size_t>(n), {}, {}, id++, 0, GpuRequest{}, {}, &pods.back());
    }
  }
};

// PreFilter then Filter on each node: "skip" when PreFilter skipped,
// "" for success, else the code and reason ("Unschedulable: ...").
inline std::vector<std::string> FilterAll(const InterPodAffinity& pl, const Pod& pod, const Snapshot& s) {
  PodInfo info = PodInfo::Make(pod, 1000);
  SchedStatus reject = SchedStatus::Success();
  std::unique_ptr<PreFilterData> data = pl.PreFilter(info, s.cluster, reject);
  if (!data) return {"skip"};
  const PreFilterData* raw = data.get();
  CycleState cycle;
  cycle.Put(&pl, std::move(data));
  info.cycle = &cycle;
  std::vector<std::string> out;
  for (size_t i = 0; i < s.cluster.size(); ++i) {
    SchedStatus st = pl.Filter(info, s.cluster.node(i), s.cluster.state(i));
    if (st.IsSuccess()) {
      out.push_back("");
    } else {
      out.push_back(std::string(st.code() == SchedStatus::Code::kUnschedulable ? "Unschedulable" : "Unresolvable") +
                    ": " + st.reasons().front());
    }
    // The indexed scan's DomainTests must decide each node as Filter does
    // (a disagreement shows in the node's entry).
    if (raw->by_domain) {
      bool passes = true;
      for (const DomainTest& t : raw->domain_tests) passes &= t.Passes(i);
      if (passes != st.IsSuccess()) out.back() += " (DomainTests disagree)";
    }
  }
  return out;
}

inline const std::string kAff = std::string("Unresolvable: ") + kReasonAffinityRulesNotMatch;
inline const std::string kAnti = std::string("Unschedulable: ") + kReasonAntiAffinityRulesNotMatch;
inline const std::string kExisting = std::string("Unschedulable: ") + kReasonExistingAntiAffinityRulesNotMatch;

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_PLUGINS_INTERPODAFFINITY_AFFINITY_TEST_UTIL_H_

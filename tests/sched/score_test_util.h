// Builders for the score plugin tests, in the spirit of upstream's
// st.MakePod().Req(...), st.MakeNode().Capacity(...), makeNode(...) and
// cache.NewSnapshot(existingPods, nodes): quantities are written as strings
// exactly as in the upstream tables, and the existing pods are accounted on
// their node (Requested and NonZeroRequested) through ClusterState::Bind.
#ifndef GPUSCHED_TESTS_SCHED_SCORE_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_SCORE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/pod_requests.h"
#include "gpusched/model/quantity.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched::scoretest {

using Reqs = std::map<std::string, std::string>;

inline Quantity Q(const std::string& s) {
  auto q = Quantity::Parse(s);
  EXPECT_TRUE(q.ok()) << s;
  return q.ok() ? *q : Quantity();
}

inline ResourceList ToList(const Reqs& reqs) {
  ResourceList l;
  for (const auto& [name, value] : reqs) l[name] = Q(value);
  return l;
}

// st.MakePod().Req(c0).Req(c1)...: one container per request map; an empty
// map is a container with no requests (st.MakePod().Container("c")).
inline Pod MakePod(const std::vector<Reqs>& containers = {}, const std::string& node_name = "") {
  Pod p;
  p.meta.name = "p";
  p.meta.namespace_ = "default";
  p.node_name = node_name;
  int i = 0;
  for (const auto& r : containers) p.containers.push_back(Container{"c" + std::to_string(i++), "img", ToList(r), {}, ""});
  return p;
}

// st.MakeNode().Name(name).Capacity(capacity): capacity and allocatable both
// set (plus pods: 32, as upstream's wrapper does); no capacity at all when
// `capacity` is empty (st.MakeNode().Name(name).Obj()).
inline Node MakeNode(const std::string& name, const Reqs& capacity = {},
                     const std::map<std::string, std::string>& labels = {}) {
  Node n;
  n.meta.name = name;
  for (const auto& [k, v] : labels) n.meta.labels[k] = v;
  if (!capacity.empty()) {
    Reqs with_pods = capacity;
    with_pods.emplace("pods", "32");
    n.capacity = ToList(with_pods);
    n.allocatable = n.capacity;
    n.has_allocatable = true;
  }
  return n;
}

// makeNode(name, milliCPU, memory, extendedResource) of noderesources' test_util.go.
inline Node MakeNodeWithExtended(const std::string& name, int64_t milli_cpu, int64_t memory,
                                 const std::map<std::string, int64_t>& extended = {}) {
  Node n;
  n.meta.name = name;
  n.allocatable["cpu"] = Quantity::FromMilli(milli_cpu);
  n.allocatable["memory"] = Quantity::FromInt(memory, Quantity::Format::kBinarySI);
  for (const auto& [r, v] : extended) n.allocatable[r] = Quantity::FromInt(v);
  n.capacity = n.allocatable;
  n.has_allocatable = true;
  return n;
}

// cache.NewSnapshot(existing, nodes): every existing pod is added to the node
// named by its spec.nodeName; a pod with no nodeName lands on no listed node.
inline ClusterState MakeCluster(std::vector<Node> nodes, const std::vector<Pod>& existing = {}) {
  ClusterState cs(std::move(nodes));
  for (const Pod& p : existing) {
    if (p.node_name.empty()) continue;
    const int64_t i = cs.FindNode(p.node_name);
    EXPECT_GE(i, 0) << "existing pod on unknown node " << p.node_name;
    if (i < 0) continue;
    cs.Bind(static_cast<size_t>(i), ComputePodRequests(p), ComputeNonZeroPodRequests(p));
  }
  return cs;
}

// Score on every node, in node order (no normalization).
inline std::vector<int64_t> ScoreAll(const ScorePlugin& plugin, const Pod& pod, const ClusterState& cs) {
  const PodInfo info = PodInfo::Make(pod, 0);
  std::vector<int64_t> scores;
  for (size_t i = 0; i < cs.size(); ++i) scores.push_back(plugin.Score(info, cs.node(i), cs.state(i)));
  return scores;
}

// Score on every node, then NormalizeScore, as the framework runs them.
inline std::vector<int64_t> ScoreAndNormalize(const ScorePlugin& plugin, const Pod& pod, const ClusterState& cs) {
  std::vector<int64_t> scores = ScoreAll(plugin, pod, cs);
  plugin.NormalizeScore(PodInfo::Make(pod, 0), scores);
  return scores;
}

}  // namespace gpusched::scoretest

#endif  // GPUSCHED_TESTS_SCHED_SCORE_TEST_UTIL_H_

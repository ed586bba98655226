// PodTopologySpread's scoring: pkg/scheduler/framework/plugins/
// podtopologyspread/scoring.go (initPreScoreState, PreScore, Score,
// NormalizeScore, topologyNormalizingWeight, scoreForCount). The PreScore
// state is computed in ScoreNodes, which sees the feasible nodes; PreScore
// only decides Skip, from the pod and the cluster's objects. The counts come
// from the plugin's PodMatchIndex where every node counts, or from every
// node's pods (the reference, and where inclusion policies exclude nodes).
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include "gpusched/model/pod.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"

namespace gpusched {
namespace {

constexpr int64_t kInvalidScore = -1;

// topologyNormalizingWeight: log(size + 2).
double TopologyNormalizingWeight(size_t size) { return std::log(static_cast<double>(size + 2)); }

// scoreForCount.
double ScoreForCount(int64_t count, int32_t max_skew, double weight) {
  return static_cast<double>(count) * weight + static_cast<double>(max_skew - 1);
}

}  // namespace

bool PodTopologySpread::PreScore(const PodInfo& pod, const ClusterState& cluster) const {
  // No node at all: Skip.
  if (cluster.num_present() == 0) return false;
  const Pod& p = *pod.pod;
  const auto& own = p.Extras().topology_spread_constraints;
  if (!own.empty()) {
    for (const TopologySpreadConstraint& c : own)
      if (c.when_unsatisfiable == kScheduleAnyway) return true;
    return false;
  }
  // Default constraints: only with a non-empty default selector. Trace pods
  // (no controller, no Services in the input) are decided here in O(1).
  if (!HasDefaults(kScheduleAnyway)) return false;
  const ApiObjects& objects = cluster.objects();
  if (objects.services.empty() && !p.controller_ref) return false;
  return !DefaultSelector(p, objects).Empty();
}

void PodTopologySpread::ScoreNodes(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                                   std::vector<int64_t>& scores) const {
  const Pod& p = *pod.pod;
  const std::vector<SpreadConstraint> constraints = Constraints(p, cluster.objects(), kScheduleAnyway);
  const size_t n = constraints.size();
  // Only non-system-default rules require every topology label on a node:
  // nodes without a zone label still get hostname spreading.
  const bool require_all = !p.Extras().topology_spread_constraints.empty() || !system_defaulted_;
  // initPreScoreState over the feasible nodes.
  std::vector<bool> ignored(nodes.size(), false);
  size_t num_ignored = 0;
  std::vector<std::unordered_map<std::string, int64_t>> counts(n);
  for (size_t k = 0; k < nodes.size(); ++k) {
    const Node& node = cluster.node(nodes[k]);
    if (require_all && !NodeHasAllTopologyKeys(node, constraints)) {
      ignored[k] = true;
      ++num_ignored;
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      if (constraints[i].topology_key == kLabelHostname) continue;  // counted per node in Score
      auto it = node.meta.labels.find(constraints[i].topology_key);
      // A node without the key is the "" domain (possible only when not
      // every key is required).
      counts[i].emplace(it == node.meta.labels.end() ? std::string() : it->second, 0);
    }
  }
  std::vector<double> weights(n);
  for (size_t i = 0; i < n; ++i)
    weights[i] = TopologyNormalizingWeight(constraints[i].topology_key == kLabelHostname ? nodes.size() - num_ignored
                                                                                       : counts[i].size());
  // PreScore's pass over all nodes: the matching pods of each domain some
  // feasible node is in. From the plugin's index when every node counts
  // (no inclusion policy can exclude one, and each has every key or not
  // all are required); hostname constraints read each node's own count.
  std::vector<std::shared_ptr<const PodMatchCounts>> indexed(n);
  bool from_index = use_index_;
  for (size_t i = 0; i < n && from_index; ++i) {
    const SpreadConstraint& c = constraints[i];
    from_index = !InclusionFilters(c, p);
    if (!from_index) break;
    indexed[i] = match_index_.Get(cluster, SpreadMatcher(c, p.ns()), {c.topology_key});
    from_index = !require_all || indexed[i]->For(c.topology_key).domains->nodes_with_key == cluster.num_present();
  }
  if (from_index) {
    for (size_t i = 0; i < n; ++i) {
      if (constraints[i].topology_key == kLabelHostname) continue;
      const PodMatchCounts::ByKey& by = indexed[i]->For(constraints[i].topology_key);
      // The "" domain (nodes without the key) only counts as a domain in the
      // weight: Score skips a node without the key, so its count is not read.
      for (auto& [value, count] : counts[i]) {
        if (value.empty()) continue;
        const int32_t d = by.domains->Find(value);
        count = d >= 0 ? by.counts[static_cast<size_t>(d)] : 0;
      }
    }
  }
  for (size_t node = 0; node < cluster.size() && !from_index; ++node) {
    if (!cluster.present(node)) continue;
    const Node& nd = cluster.node(node);
    if (require_all && !NodeHasAllTopologyKeys(nd, constraints)) continue;
    for (size_t i = 0; i < n; ++i) {
      const SpreadConstraint& c = constraints[i];
      if (!MatchNodeInclusionPolicies(c, p, nd)) continue;
      auto label = nd.meta.labels.find(c.topology_key);
      auto it = counts[i].find(label == nd.meta.labels.end() ? std::string() : label->second);
      if (it == counts[i].end()) continue;
      it->second += CountPodsMatchSelector(cluster.state(node), c, p.ns());
    }
  }
  // Score.
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (ignored[k]) {
      scores[k] = kInvalidScore;
      continue;
    }
    const Node& node = cluster.node(nodes[k]);
    double score = 0;
    for (size_t i = 0; i < n; ++i) {
      const SpreadConstraint& c = constraints[i];
      auto label = node.meta.labels.find(c.topology_key);
      if (label == node.meta.labels.end()) continue;
      const int64_t cnt = c.topology_key != kLabelHostname ? counts[i].find(label->second)->second
                          : from_index ? indexed[i]->per_node[nodes[k]]
                                       : CountPodsMatchSelector(cluster.state(nodes[k]), c, p.ns());
      score += ScoreForCount(cnt, c.max_skew, weights[i]);
    }
    scores[k] = static_cast<int64_t>(std::round(score));  // math.Round: half away from zero
  }
}

int64_t PodTopologySpread::Score(const PodInfo& pod, const Node& node, const NodeState& state) const {
  // The node as the only one (the scheduler scores through ScoreNodes):
  // each domain is this node's.
  const Pod& p = *pod.pod;
  const std::vector<SpreadConstraint> constraints = Constraints(p, ApiObjects{}, kScheduleAnyway);
  const bool require_all = !p.Extras().topology_spread_constraints.empty() || !system_defaulted_;
  if (require_all && !NodeHasAllTopologyKeys(node, constraints)) return 0;
  double score = 0;
  for (const SpreadConstraint& c : constraints) {
    if (node.meta.labels.find(c.topology_key) == node.meta.labels.end()) continue;
    const bool counted = c.topology_key == kLabelHostname || MatchNodeInclusionPolicies(c, p, node);
    score += ScoreForCount(counted ? CountPodsMatchSelector(state, c, p.ns()) : 0, c.max_skew,
                           TopologyNormalizingWeight(1));
  }
  return static_cast<int64_t>(std::round(score));
}

void PodTopologySpread::NormalizeScore(const PodInfo&, std::vector<int64_t>& scores) const {
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (int64_t s : scores) {
    if (s == kInvalidScore) continue;
    min_score = std::min(min_score, s);
    max_score = std::max(max_score, s);
  }
  for (int64_t& s : scores) {
    if (s == kInvalidScore) {
      s = 0;
    } else if (max_score == 0) {
      s = kMaxNodeScore;
    } else {
      s = kMaxNodeScore * (max_score + min_score - s) / max_score;
    }
  }
}

}  // namespace gpusched

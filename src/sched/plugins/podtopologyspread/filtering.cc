// PodTopologySpread's PreFilter and Filter: pkg/scheduler/framework/plugins/
// podtopologyspread/filtering.go (calPreFilterState, the critical paths,
// minMatchNum with minDomains, Filter) and its PreFilterExtensions
// (AddPod/RemovePod, updateWithPod), which here are Check reading the
// node's own pods from the NodeState it is handed (cycle_state.h's
// contract): the state keeps what each node contributed when PreFilter
// counted, Check takes it off and adds what the node holds now.
#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

#include "gpusched/model/pod.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"

namespace gpusched {
namespace {

// filtering.go criticalPaths: two domains, [0] always with the least
// matching pods; [1] not necessarily the second least.
struct CriticalPaths {
  struct Path {
    std::string value;
    int64_t num = INT32_MAX;  // math.MaxInt32
  };
  Path p[2];

  void Update(const std::string& value, int64_t num) {
    int i = value == p[0].value ? 0 : value == p[1].value ? 1 : -1;
    if (i >= 0) {
      p[i].num = num;
      if (p[0].num > p[1].num) std::swap(p[0], p[1]);
    } else if (num < p[0].num) {
      p[1] = p[0];
      p[0].value = value;
      p[0].num = num;
    } else if (num < p[1].num) {
      p[1].value = value;
      p[1].num = num;
    }
  }
};

struct SpreadFilterState : PreFilterData {
  std::vector<SpreadConstraint> constraints;
  std::vector<std::unordered_map<std::string, int64_t>> match_num;  // TpValueToMatchNum
  std::vector<CriticalPaths> paths;
  // What PreFilter counted on each node, by node name.
  struct NodeCounts {
    // The NodeState's version and pod count then: a dry-run copy with
    // pods removed or added has another version (every change bumps it),
    // so equal ones hold the same pods and need no recount.
    uint64_t version = 0;
    size_t pods = 0;
    std::vector<int64_t> counts;  // matching pods per constraint; -1: not counted for it
  };
  std::unordered_map<std::string, NodeCounts> node_counts;
  std::vector<bool> self_match;  // the pod matches constraint i's selector
};

}  // namespace

std::unique_ptr<PreFilterData> PodTopologySpread::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                            SchedStatus&) const {
  const Pod& p = *pod.pod;
  // Skip, decided without other pods: no DoNotSchedule constraint of its
  // own, and (when it has none) no DoNotSchedule default.
  const auto& own = p.Extras().topology_spread_constraints;
  if (own.empty() ? !HasDefaults(kDoNotSchedule)
                  : std::none_of(own.begin(), own.end(),
                                 [](const TopologySpreadConstraint& c) { return c.when_unsatisfiable == kDoNotSchedule; }))
    return nullptr;
  std::vector<SpreadConstraint> constraints = Constraints(p, cluster.objects(), kDoNotSchedule);
  if (constraints.empty()) return nullptr;
  auto s = std::make_unique<SpreadFilterState>();
  const size_t n = constraints.size();
  s->match_num.resize(n);
  s->paths.resize(n);
  for (size_t i = 0; i < n; ++i) s->self_match.push_back(constraints[i].Matches(p.meta.labels));
  for (size_t node = 0; node < cluster.size(); ++node) {
    if (!cluster.present(node)) continue;
    const Node& nd = cluster.node(node);
    // Every topology key on the node, or it is not counted at all.
    if (!NodeHasAllTopologyKeys(nd, constraints)) continue;
    std::vector<int64_t> counts(n, -1);
    for (size_t i = 0; i < n; ++i) {
      const SpreadConstraint& c = constraints[i];
      if (!MatchNodeInclusionPolicies(c, p, nd)) continue;
      counts[i] = CountPodsMatchSelector(cluster.state(node), c, p.ns());
      s->match_num[i][nd.meta.labels.find(c.topology_key)->second] += counts[i];
    }
    const NodeState& st = cluster.state(node);
    s->node_counts.emplace(nd.name(), SpreadFilterState::NodeCounts{st.version, st.pods.size(), std::move(counts)});
  }
  for (size_t i = 0; i < n; ++i)
    for (const auto& [value, num] : s->match_num[i]) s->paths[i].Update(value, num);
  s->constraints = std::move(constraints);
  return s;
}

bool PodTopologySpread::Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const {
  const SpreadFilterState* s = pod.cycle ? pod.cycle->Get<SpreadFilterState>(this) : nullptr;
  if (s == nullptr) return true;  // PreFilter skipped the pod
  const std::vector<int64_t>* before = nullptr;
  bool changed = false;
  if (auto it = s->node_counts.find(node.name()); it != s->node_counts.end()) {
    before = &it->second.counts;
    changed = it->second.version != state.version || it->second.pods != state.pods.size();
  }
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const SpreadConstraint& c = s->constraints[i];
    auto label = node.meta.labels.find(c.topology_key);
    if (label == node.meta.labels.end()) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonSpreadNodeLabelNotMatch);
      return false;
    }
    const std::string& value = label->second;
    const auto& domains = s->match_num[i];
    auto m = domains.find(value);
    int64_t match_num = m == domains.end() ? 0 : m->second;
    int64_t min_match = s->paths[i].p[0].num;
    // The node's own pods as the state now has them (victims removed,
    // nominated pods added): updateWithPod's delta on this domain.
    if (changed && (*before)[i] >= 0) {
      const int64_t now = CountPodsMatchSelector(state, c, pod.pod->ns());
      if (now != (*before)[i]) {
        match_num += now - (*before)[i];
        CriticalPaths paths = s->paths[i];
        paths.Update(value, match_num);
        min_match = paths.p[0].num;
      }
    }
    // minMatchNum: fewer eligible domains than minDomains makes the global
    // minimum 0.
    if (static_cast<int64_t>(domains.size()) < c.min_domains) min_match = 0;
    const int64_t self = s->self_match[i] ? 1 : 0;
    if (match_num + self - min_match > c.max_skew) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonSpreadConstraintsNotMatch);
      return false;
    }
  }
  return true;
}

bool PodTopologySpread::QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState&) const {
  // isSchedulableAfterNodeChange for an added node: Queue when it carries
  // every topology key of the pod's constraints (the hard ones here: only
  // the filter rejects).
  // Default constraints need the pod's selector, which needs the cluster's
  // objects: queued (as if every key were there).
  if (pod.pod->Extras().topology_spread_constraints.empty()) return HasDefaults(kDoNotSchedule);
  return NodeHasAllTopologyKeys(node, Constraints(*pod.pod, ApiObjects{}, kDoNotSchedule));
}

bool PodTopologySpread::QueueOnAssignedPodAdded(const PodInfo& pod, const Pod& added, const Node&) const {
  // isSchedulableAfterPodChange: a pod of another namespace changes
  // nothing; one that a constraint selects may.
  if (added.ns() != pod.pod->ns()) return false;
  if (pod.pod->Extras().topology_spread_constraints.empty()) return HasDefaults(kDoNotSchedule);  // as above
  for (const SpreadConstraint& c : Constraints(*pod.pod, ApiObjects{}, kDoNotSchedule))
    if (c.Matches(added.meta.labels)) return true;
  return false;
}

int PodTopologySpread::NeverPasses(const PodInfo& pod, const Node& node, const NodeState&) const {
  for (const TopologySpreadConstraint& c : pod.pod->Extras().topology_spread_constraints)
    if (c.when_unsatisfiable == kDoNotSchedule && node.meta.labels.find(c.topology_key) == node.meta.labels.end())
      return 2;
  return 0;
}

std::string PodTopologySpread::ExclusionPhrase(const PodInfo& pod, const ClusterState&, int reason) const {
  if (reason != 2) return {};
  std::string keys;
  for (const TopologySpreadConstraint& c : pod.pod->Extras().topology_spread_constraints)
    if (c.when_unsatisfiable == kDoNotSchedule) keys += (keys.empty() ? "" : ", ") + c.topology_key;
  return "without a label its topologySpreadConstraints spread over (" + keys +
         "): label the nodes, or use whenUnsatisfiable: ScheduleAnyway";
}

}  // namespace gpusched

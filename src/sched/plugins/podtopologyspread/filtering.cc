// PodTopologySpread's PreFilter and Filter: pkg/scheduler/framework/plugins/
// podtopologyspread/filtering.go (calPreFilterState, the critical paths,
// minMatchNum with minDomains, Filter) and its PreFilterExtensions
// (AddPod/RemovePod, updateWithPod), which here are Check reading the
// node's own pods from the NodeState it is handed (cycle_state.h's
// contract): the state keeps what each node contributed when PreFilter
// counted, Check takes it off and adds what the node holds now.
//
// PreFilter's counts come from the plugin's PodMatchIndex (one matcher per
// constraint, its sums per domain when every node counts), or with the
// index off from matching every node's pods, the reference both must agree
// with.
#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

#include "gpusched/model/pod.h"
#include "gpusched/sched/plugins/pod_match_index.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"

namespace gpusched {
namespace {

// filtering.go criticalPaths: two domains (ids in TopologyDomains), [0]
// always with the least matching pods; [1] not necessarily the second least.
struct CriticalPaths {
  struct Path {
    int32_t domain = -1;
    int64_t num = INT32_MAX;  // math.MaxInt32
  };
  Path p[2];

  void Update(int32_t domain, int64_t num) {
    int i = domain == p[0].domain ? 0 : domain == p[1].domain ? 1 : -1;
    if (i >= 0) {
      p[i].num = num;
      if (p[0].num > p[1].num) std::swap(p[0], p[1]);
    } else if (num < p[0].num) {
      p[1] = p[0];
      p[0].domain = domain;
      p[0].num = num;
    } else if (num < p[1].num) {
      p[1].domain = domain;
      p[1].num = num;
    }
  }
};

struct SpreadFilterState : PreFilterData {
  const ClusterState* cluster = nullptr;
  uint64_t cluster_version = 0;  // ClusterState::version() when PreFilter counted
  std::vector<SpreadConstraint> constraints;
  struct PerConstraint {
    std::shared_ptr<const TopologyDomains> domains;
    // Matching pods per node when PreFilter counted (pinned: the index
    // updates a copy while this is held).
    std::shared_ptr<const PodMatchCounts> counts;
    std::vector<int64_t> match_num;  // TpValueToMatchNum, by domain id
    int64_t eligible_domains = 0;    // len(TpValueToMatchNum)
    CriticalPaths paths;
    // Whether matchNodeInclusionPolicies can exclude a node at all.
    bool filtered = false;
  };
  std::vector<PerConstraint> per;
  std::vector<bool> self_match;  // the pod matches constraint i's selector
};

// The node's index in `cluster`, or -1; `own`: `node` is the cluster's own
// Node object, whose labels the index's domains were read from.
int64_t NodeIndex(const ClusterState& cluster, const Node& node, bool& own) {
  const std::vector<Node>& nodes = cluster.nodes();
  own = !nodes.empty() && &node >= nodes.data() && &node < nodes.data() + nodes.size();
  if (own) return &node - nodes.data();
  return cluster.FindNode(node.name());
}

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
  s->cluster = &cluster;
  s->cluster_version = cluster.version();
  const size_t n = constraints.size();
  s->per.resize(n);
  bool all_keys = true, any_filtered = false;
  for (size_t i = 0; i < n; ++i) {
    const SpreadConstraint& c = constraints[i];
    s->self_match.push_back(c.Matches(p.meta.labels));
    SpreadFilterState::PerConstraint& pc = s->per[i];
    const PodMatcher matcher = SpreadMatcher(c, p.ns());
    if (use_index_) {
      pc.counts = match_index_.Get(cluster, matcher, {c.topology_key});
      pc.domains = pc.counts->For(c.topology_key).domains;
    } else {
      // The plain count (the reference): every node's pods matched now.
      auto counts = std::make_shared<PodMatchCounts>();
      counts->per_node.assign(cluster.size(), 0);
      for (size_t node = 0; node < cluster.size(); ++node)
        if (cluster.present(node)) counts->per_node[node] = PodMatchIndex::CountOn(cluster.state(node).pods, matcher);
      pc.counts = std::move(counts);
      pc.domains = match_index_.Domains(cluster, c.topology_key);
    }
    pc.filtered = InclusionFilters(c, p);
    any_filtered |= pc.filtered;
    all_keys &= pc.domains->nodes_with_key == cluster.num_present();
    pc.match_num.assign(pc.domains->names.size(), 0);
  }
  if (use_index_ && all_keys && !any_filtered) {
    // Every present node counts for every constraint: the index's sums.
    for (size_t i = 0; i < n; ++i) {
      SpreadFilterState::PerConstraint& pc = s->per[i];
      pc.match_num = pc.counts->For(constraints[i].topology_key).counts;
      pc.eligible_domains = static_cast<int64_t>(pc.match_num.size());
    }
  } else {
    std::vector<std::vector<char>> eligible(n);
    for (size_t i = 0; i < n; ++i) eligible[i].assign(s->per[i].match_num.size(), 0);
    for (size_t node = 0; node < cluster.size(); ++node) {
      if (!cluster.present(node)) continue;
      // Every topology key on the node, or it is not counted at all.
      bool has_all = true;
      for (size_t i = 0; i < n && has_all; ++i) has_all = s->per[i].domains->domain_of[node] >= 0;
      if (!has_all) continue;
      for (size_t i = 0; i < n; ++i) {
        SpreadFilterState::PerConstraint& pc = s->per[i];
        if (pc.filtered && !MatchNodeInclusionPolicies(constraints[i], p, cluster.node(node))) continue;
        const auto d = static_cast<size_t>(pc.domains->domain_of[node]);
        pc.match_num[d] += pc.counts->per_node[node];
        eligible[i][d] = 1;
      }
    }
    for (size_t i = 0; i < n; ++i) {
      SpreadFilterState::PerConstraint& pc = s->per[i];
      for (size_t d = 0; d < eligible[i].size(); ++d) {
        if (eligible[i][d]) {
          ++pc.eligible_domains;
        } else {
          pc.match_num[d] = -1;  // not a key of TpValueToMatchNum
        }
      }
    }
  }
  for (SpreadFilterState::PerConstraint& pc : s->per)
    for (size_t d = 0; d < pc.match_num.size(); ++d)
      if (pc.match_num[d] >= 0) pc.paths.Update(static_cast<int32_t>(d), pc.match_num[d]);
  // Check on a node as counted (Evaluate with as_counted): a node without
  // the key fails, and one passes when max(matchNum, 0) + self - minMatch
  // <= maxSkew, a bound on its domain's match_num (where -1, a domain no
  // eligible node is in, counts as 0: exact while the bound is >= 0).
  if (use_index_) {
    s->by_domain = true;
    s->tests_cluster = &cluster;
    s->tests_version = s->cluster_version;
    for (size_t i = 0; i < n && s->by_domain; ++i) {
      const SpreadFilterState::PerConstraint& pc = s->per[i];
      const int64_t min_match = pc.eligible_domains < constraints[i].min_domains ? 0 : pc.paths.p[0].num;
      const int64_t max = constraints[i].max_skew - (s->self_match[i] ? 1 : 0) + min_match;
      s->by_domain = max >= 0;
      s->domain_tests.push_back({pc.domains->domain_of.data(), pc.match_num.data(), max, false});
    }
    if (!s->by_domain) s->domain_tests.clear();
  }
  s->constraints = std::move(constraints);
  return s;
}

bool PodTopologySpread::Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const {
  return Evaluate(pod, node, state, why, nullptr);
}

std::string PodTopologySpread::ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const {
  std::string words;
  Evaluate(pod, node, state, nullptr, &words);
  return words;
}

bool PodTopologySpread::Evaluate(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why,
                                 std::string* explain) const {
  const SpreadFilterState* s = pod.cycle ? pod.cycle->Get<SpreadFilterState>(this) : nullptr;
  if (s == nullptr) return true;  // PreFilter skipped the pod
  const ClusterState& cluster = *s->cluster;
  bool own = false;
  const int64_t index = NodeIndex(cluster, node, own);
  // The node's pods are those PreFilter counted when its state is the
  // cluster's own and nothing changed since; otherwise (a dry run's copy,
  // victims removed or nominated pods added) Check counts them now:
  // updateWithPod's delta on the node's domain.
  const bool as_counted = index >= 0 && &cluster.state(static_cast<size_t>(index)) == &state &&
                          cluster.version() == s->cluster_version;
  bool has_all = true;
  if (!as_counted)
    for (const SpreadConstraint& c : s->constraints) has_all &= node.meta.labels.count(c.topology_key) > 0;
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const SpreadConstraint& c = s->constraints[i];
    const SpreadFilterState::PerConstraint& pc = s->per[i];
    // The node's domain: by its index when it is the cluster's own Node
    // (no label lookup), by its value otherwise.
    int32_t domain = -1;
    bool has_label = true;
    if (own) {
      domain = pc.domains->domain_of[static_cast<size_t>(index)];
      has_label = domain >= 0;
    } else if (auto label = node.meta.labels.find(c.topology_key); label == node.meta.labels.end()) {
      has_label = false;
    } else {
      domain = pc.domains->Find(label->second);
    }
    if (!has_label) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonSpreadNodeLabelNotMatch);
      if (explain) *explain = "node " + node.name() + " has no label " + c.topology_key;
      return false;
    }
    int64_t match_num = domain >= 0 ? std::max<int64_t>(pc.match_num[static_cast<size_t>(domain)], 0) : 0;
    int64_t min_match = pc.paths.p[0].num;
    if (!as_counted && has_all && (!pc.filtered || MatchNodeInclusionPolicies(c, *pod.pod, node))) {
      const int64_t before = index >= 0 ? pc.counts->per_node[static_cast<size_t>(index)] : 0;
      const int64_t now = CountPodsMatchSelector(state, c, pod.pod->ns());
      if (now != before) {
        match_num += now - before;
        CriticalPaths paths = pc.paths;
        paths.Update(domain >= 0 ? domain : INT32_MAX, match_num);  // a value no node had: its own domain
        min_match = paths.p[0].num;
      }
    }
    // minMatchNum: fewer eligible domains than minDomains makes the global
    // minimum 0.
    if (pc.eligible_domains < c.min_domains) min_match = 0;
    const int64_t self = s->self_match[i] ? 1 : 0;
    if (match_num + self - min_match > c.max_skew) {
      if (why) why->Fail(SchedStatus::Code::kUnschedulable, kReasonSpreadConstraintsNotMatch);
      if (explain) {
        auto label = node.meta.labels.find(c.topology_key);
        const std::string value = label == node.meta.labels.end() ? std::string() : label->second;
        *explain = c.topology_key + "=" + value + " holds " + std::to_string(match_num) + " matching pod" +
                   (match_num == 1 ? "" : "s") + " and the least-loaded " + c.topology_key + " " +
                   std::to_string(min_match) +
                   (pc.eligible_domains < c.min_domains
                        ? " (fewer domains than minDomains " + std::to_string(c.min_domains) + ")"
                        : std::string()) +
                   ": placing this pod there makes the skew " + std::to_string(match_num + self - min_match) +
                   ", above maxSkew " + std::to_string(c.max_skew);
      }
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

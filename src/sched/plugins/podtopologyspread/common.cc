// PodTopologySpread's common part: pkg/scheduler/framework/plugins/
// podtopologyspread/plugin.go (the system default constraints) and
// common.go (filterTopologySpreadConstraints, buildDefaultConstraints,
// matchNodeInclusionPolicies, countPodsMatchSelector), with
// helper.DefaultSelector (plugins/helper/spread.go).
#include <algorithm>

#include "gpusched/model/node_affinity.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/taint.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"

namespace gpusched {
namespace {

// plugin.go systemDefaultConstraints.
std::vector<TopologySpreadConstraint> SystemDefaultConstraints() {
  TopologySpreadConstraint host;
  host.topology_key = kLabelHostname;
  host.when_unsatisfiable = kScheduleAnyway;
  host.max_skew = 3;
  TopologySpreadConstraint zone;
  zone.topology_key = kLabelTopologyZone;
  zone.when_unsatisfiable = kScheduleAnyway;
  zone.max_skew = 5;
  return {host, zone};
}

// labels.Selector.Add for a LabelSelector's requirements (matchLabels as
// `key In (value)`).
void AddRequirements(LabelSelector& to, const LabelSelector& from) {
  for (const auto& [k, v] : from.match_labels) to.match_expressions.push_back({k, "In", {v}});
  for (const LabelSelectorRequirement& r : from.match_expressions) to.match_expressions.push_back(r);
}

const ControllerSelector* FindController(const ApiObjects& objects, std::string_view kind, const std::string& ns,
                                         const std::string& name) {
  for (const ControllerSelector& c : objects.spread_controllers)
    if (c.kind == kind && c.ns == ns && c.name == name) return &c;
  return nullptr;
}

}  // namespace

PodTopologySpread::PodTopologySpread(PodTopologySpreadArgs args) : default_constraints_(std::move(args.default_constraints)) {
  // New: DefaultingType System replaces the args' constraints.
  if (args.defaulting_type == "System") {
    default_constraints_ = SystemDefaultConstraints();
    system_defaulted_ = true;
  }
  // Asked for every pod (PreFilter, PreScore): decided once.
  for (const TopologySpreadConstraint& c : default_constraints_) {
    hard_defaults_ |= c.when_unsatisfiable == kDoNotSchedule;
    soft_defaults_ |= c.when_unsatisfiable == kScheduleAnyway;
  }
}

SpreadConstraint ToSpreadConstraint(const TopologySpreadConstraint& c, const LabelMap& pod_labels) {
  SpreadConstraint s;
  s.max_skew = c.max_skew;
  s.topology_key = c.topology_key;
  s.nothing = !c.label_selector.has_value();
  if (c.label_selector) s.selector = *c.label_selector;
  // mergeLabelSetWithSelector: the pod's values of matchLabelKeys, unless
  // the selector is Nothing (whose Requirements() is not ok: kept as is).
  if (!s.nothing)
    for (const std::string& key : c.match_label_keys) {
      auto it = pod_labels.find(key);
      if (it != pod_labels.end()) s.selector.match_expressions.push_back({key, "In", {it->second}});
    }
  s.min_domains = c.min_domains.value_or(1);
  if (!c.node_affinity_policy.empty()) s.honor_node_affinity = c.node_affinity_policy == kNodeInclusionHonor;
  if (!c.node_taints_policy.empty()) s.honor_node_taints = c.node_taints_policy == kNodeInclusionHonor;
  return s;
}

LabelSelector DefaultSelector(const Pod& pod, const ApiObjects& objects) {
  // The Services of the pod's namespace whose (non-nil) selector matches
  // its labels, merged (later ones win a key; they all match the pod).
  LabelSelector out;
  for (const ServiceSelector& s : objects.services) {
    if (s.ns != pod.ns() || !s.selector) continue;
    bool match = true;
    for (const auto& [k, v] : *s.selector) {
      auto it = pod.meta.labels.find(k);
      if (it == pod.meta.labels.end() || it->second != v) {
        match = false;
        break;
      }
    }
    if (!match) continue;
    for (const auto& [k, v] : *s.selector) out.match_labels[k] = v;
  }
  if (!pod.controller_ref) return out;
  const OwnerReference& owner = *pod.controller_ref;
  // The owner's group/version and kind must be exactly the RC's, RS's or SS's.
  if (owner.kind == "ReplicationController" && owner.api_version == "v1") {
    if (const ControllerSelector* c = FindController(objects, owner.kind, pod.ns(), owner.name); c && c->selector)
      for (const auto& [k, v] : c->selector->match_labels) out.match_labels[k] = v;
  } else if ((owner.kind == "ReplicaSet" || owner.kind == "StatefulSet") && owner.api_version == "apps/v1") {
    if (const ControllerSelector* c = FindController(objects, owner.kind, pod.ns(), owner.name); c && c->selector) {
      // Requirements appended to the services' (labels.Selector.Add).
      LabelSelector reqs;
      AddRequirements(reqs, *c->selector);
      for (auto& r : reqs.match_expressions) out.match_expressions.push_back(std::move(r));
    }
  } else if (owner.kind == "Deployment" && owner.api_version == "apps/v1") {
    // gpusched made this pod for a Deployment without its ReplicaSet: the
    // ReplicaSet the Deployment controller makes selects the Deployment's
    // selector and pod-template-hash.
    if (const ControllerSelector* c = FindController(objects, owner.kind, pod.ns(), owner.name); c && c->selector) {
      LabelSelector rs = *c->selector;
      auto hash = pod.meta.labels.find("pod-template-hash");
      if (hash != pod.meta.labels.end()) rs.match_labels[hash->first] = hash->second;
      AddRequirements(out, rs);
    }
  }
  return out;
}

bool PodTopologySpread::HasDefaults(std::string_view action) const {
  return action == kDoNotSchedule ? hard_defaults_ : soft_defaults_;
}

std::vector<SpreadConstraint> PodTopologySpread::Constraints(const Pod& pod, const ApiObjects& objects,
                                                             std::string_view action) const {
  std::vector<SpreadConstraint> out;
  const auto& own = pod.Extras().topology_spread_constraints;
  if (!own.empty()) {
    for (const TopologySpreadConstraint& c : own)
      if (c.when_unsatisfiable == action) out.push_back(ToSpreadConstraint(c, pod.meta.labels));
    return out;
  }
  // buildDefaultConstraints.
  if (!HasDefaults(action)) return out;
  // Cheap case first: no Service and no controller, no selector.
  if (objects.services.empty() && !pod.controller_ref) return out;
  LabelSelector selector = DefaultSelector(pod, objects);
  if (selector.Empty()) return out;
  for (const TopologySpreadConstraint& c : default_constraints_) {
    if (c.when_unsatisfiable != action) continue;
    SpreadConstraint s = ToSpreadConstraint(c, pod.meta.labels);
    s.nothing = false;
    s.selector = selector;
    out.push_back(std::move(s));
  }
  return out;
}

bool NodeHasAllTopologyKeys(const Node& node, const std::vector<SpreadConstraint>& constraints) {
  for (const SpreadConstraint& c : constraints)
    if (node.meta.labels.find(c.topology_key) == node.meta.labels.end()) return false;
  return true;
}

bool MatchNodeInclusionPolicies(const SpreadConstraint& c, const Pod& pod, const Node& node) {
  if (c.honor_node_affinity) {
    // nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): nodeSelector
    // and the required terms.
    for (const auto& [k, v] : pod.node_selector) {
      auto it = node.meta.labels.find(k);
      if (it == node.meta.labels.end() || it->second != v) return false;
    }
    if (pod.node_affinity && pod.node_affinity->has_required &&
        !MatchesAnyNodeSelectorTerm(pod.node_affinity->required, node))
      return false;
  }
  if (c.honor_node_taints) {
    // FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc:
    // NoSchedule and NoExecute taints.
    for (const Taint& t : node.taints) {
      if (t.effect != kTaintEffectNoSchedule && t.effect != kTaintEffectNoExecute) continue;
      if (!TolerationsTolerateTaint(pod.tolerations, t)) return false;
    }
  }
  return true;
}

bool InclusionFilters(const SpreadConstraint& c, const Pod& pod) {
  return (c.honor_node_affinity && (!pod.node_selector.empty() ||
                                    (pod.node_affinity && pod.node_affinity->has_required))) ||
         c.honor_node_taints;
}

PodMatcher SpreadMatcher(const SpreadConstraint& c, const std::string& ns) {
  PodMatcher m;
  m.namespaces = {ns};
  // v1.35 counts nothing for an empty selector (countPodsMatchSelector).
  m.nothing = c.nothing || c.Empty();
  m.selector = c.selector;
  m.skip_deleting = true;  // terminating pods are bypassed (#87621)
  return m;
}

int64_t CountPodsMatchSelector(const NodeState& state, const SpreadConstraint& c, const std::string& ns) {
  // v1.35 returns 0 for an empty selector (labels.Everything(), i.e.
  // `labelSelector: {}`) without looking at the pods.
  if (c.Empty()) return 0;
  int64_t count = 0;
  for (const BoundPod& b : state.pods) {
    const Pod* p = b.pod;
    // Terminating pods are bypassed (#87621).
    if (p == nullptr || p->deleting || p->ns() != ns) continue;
    if (c.Matches(p->meta.labels)) ++count;
  }
  return count;
}

}  // namespace gpusched

// Node affinity as core/v1 defines it (NodeSelectorTerm with matchExpressions
// and matchFields; required and preferred terms), and the matching rules of
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity.
#ifndef GPUSCHED_MODEL_NODE_AFFINITY_H_
#define GPUSCHED_MODEL_NODE_AFFINITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpusched/model/node.h"

namespace gpusched {

struct NodeSelectorRequirement {
  std::string key;
  std::string op;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;
  bool operator==(const NodeSelectorRequirement&) const = default;
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;  // only metadata.name is supported upstream
  bool operator==(const NodeSelectorTerm&) const = default;
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
};

struct NodeAffinity {
  // requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms (ORed);
  // `has_required` tells an absent selector from one with no terms.
  bool has_required = false;
  std::vector<NodeSelectorTerm> required;
  std::vector<PreferredSchedulingTerm> preferred;  // preferredDuringSchedulingIgnoredDuringExecution
};

// True when every requirement of `term` holds on `node`. A term with no
// requirements matches nothing (upstream: "an empty term matches no objects").
bool MatchesNodeSelectorTerm(const NodeSelectorTerm& term, const Node& node);
// True when any term matches (terms are ORed).
bool MatchesAnyNodeSelectorTerm(const std::vector<NodeSelectorTerm>& terms, const Node& node);
// The same for a node known by its labels and name (volume.CheckNodeAffinity
// matches a PV's terms against a node made of the labels alone: name "").
bool MatchesAnyNodeSelectorTerm(const std::vector<NodeSelectorTerm>& terms,
                                const std::map<std::string, std::string, std::less<>>& labels,
                                const std::string& node_name);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_NODE_AFFINITY_H_

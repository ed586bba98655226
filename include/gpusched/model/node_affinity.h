// Node affinity as core/v1 defines it (NodeSelectorTerm with matchExpressions
// and matchFields; required and preferred terms), and the matching rules of
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity.
#ifndef GPUSCHED_MODEL_NODE_AFFINITY_H_
#define GPUSCHED_MODEL_NODE_AFFINITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpusched/model/field_error.h"
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

// True when every requirement of `term` holds on `node`, as
// nodeaffinity.LazyErrorNodeSelector matches one term: a term with no
// requirements matches nothing ("nil or empty term selects no objects"), nor
// does one that fails to parse (NodeSelectorTermParses); the matchFields are
// compared only on a node with a name (extractNodeFields), so a node known by
// its labels alone passes them.
bool MatchesNodeSelectorTerm(const NodeSelectorTerm& term, const Node& node);
// True when any term matches (terms are ORed).
bool MatchesAnyNodeSelectorTerm(const std::vector<NodeSelectorTerm>& terms, const Node& node);
// The same for a node known by its labels and name (volume.CheckNodeAffinity
// matches a PV's terms against a node made of the labels alone: name "").
bool MatchesAnyNodeSelectorTerm(const std::vector<NodeSelectorTerm>& terms,
                                const std::map<std::string, std::string, std::less<>>& labels,
                                const std::string& node_name);

// Whether k8s.io/component-helpers/scheduling/corev1/nodeaffinity parses
// `term` (newNodeSelectorTerm): each matchExpressions requirement must make a
// labels.Requirement (one of the six operators; a valid label key; In and
// NotIn with values, Exists and DoesNotExist without; Gt and Lt with exactly
// one integer; every value a valid label value), each matchFields one must be
// In or NotIn with exactly one value. A term that does not parse matches no
// node; the Filter ignores the error ("for backwards compatibility").
bool NodeSelectorTermParses(const NodeSelectorTerm& term);
// The parse errors of `term` at `path` ("...nodeSelectorTerms[0]", or
// "...preferredDuringSchedulingIgnoredDuringExecution[0]": a preferred
// term's path has no ".preference"), as NewNodeSelector and
// NewPreferredSchedulingTerms report them: labels.NewRequirement's messages
// for matchExpressions, nodeSelectorRequirementsAsFieldSelector's for
// matchFields.
void NodeSelectorTermErrors(const NodeSelectorTerm& term, const std::string& path, std::vector<FieldError>& errs);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_NODE_AFFINITY_H_

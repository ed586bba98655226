#include "gpusched/model/node_affinity.h"

#include <algorithm>
#include <charconv>

namespace gpusched {
namespace {

// strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits.
bool ParseInt64(const std::string& s, int64_t& out) {
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return b != e && ec == std::errc() && p == e;
}

// labels.Requirement.Matches (k8s.io/apimachinery/pkg/labels/selector.go) as
// nodeaffinity builds it from a NodeSelectorRequirement.
bool RequirementMatches(const NodeSelectorRequirement& r, bool has, const std::string& value) {
  auto in_values = [&] { return std::find(r.values.begin(), r.values.end(), value) != r.values.end(); };
  if (r.op == "In") return has && in_values();
  if (r.op == "NotIn") return !has || !in_values();
  if (r.op == "Exists") return has;
  if (r.op == "DoesNotExist") return !has;
  if (r.op == "Gt" || r.op == "Lt") {
    int64_t label = 0, bound = 0;
    if (!has || r.values.size() != 1 || !ParseInt64(value, label) || !ParseInt64(r.values[0], bound)) return false;
    return r.op == "Gt" ? label > bound : label < bound;
  }
  return false;
}

bool TermMatches(const NodeSelectorTerm& term, const std::map<std::string, std::string, std::less<>>& labels,
                 const std::string& node_name) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions) {
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    if (!RequirementMatches(r, has, has ? it->second : std::string())) return false;
  }
  for (const auto& r : term.match_fields) {
    // Only metadata.name is a supported field selector for nodes.
    if (r.key != "metadata.name") return false;
    if (!RequirementMatches(r, true, node_name)) return false;
  }
  return true;
}

}  // namespace

bool MatchesNodeSelectorTerm(const NodeSelectorTerm& term, const Node& node) {
  return TermMatches(term, node.meta.labels, node.name());
}

bool MatchesAnyNodeSelectorTerm(const std::vector<NodeSelectorTerm>& terms, const Node& node) {
  return MatchesAnyNodeSelectorTerm(terms, node.meta.labels, node.name());
}

bool MatchesAnyNodeSelectorTerm(const std::vector<NodeSelectorTerm>& terms,
                                const std::map<std::string, std::string, std::less<>>& labels,
                                const std::string& node_name) {
  for (const auto& t : terms)
    if (TermMatches(t, labels, node_name)) return true;
  return false;
}

}  // namespace gpusched

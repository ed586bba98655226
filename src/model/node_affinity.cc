#include "gpusched/model/node_affinity.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <utility>

#include "gpusched/model/name_validation.h"

namespace gpusched {
namespace {

const std::string& NoFieldValue() {
  static const std::string kEmpty;
  return kEmpty;
}

// A []string BadValue as field.Error prints it (%#v).
std::string GoStringSliceValue(const std::vector<std::string>& v) {
  if (v.empty()) return "[]string(nil)";
  std::string s = "[]string{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + GoQuote(v[i]);
  return s + "}";
}

FieldError InvalidStringSlice(std::string field, const std::vector<std::string>& values, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), GoStringSliceValue(values), std::move(detail)};
}

std::string JoinFieldMessages(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
  return s;
}

// strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits.
bool ParseInt64(std::string_view s, int64_t& out) {
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

// fields.OneTermEqualSelector / OneTermNotEqualSelector over the node's
// fields.Set, which holds metadata.name only: any other key reads "".
bool FieldMatches(const NodeSelectorRequirement& r, const std::string& node_name) {
  const std::string& value = r.key == "metadata.name" ? node_name : NoFieldValue();
  return r.op == "In" ? value == r.values[0] : value != r.values[0];
}

bool TermMatches(const NodeSelectorTerm& term, const std::map<std::string, std::string, std::less<>>& labels,
                 const std::string& node_name) {
  // "nil or empty term selects no objects".
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions) {
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    if (!RequirementMatches(r, has, has ? it->second : NoFieldValue())) return false;
  }
  // A term that fails to parse matches nothing; checked after the cheap
  // match above, since it only matters for a term that would match.
  if (!NodeSelectorTermParses(term)) return false;
  // nodeSelectorTerm.match: the fields are only compared when the node has
  // any, i.e. a name (extractNodeFields); a node known by its labels alone
  // (a PV's node affinity, volume.CheckNodeAffinity) passes them.
  if (node_name.empty()) return true;
  for (const auto& r : term.match_fields)
    if (!FieldMatches(r, node_name)) return false;
  return true;
}

// One matchExpressions requirement: nodeSelectorRequirementsAsSelector and
// labels.NewRequirement.
void NodeSelectorRequirementErrors(const NodeSelectorRequirement& r, const std::string& path,
                                   std::vector<FieldError>& errs) {
  if (r.op != "In" && r.op != "NotIn" && r.op != "Exists" && r.op != "DoesNotExist" && r.op != "Gt" && r.op != "Lt") {
    errs.push_back(FieldError::NotSupported(path + ".operator", r.op,
                                            {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}));
    return;
  }
  // labels.NewRequirement.
  std::vector<std::string> key_errs = IsQualifiedName(r.key);
  if (!key_errs.empty()) errs.push_back(FieldError::Invalid(path + ".key", r.key, JoinFieldMessages(key_errs)));
  const std::string values = path + ".values";
  if (r.op == "In" || r.op == "NotIn") {
    if (r.values.empty())
      errs.push_back(InvalidStringSlice(values, r.values, "for 'in', 'notin' operators, values set can't be empty"));
  } else if (r.op == "Exists" || r.op == "DoesNotExist") {
    if (!r.values.empty())
      errs.push_back(InvalidStringSlice(values, r.values, "values set must be empty for exists and does not exist"));
  } else {
    if (r.values.size() != 1)
      errs.push_back(InvalidStringSlice(values, r.values, "for 'Gt', 'Lt' operators, exactly one value is required"));
    for (size_t i = 0; i < r.values.size(); ++i) {
      int64_t v = 0;
      if (!ParseInt64(r.values[i], v))
        errs.push_back(FieldError::Invalid(values + "[" + std::to_string(i) + "]", r.values[i],
                                           "for 'Gt', 'Lt' operators, the value must be an integer"));
    }
  }
  for (size_t i = 0; i < r.values.size(); ++i) {
    std::vector<std::string> value_errs = IsValidLabelValue(r.values[i]);
    if (!value_errs.empty())
      errs.push_back(FieldError::Invalid(values + "[" + std::to_string(i) + "][" + r.key + "]", r.values[i],
                                         JoinFieldMessages(value_errs)));
  }
}

}  // namespace

void NodeSelectorTermErrors(const NodeSelectorTerm& term, const std::string& path, std::vector<FieldError>& errs) {
  for (size_t i = 0; i < term.match_expressions.size(); ++i)
    NodeSelectorRequirementErrors(term.match_expressions[i], path + ".matchExpressions[" + std::to_string(i) + "]",
                                  errs);
  // nodeSelectorRequirementsAsFieldSelector: In or NotIn with one value; the
  // key is not checked.
  for (size_t i = 0; i < term.match_fields.size(); ++i) {
    const NodeSelectorRequirement& r = term.match_fields[i];
    const std::string p = path + ".matchFields[" + std::to_string(i) + "]";
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.size() != 1) errs.push_back(InvalidStringSlice(p + ".values", r.values, "must have one element"));
    } else {
      errs.push_back(FieldError::NotSupported(p + ".operator", r.op, {"In", "NotIn"}));
    }
  }
}

bool NodeSelectorTermParses(const NodeSelectorTerm& term) {
  for (const NodeSelectorRequirement& r : term.match_expressions) {
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.empty()) return false;
    } else if (r.op == "Exists" || r.op == "DoesNotExist") {
      if (!r.values.empty()) return false;
    } else if (r.op == "Gt" || r.op == "Lt") {
      int64_t v = 0;
      if (r.values.size() != 1 || !ParseInt64(r.values[0], v)) return false;
    } else {
      return false;
    }
    // Empty when valid: no allocation.
    if (!IsQualifiedName(r.key).empty()) return false;
    for (const std::string& v : r.values)
      if (!IsValidLabelValue(v).empty()) return false;
  }
  for (const NodeSelectorRequirement& r : term.match_fields)
    if ((r.op != "In" && r.op != "NotIn") || r.values.size() != 1) return false;
  return true;
}

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

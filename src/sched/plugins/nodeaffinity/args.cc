// NodeAffinityArgs (pkg/scheduler/apis/config/v1/types_pluginargs.go) from
// profiles[].pluginConfig[].args: addedAffinity, a core/v1 NodeAffinity (no
// defaulting), checked as ValidateNodeAffinityArgs
// (apis/config/validation/validation_pluginargs.go) checks it: every
// required term must parse (nodeaffinity.NewNodeSelector) and so must every
// preferred term of non-zero weight (NewPreferredSchedulingTerms). Unlike a
// pod's affinity, the API's validation (weights in 1-100, at least one
// required term, metadata.name as the only field key) does not apply.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"

namespace gpusched {
namespace {

// Where each term and requirement was read, for an error's line: the
// longest path prefix of the error's field names it.
struct NodeAffinityArgsLines {
  std::vector<std::pair<std::string, ArgsReader::Node>> at;
  ArgsReader::Node For(const std::string& field, ArgsReader::Node fallback) const {
    size_t best = 0;
    ArgsReader::Node n = fallback;
    for (const auto& [prefix, node] : at)
      if (prefix.size() > best && field.compare(0, prefix.size(), prefix) == 0 &&
          (field.size() == prefix.size() || field[prefix.size()] == '.' || field[prefix.size()] == '[')) {
        best = prefix.size();
        n = node;
      }
    return n;
  }
};

std::vector<NodeSelectorRequirement> DecodeNodeAffinityRequirements(ArgsReader& r, ArgsReader::Node term,
                                                                    const char* key, const std::string& path,
                                                                    NodeAffinityArgsLines& lines) {
  std::vector<NodeSelectorRequirement> out;
  const std::string lp = path + "." + key;
  const ArgsReader::Node list = r.Seq(term, key, lp);
  for (size_t i = 0; list.defined() && i < r.Size(list); ++i) {
    const std::string p = lp + "[" + std::to_string(i) + "]";
    const ArgsReader::Node item = r.Item(list, i, p);
    if (!item.defined()) continue;
    r.WarnUnknown(item, p, {"key", "operator", "values"});
    lines.at.emplace_back(p, item);
    NodeSelectorRequirement req;
    req.key = r.Str(item, "key", p + ".key");
    req.op = r.Str(item, "operator", p + ".operator");
    req.values = r.Strings(item, "values", p + ".values");
    out.push_back(std::move(req));
  }
  return out;
}

NodeSelectorTerm DecodeNodeAffinityTerm(ArgsReader& r, ArgsReader::Node term, const std::string& path,
                                        NodeAffinityArgsLines& lines) {
  r.WarnUnknown(term, path, {"matchExpressions", "matchFields"});
  lines.at.emplace_back(path, term);
  NodeSelectorTerm t;
  t.match_expressions = DecodeNodeAffinityRequirements(r, term, "matchExpressions", path, lines);
  t.match_fields = DecodeNodeAffinityRequirements(r, term, "matchFields", path, lines);
  return t;
}

// "a.b" as field.Path prints a child of `path` ("" is upstream's nil path).
std::string NodeAffinityChild(const std::string& path, const char* child) {
  return path.empty() ? child : path + "." + child;
}

}  // namespace

std::vector<FieldError> ValidateNodeAffinityArgs(const std::string& path, const NodeAffinityArgs& args) {
  std::vector<FieldError> errs;
  if (!args.added_affinity) return errs;
  const NodeAffinity& a = *args.added_affinity;
  const std::string added = NodeAffinityChild(path, "addedAffinity");
  if (a.has_required) {
    const std::string terms = added + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    for (size_t i = 0; i < a.required.size(); ++i)
      NodeSelectorTermErrors(a.required[i], terms + "[" + std::to_string(i) + "]", errs);
  }
  const std::string pref = added + ".preferredDuringSchedulingIgnoredDuringExecution";
  for (size_t i = 0; i < a.preferred.size(); ++i) {
    // NewPreferredSchedulingTerms skips a term of weight 0 unparsed.
    if (a.preferred[i].weight == 0) continue;
    NodeSelectorTermErrors(a.preferred[i].preference, pref + "[" + std::to_string(i) + "]", errs);
  }
  return errs;
}

void DecodeNodeAffinityArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                            SchedulerProfile& profile) {
  r.WarnUnknown(args, path, {"apiVersion", "kind", "addedAffinity"});
  auto a = std::make_shared<NodeAffinityArgs>();
  const std::string ap = path + ".addedAffinity";
  const ArgsReader::Node added = r.Map(args, "addedAffinity", ap);
  NodeAffinityArgsLines lines;
  if (added.defined()) {
    r.WarnUnknown(added, ap,
                  {"requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution"});
    NodeAffinity affinity;
    const std::string rp = ap + ".requiredDuringSchedulingIgnoredDuringExecution";
    const ArgsReader::Node required = r.Map(added, "requiredDuringSchedulingIgnoredDuringExecution", rp);
    if (required.defined()) {
      r.WarnUnknown(required, rp, {"nodeSelectorTerms"});
      affinity.has_required = true;
      const std::string tp = rp + ".nodeSelectorTerms";
      const ArgsReader::Node terms = r.Seq(required, "nodeSelectorTerms", tp);
      for (size_t i = 0; terms.defined() && i < r.Size(terms); ++i) {
        const std::string p = tp + "[" + std::to_string(i) + "]";
        const ArgsReader::Node item = r.Item(terms, i, p);
        if (item.defined()) affinity.required.push_back(DecodeNodeAffinityTerm(r, item, p, lines));
      }
    }
    const std::string pp = ap + ".preferredDuringSchedulingIgnoredDuringExecution";
    const ArgsReader::Node preferred = r.Seq(added, "preferredDuringSchedulingIgnoredDuringExecution", pp);
    for (size_t i = 0; preferred.defined() && i < r.Size(preferred); ++i) {
      const std::string p = pp + "[" + std::to_string(i) + "]";
      const ArgsReader::Node item = r.Item(preferred, i, p);
      if (!item.defined()) continue;
      r.WarnUnknown(item, p, {"weight", "preference"});
      lines.at.emplace_back(p, item);
      PreferredSchedulingTerm t;
      t.weight = r.Int32(item, "weight", p + ".weight").value_or(0);
      // The error paths of a preferred term have no ".preference"
      // (NewPreferredSchedulingTerms indexes the list): its requirements
      // are found by the term's own path.
      const ArgsReader::Node preference = r.Map(item, "preference", p + ".preference");
      if (preference.defined()) {
        NodeAffinityArgsLines inner;
        t.preference = DecodeNodeAffinityTerm(r, preference, p + ".preference", inner);
        for (auto& [prefix, node] : inner.at)
          lines.at.emplace_back(p + prefix.substr(p.size() + std::string(".preference").size()), node);
      }
      affinity.preferred.push_back(std::move(t));
    }
    a->added_affinity = std::move(affinity);
  }
  for (const FieldError& e : ValidateNodeAffinityArgs(path, *a)) {
    const std::string text = e.ToString();
    r.Error(e.field, lines.For(e.field, added), text.substr(e.field.size() + 2));
  }
  profile.plugin_args[names::kNodeAffinity] = std::move(a);
}

}  // namespace gpusched

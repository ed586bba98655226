#include "gpusched/cli/pod_lookup.h"

#include "gpusched/util/did_you_mean.h"

namespace gpusched {
namespace {

struct Wanted {
  std::string name;
  std::string ns;  // "" = any
};

// Pods named `want` (in its namespace when it has one).
std::vector<size_t> MatchPods(const Wanted& want, const std::vector<const Pod*>& pods) {
  std::vector<size_t> out;
  for (size_t i = 0; i < pods.size(); ++i)
    if (pods[i]->name() == want.name && (want.ns.empty() || pods[i]->ns() == want.ns)) out.push_back(i);
  return out;
}

// A rejected object whose name is `want` ("Kind/namespace/name").
const InputError* MatchRejected(const Wanted& want, const std::vector<InputError>& rejected) {
  const std::string tail = want.ns.empty() ? "/" + want.name : "/" + want.ns + "/" + want.name;
  for (const auto& e : rejected)
    if (e.object.size() > tail.size() && e.object.ends_with(tail)) return &e;
  return nullptr;
}

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

// " (did you mean training-job-a or training-job-c?)": the names of the
// pods (in `want`'s namespace when it names one) near `want`'s, spelled as
// the query was ("namespace/name" when it was so written).
std::string NearPods(const Wanted& want, bool with_namespace, const std::vector<const Pod*>& pods) {
  std::vector<std::string> names;
  for (const Pod* p : pods)
    if (want.ns.empty() || p->ns() == want.ns) names.push_back(p->name());
  std::vector<std::string> near = NearNames(want.name, names);
  if (with_namespace)
    for (std::string& n : near) n = want.ns + "/" + n;
  const std::string phrase = DidYouMean(near);
  return phrase.empty() ? "" : " (" + phrase + ")";
}

}  // namespace

ExplainTarget FindExplainTarget(const PodQuery& query, const std::vector<const Pod*>& pods,
                                const std::vector<InputError>& rejected) {
  ExplainTarget t;
  Wanted want{query.name, query.namespace_};
  if (size_t slash = query.name.find('/'); slash != std::string::npos) {
    want = {query.name.substr(slash + 1), query.name.substr(0, slash)};
    if (want.ns.empty() || want.name.empty() || want.name.find('/') != std::string::npos) {
      t.kind = ExplainTarget::Kind::kInvalid;
      t.error = "error: " + Quoted(query.name) + " is not a pod name or namespace/name";
      return t;
    }
    if (!query.namespace_.empty() && query.namespace_ != want.ns) {
      t.kind = ExplainTarget::Kind::kInvalid;
      t.error = "error: " + Quoted(query.name) + " names namespace " + Quoted(want.ns) + " but -n gives " +
                Quoted(query.namespace_);
      return t;
    }
  }
  t.pods = MatchPods(want, pods);
  if (t.pods.size() == 1) {
    t.kind = ExplainTarget::Kind::kPod;
    return t;
  }
  if (t.pods.size() > 1) {
    // Only a name without a namespace matches twice: names are unique in one.
    t.kind = ExplainTarget::Kind::kAmbiguous;
    for (size_t i : t.pods) t.candidates.push_back(pods[i]->ns() + "/" + pods[i]->name());
    std::string list;
    for (size_t i = 0; i < t.candidates.size(); ++i) list += (i ? ", " : "") + t.candidates[i];
    t.error = "error: pod " + Quoted(want.name) + " is in " + std::to_string(t.candidates.size()) +
              " namespaces: " + list + "; name one with -n NAMESPACE or as NAMESPACE/" + want.name;
    t.pods.clear();
    return t;
  }
  if (const InputError* e = MatchRejected(want, rejected)) {
    t.kind = ExplainTarget::Kind::kRejected;
    t.rejected = e;
    return t;
  }
  t.kind = ExplainTarget::Kind::kNotFound;
  t.error = "error: pod " + Quoted(want.ns.empty() ? want.name : want.ns + "/" + want.name) + " is not in the input";
  if (!want.ns.empty()) {
    // Say where the name is, when it is elsewhere.
    std::vector<size_t> elsewhere = MatchPods(Wanted{want.name, ""}, pods);
    if (!elsewhere.empty()) {
      std::string list;
      for (size_t i = 0; i < elsewhere.size(); ++i)
        list += (i ? ", " : "") + pods[elsewhere[i]]->ns() + "/" + pods[elsewhere[i]]->name();
      t.error += " (pods of that name: " + list + ")";
      return t;
    }
  }
  // A name one or two letters off, or the start of real ones.
  t.error += NearPods(want, query.name.find('/') != std::string::npos, pods);
  return t;
}

}  // namespace gpusched

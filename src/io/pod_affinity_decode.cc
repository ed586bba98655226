#include "pod_affinity_decode.h"

#include <algorithm>
#include <climits>

#include "controller_decode.h"

namespace gpusched {
namespace {

PodAffinityTerm DecodeAffinityTerm(DecodeContext& ctx, const DocNode& t, const std::string& path) {
  PodAffinityTerm term;
  term.label_selector = DecodeLabelSelector(ctx, t, "labelSelector", path + ".labelSelector");
  term.namespaces = ctx.Strings(t, "namespaces", path + ".namespaces");
  term.topology_key = ctx.Str(t, "topologyKey", path + ".topologyKey");
  term.namespace_selector = DecodeLabelSelector(ctx, t, "namespaceSelector", path + ".namespaceSelector");
  term.match_label_keys = ctx.Strings(t, "matchLabelKeys", path + ".matchLabelKeys");
  term.mismatch_label_keys = ctx.Strings(t, "mismatchLabelKeys", path + ".mismatchLabelKeys");
  return term;
}

std::optional<PodAffinityRules> DecodeRules(DecodeContext& ctx, const DocNode& affinity, const char* key,
                                            const std::string& path) {
  const DocNode a = ctx.Map(affinity, key, path);
  if (!a.IsDefined()) return std::nullopt;
  PodAffinityRules r;
  for (const auto& [t, p] : ctx.Objects(a, "requiredDuringSchedulingIgnoredDuringExecution",
                                        path + ".requiredDuringSchedulingIgnoredDuringExecution"))
    r.required.push_back(DecodeAffinityTerm(ctx, t, p));
  for (const auto& [w, p] : ctx.Objects(a, "preferredDuringSchedulingIgnoredDuringExecution",
                                        path + ".preferredDuringSchedulingIgnoredDuringExecution")) {
    WeightedPodAffinityTerm wt;
    auto weight = ctx.Int(w, "weight", p + ".weight");
    wt.weight = weight ? static_cast<int32_t>(std::clamp<int64_t>(*weight, INT32_MIN, INT32_MAX)) : 0;
    const DocNode term = ctx.Map(w, "podAffinityTerm", p + ".podAffinityTerm");
    if (term.IsDefined()) wt.term = DecodeAffinityTerm(ctx, term, p + ".podAffinityTerm");
    r.preferred.push_back(std::move(wt));
  }
  return r;
}

}  // namespace

std::shared_ptr<const PodAffinitySpec> DecodePodAffinitySpec(DecodeContext& ctx, const DocNode& affinity,
                                                             const std::string& path) {
  PodAffinitySpec s;
  s.affinity = DecodeRules(ctx, affinity, "podAffinity", path + ".podAffinity");
  s.anti_affinity = DecodeRules(ctx, affinity, "podAntiAffinity", path + ".podAntiAffinity");
  if (!s.affinity && !s.anti_affinity) return nullptr;
  return std::make_shared<const PodAffinitySpec>(std::move(s));
}

}  // namespace gpusched

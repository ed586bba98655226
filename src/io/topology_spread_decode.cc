#include "topology_spread_decode.h"

#include <limits>

#include "controller_decode.h"

namespace gpusched {

std::vector<TopologySpreadConstraint> DecodeTopologySpreadConstraints(DecodeContext& ctx, const DocNode& spec,
                                                                      const std::string& path) {
  std::vector<TopologySpreadConstraint> out;
  for (const auto& [item, p] : ctx.Objects(spec, "topologySpreadConstraints", path)) {
    TopologySpreadConstraint c;
    auto int32_at = [&](const char* key) -> std::optional<int32_t> {
      std::optional<int64_t> v = ctx.Int(item, key, p + "." + key);
      if (!v) return std::nullopt;
      if (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) {
        ctx.Error(p + "." + key, item[key], "value out of range for int32");
        return std::nullopt;
      }
      return static_cast<int32_t>(*v);
    };
    c.max_skew = int32_at("maxSkew").value_or(0);
    c.min_domains = int32_at("minDomains");
    c.topology_key = ctx.Str(item, "topologyKey", p + ".topologyKey");
    c.when_unsatisfiable = ctx.Str(item, "whenUnsatisfiable", p + ".whenUnsatisfiable");
    c.node_affinity_policy = ctx.Str(item, "nodeAffinityPolicy", p + ".nodeAffinityPolicy");
    c.node_taints_policy = ctx.Str(item, "nodeTaintsPolicy", p + ".nodeTaintsPolicy");
    c.match_label_keys = ctx.Strings(item, "matchLabelKeys", p + ".matchLabelKeys");
    c.label_selector = DecodeLabelSelector(ctx, item, "labelSelector", p + ".labelSelector");
    if (!c.label_selector) ctx.Warn(item, p + ".labelSelector: a null labelSelector results in matching no pod");
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace gpusched

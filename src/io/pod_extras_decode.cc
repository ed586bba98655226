#include "pod_extras_decode.h"

#include "gang_pod_decode.h"
#include "image_decode.h"
#include "pod_ports_decode.h"
#include "pod_volumes_decode.h"
#include "topology_spread_decode.h"

#include <memory>

namespace gpusched {
namespace {

// Each object of the list at parent[key] with its path, through `fn`;
// entries that are not objects are decode errors.
template <typename Fn>
void ForEachObject(DecodeContext& ctx, const DocNode& parent, const char* key, const std::string& path, Fn fn) {
  const DocNode list = ctx.Seq(parent, key, path);
  if (!list.IsDefined()) return;
  for (size_t i = 0; i < list.size(); ++i) {
    const DocNode item = list[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ctx.Record(p, item);
    if (!item.IsMap()) {
      ctx.Error(p, item, std::string("expected an object, got ") + YamlKind(item));
      continue;
    }
    fn(item, p);
  }
}

}  // namespace

std::vector<std::string> DecodeSchedulingGates(DecodeContext& ctx, const DocNode& spec, const std::string& path) {
  std::vector<std::string> gates;
  ForEachObject(ctx, spec, "schedulingGates", path,
                [&](const DocNode& g, const std::string& p) { gates.push_back(ctx.Str(g, "name", p + ".name")); });
  return gates;
}

std::optional<PodLevelResources> DecodePodLevelResources(DecodeContext& ctx, const DocNode& spec,
                                                         const std::string& path) {
  const DocNode res = ctx.Map(spec, "resources", path);
  if (!res.IsDefined()) return std::nullopt;
  PodLevelResources r;
  r.requests = ctx.Quantities(res, "requests", path + ".requests");
  r.limits = ctx.Quantities(res, "limits", path + ".limits");
  r.has_claims = !DecodeContainerClaims(ctx, res, path + ".claims").empty();
  return r;
}

std::vector<PodResourceClaim> DecodePodResourceClaims(DecodeContext& ctx, const DocNode& spec,
                                                      const std::string& path) {
  std::vector<PodResourceClaim> claims;
  ForEachObject(ctx, spec, "resourceClaims", path, [&](const DocNode& c, const std::string& p) {
    PodResourceClaim claim;
    claim.name = ctx.Str(c, "name", p + ".name");
    claim.resource_claim_name = ctx.Str(c, "resourceClaimName", p + ".resourceClaimName");
    claim.resource_claim_template_name = ctx.Str(c, "resourceClaimTemplateName", p + ".resourceClaimTemplateName");
    claims.push_back(std::move(claim));
  });
  return claims;
}

std::vector<ContainerClaim> DecodeContainerClaims(DecodeContext& ctx, const DocNode& resources,
                                                  const std::string& path) {
  std::vector<ContainerClaim> claims;
  ForEachObject(ctx, resources, "claims", path, [&](const DocNode& c, const std::string& p) {
    claims.push_back(ContainerClaim{ctx.Str(c, "name", p + ".name"), ctx.Str(c, "request", p + ".request")});
  });
  return claims;
}

void DecodePodSpecExtras(DecodeContext& ctx, const DocNode& spec, const std::string& path, Pod& pod) {
  PodSpecExtras extras;
  extras.scheduling_gates = DecodeSchedulingGates(ctx, spec, path + ".schedulingGates");
  extras.resources = DecodePodLevelResources(ctx, spec, path + ".resources");
  extras.resource_claims = DecodePodResourceClaims(ctx, spec, path + ".resourceClaims");
  DecodeGangPodFields(ctx, spec, path, extras);  // workloadRef, schedulingGroup, grace period
  DecodePodPorts(ctx, spec, path, extras);       // ports, hostNetwork (NodePorts)
  DecodeImageVolumes(ctx, spec, path + ".volumes", extras);  // image volumes (ImageLocality)
  extras.volumes = DecodePodVolumes(ctx, spec, path + ".volumes");
  extras.topology_spread_constraints = DecodeTopologySpreadConstraints(ctx, spec, path + ".topologySpreadConstraints");
  if (!extras.empty()) pod.extras = std::make_shared<const PodSpecExtras>(std::move(extras));
}

void DecodeResourceClaimStatuses(DecodeContext& ctx, const DocNode& status, const std::string& path, Pod& pod) {
  std::vector<std::pair<std::string, std::string>> statuses;  // (name, resourceClaimName)
  ForEachObject(ctx, status, "resourceClaimStatuses", path, [&](const DocNode& s, const std::string& p) {
    statuses.emplace_back(ctx.Str(s, "name", p + ".name"), ctx.Str(s, "resourceClaimName", p + ".resourceClaimName"));
  });
  if (statuses.empty() || !pod.HasResourceClaims()) return;
  auto extras = std::make_shared<PodSpecExtras>(*pod.extras);
  for (PodResourceClaim& c : extras->resource_claims)
    for (const auto& [name, claim] : statuses)
      if (name == c.name) {
        c.generated = claim;
        c.generated_known = true;
      }
  pod.extras = std::move(extras);
}

}  // namespace gpusched

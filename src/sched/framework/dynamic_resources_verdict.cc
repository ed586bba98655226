#include "gpusched/sched/framework/dynamic_resources_verdict.h"

#include "gpusched/sched/plugins/dynamicresources/pod_claims.h"

namespace gpusched {
namespace {

// gpusched's words for why PreEnqueue holds the pod.
std::string Why(const Pod& pod, const DraObjects& dra) {
  const std::string ns = pod.ns() + "/";
  for (const PodResourceClaim& c : pod.Extras().resource_claims) {
    if (!c.resource_claim_name.empty()) {
      auto it = dra.claims.find(ns + c.resource_claim_name);
      if (it == dra.claims.end())
        return "its resource claim \"" + c.name + "\" names ResourceClaim \"" + c.resource_claim_name +
               "\", which is not in the input";
      if (it->second.being_deleted)
        return "its resource claim \"" + c.name + "\" names ResourceClaim \"" + c.resource_claim_name +
               "\", which is being deleted";
    } else if (c.generated_known) {
      if (c.generated.empty()) continue;
      auto it = dra.claims.find(ns + c.generated);
      if (it == dra.claims.end())
        return "its resource claim \"" + c.name + "\" was given (status.resourceClaimStatuses) ResourceClaim \"" +
               c.generated + "\", which is not in the input";
      if (it->second.being_deleted)
        return "its resource claim \"" + c.name + "\" was given ResourceClaim \"" + c.generated +
               "\", which is being deleted";
      if (it->second.owner_uid != pod.meta.uid)
        return "its resource claim \"" + c.name + "\" was given ResourceClaim \"" + c.generated +
               "\", which another pod owns";
    } else if (!dra.templates.count(ns + c.resource_claim_template_name)) {
      return "its resource claim \"" + c.name + "\" comes from ResourceClaimTemplate \"" +
             c.resource_claim_template_name +
             "\", which is not in the input, so the resourceclaim controller cannot create the claim";
    }
  }
  return "one of its resource claims cannot be used";
}

}  // namespace

std::optional<DraVerdict> EvaluateDynamicResources(const PodInfo& pod, const DraObjects* dra) {
  const Pod& p = *pod.pod;
  if (!p.HasResourceClaims()) return std::nullopt;
  static const DraObjects kNone;
  const DraObjects& objects = dra ? *dra : kNone;
  PodClaims claims = ResolvePodClaims(p, objects);
  if (claims.error.empty()) return std::nullopt;
  DraVerdict v;
  v.message = std::move(claims.error);
  v.diagnosis.kind = Diagnosis::Kind::kDraClaimMissing;
  v.diagnosis.forever = true;
  v.diagnosis.text = "not attempted: " + Why(p, objects) +
                     "; kube-scheduler's DynamicResources plugin keeps the pod out of its queue until the claim "
                     "can be used (add it to the input; one listed under rejected needs fixing first)";
  return v;
}

}  // namespace gpusched

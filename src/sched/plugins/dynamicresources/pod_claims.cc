// Resolving a pod's ResourceClaims (see pod_claims.h).
#include "gpusched/sched/plugins/dynamicresources/pod_claims.h"

#include <cstdint>

namespace gpusched {

std::string GeneratedClaimName(const Pod& pod, const std::string& pod_claim) {
  // The alphabet of k8s.io/apimachinery/pkg/util/rand.String.
  static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const std::string* s : {&pod.ns(), &pod.name(), &pod_claim}) {
    for (unsigned char c : *s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
  std::string suffix;
  for (int i = 0; i < 5; ++i, h /= 27) suffix += kAlphabet[h % 27];
  // generateName "<pod>-<claim>-", each part cut as the controller cuts it
  // (pkg/controller/resourceclaim: the name is at most 63 characters with
  // the suffix).
  std::string prefix = pod.name() + "-" + pod_claim;
  if (prefix.size() > 57) prefix.resize(57);
  return prefix + "-" + suffix;
}

PodClaims ResolvePodClaims(const Pod& pod, const DraObjects& dra) {
  PodClaims out;
  const std::string ns = pod.ns();
  for (const PodResourceClaim& c : pod.Extras().resource_claims) {
    PodClaim pc;
    pc.pod_claim_name = c.name;
    std::string name;
    bool must_check_owner = false;
    if (!c.resource_claim_name.empty()) {
      name = c.resource_claim_name;
    } else if (c.generated_known) {
      // status.resourceClaimStatuses: the claim the controller made, or
      // none needed (resourceClaimName unset), which the plugin skips.
      if (c.generated.empty()) continue;
      name = c.generated;
      must_check_owner = true;
    } else {
      auto t = dra.templates.find(ns + "/" + c.resource_claim_template_name);
      if (t == dra.templates.end()) {
        out.error = "pod \"" + ns + "/" + pod.name() + "\": ResourceClaim not created yet";
        return out;
      }
      // What the resourceclaim controller creates (controller.go handleClaim).
      ResourceClaim& made = out.generated.emplace_back();
      made.meta.name = GeneratedClaimName(pod, c.name);
      made.meta.namespace_ = ns;
      made.meta.labels = t->second.claim_labels;
      made.meta.annotations = t->second.claim_annotations;
      made.meta.annotations["resource.kubernetes.io/pod-claim-name"] = c.name;
      made.api_version = t->second.api_version;
      made.owner_kind = "Pod";
      made.owner_name = pod.name();
      made.owner_uid = pod.meta.uid;
      made.spec = t->second.spec;
      pc.key = ns + "/" + made.meta.name;
      pc.claim = &made;
      pc.generated = true;
      pc.from_template = &t->second;
      out.claims.push_back(std::move(pc));
      continue;
    }
    pc.key = ns + "/" + name;
    auto it = dra.claims.find(pc.key);
    if (it == dra.claims.end()) {
      out.error = "could not find ResourceClaim \"" + pc.key + "\"";
      return out;
    }
    const ResourceClaim& claim = it->second;
    if (claim.being_deleted) {
      out.error = "resourceclaim \"" + name + "\" is being deleted";
      return out;
    }
    if (must_check_owner && !(claim.owner_kind == "Pod" && claim.owner_uid == pod.meta.uid)) {
      out.error = "ResourceClaim " + pc.key + " was not created for pod " + ns + "/" + pod.name() +
                  " (pod is not owner)";
      return out;
    }
    pc.claim = &claim;
    out.claims.push_back(std::move(pc));
  }
  return out;
}

}  // namespace gpusched

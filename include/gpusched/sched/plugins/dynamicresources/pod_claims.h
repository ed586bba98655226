// The ResourceClaims of a pod, as DynamicResources' PreFilter resolves them
// (dynamicresources.go podResourceClaims, with
// k8s.io/dynamic-resource-allocation/resourceclaim Name and IsForPod):
// a claim named directly, or the claim the resourceclaim controller made
// from a template (status.resourceClaimStatuses). A pod gpusched creates
// (a manifest, or a controller's pod: no status) gets the claim the
// controller would make from its template, owned by the pod and named
// `<pod>-<claim>-<5 characters>`, the characters drawn from the pod's and
// claim's names instead of at random so that a run is deterministic.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_POD_CLAIMS_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_POD_CLAIMS_H_

#include <deque>
#include <string>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resource_claims.h"

namespace gpusched {

struct PodClaim {
  std::string pod_claim_name;  // spec.resourceClaims[i].name
  std::string key;             // "namespace/name" of the ResourceClaim
  const ResourceClaim* claim = nullptr;
  bool generated = false;  // made here from a template (not in the input)
  // The template a generated claim was made from: claims of one template
  // have the same spec, so the allocator answers them alike on a node.
  const ResourceClaimTemplate* from_template = nullptr;
};

struct PodClaims {
  std::vector<PodClaim> claims;
  std::deque<ResourceClaim> generated;  // what `claims` points at for generated ones
  // PreFilter's status text when a claim cannot be used; "" when all resolve.
  std::string error;
};

// The name the resourceclaim controller would give the claim made from
// `pod_claim`'s template: "<pod>-<claim>-" + 5 characters of its alphabet
// (k8s.io/apimachinery/pkg/util/rand: "bcdfghjklmnpqrstvwxz2456789"),
// here a hash of the pod's namespace and name and the claim's name.
std::string GeneratedClaimName(const Pod& pod, const std::string& pod_claim);

// Resolves every entry of pod.spec.resourceClaims; entries that need no
// claim (status names none) are left out. On the first failure `error`
// holds upstream's text:
//   could not find ResourceClaim "<ns>/<name>"            (the claim is not in the input)
//   pod "<ns>/<pod>": ResourceClaim not created yet        (template claim, none generated)
//   resourceclaim "<name>" is being deleted
//   ResourceClaim <ns>/<c> was not created for pod <ns>/<p> (pod is not owner)
PodClaims ResolvePodClaims(const Pod& pod, const DraObjects& dra);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_POD_CLAIMS_H_

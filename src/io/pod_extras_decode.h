// Decoding the rarer parts of a pod spec (model/pod.h's
// PodSpecExtras and Container::claims): spec.schedulingGates, spec.resources
// (pod-level), spec.resourceClaims, containers' resources.claims and
// status.resourceClaimStatuses. Small functions over DecodeContext's typed
// accessors only, so that a new document layer can take them over as they
// are. Private to src/io.
#ifndef GPUSCHED_IO_POD_EXTRAS_DECODE_H_
#define GPUSCHED_IO_POD_EXTRAS_DECODE_H_

#include <optional>
#include <string>
#include <vector>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// spec.schedulingGates: [{name}].
std::vector<std::string> DecodeSchedulingGates(DecodeContext& ctx, const DocNode& spec, const std::string& path);

// spec.resources: {requests, limits, claims}; nullopt when absent.
std::optional<PodLevelResources> DecodePodLevelResources(DecodeContext& ctx, const DocNode& spec,
                                                         const std::string& path);

// spec.resourceClaims: [{name, resourceClaimName, resourceClaimTemplateName}].
std::vector<PodResourceClaim> DecodePodResourceClaims(DecodeContext& ctx, const DocNode& spec,
                                                      const std::string& path);

// resources.claims of one container: [{name, request}].
std::vector<ContainerClaim> DecodeContainerClaims(DecodeContext& ctx, const DocNode& resources,
                                                  const std::string& path);

// The three spec parts above, into pod.extras (left null when all are empty).
void DecodePodSpecExtras(DecodeContext& ctx, const DocNode& spec, const std::string& path, Pod& pod);

// status.resourceClaimStatuses: [{name, resourceClaimName}], recorded on the
// matching spec.resourceClaims entries (PodResourceClaim::generated).
void DecodeResourceClaimStatuses(DecodeContext& ctx, const DocNode& status, const std::string& path, Pod& pod);

}  // namespace gpusched

#endif  // GPUSCHED_IO_POD_EXTRAS_DECODE_H_

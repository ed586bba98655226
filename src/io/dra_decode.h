// Decoding resource.k8s.io objects (ResourceClaim, ResourceClaimTemplate,
// ResourceSlice, DeviceClass; API versions v1, v1beta2, v1beta1 and
// v1alpha3) into model/resource_claims.h's DraObjects: identity, the device
// classes each request names, slice sizes. Small functions over
// DecodeContext's accessors. Private to src/io.
#ifndef GPUSCHED_IO_DRA_DECODE_H_
#define GPUSCHED_IO_DRA_DECODE_H_

#include <string>
#include <string_view>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/resource_claims.h"

namespace gpusched {

// True for the four DRA kinds in the resource.k8s.io group.
bool IsDraKind(std::string_view kind, std::string_view api_version);

// The plural resource name the API server's messages use
// ("resourceclaims.resource.k8s.io").
std::string DraResourceName(std::string_view kind);

// spec.devices.requests of a claim (`devices` is the spec's "devices" map).
void DecodeDeviceRequests(DecodeContext& ctx, const DocNode& devices, const std::string& path, ClaimSpec& out);

// A ResourceClaim or ResourceClaimTemplate (by `kind`).
ClaimSpec DecodeClaimObject(DecodeContext& ctx, const DocNode& obj, std::string_view kind);

ResourceSliceInfo DecodeResourceSlice(DecodeContext& ctx, const DocNode& obj);

}  // namespace gpusched

#endif  // GPUSCHED_IO_DRA_DECODE_H_

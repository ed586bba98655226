// Decoding resource.k8s.io objects (ResourceClaim, ResourceClaimTemplate,
// ResourceSlice, DeviceClass) into model/dra/'s types. API versions v1,
// v1beta2, v1beta1 and v1alpha3 are read into v1's shape as the API
// server's conversions (pkg/apis/resource/v1beta1/conversion.go and
// v1beta2's) do: v1beta1 and v1alpha3 keep an exact request's fields on the
// request itself (they become `exactly`), and v1beta1/v1alpha3 devices
// carry attributes and capacity under `basic` (v1alpha3's capacity is a
// bare quantity). Small functions over DecodeContext's accessors. Private
// to src/io.
#ifndef GPUSCHED_IO_DRA_DECODE_H_
#define GPUSCHED_IO_DRA_DECODE_H_

#include <string>
#include <string_view>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/model/dra/resource_slice.h"

namespace gpusched {

// True for the four DRA kinds in the resource.k8s.io group.
bool IsDraKind(std::string_view kind, std::string_view api_version);

// The plural resource name the API server's messages use
// ("resourceclaims.resource.k8s.io").
std::string DraResourceName(std::string_view kind);

// A claim spec (`spec` of a ResourceClaim, `spec.spec` of a template) at `path`.
ResourceClaimSpec DecodeResourceClaimSpec(DecodeContext& ctx, const DocNode& spec, const std::string& path,
                                          std::string_view api_version);

ResourceClaim DecodeResourceClaim(DecodeContext& ctx, const DocNode& obj);
ResourceClaimTemplate DecodeResourceClaimTemplate(DecodeContext& ctx, const DocNode& obj);
ResourceSlice DecodeResourceSlice(DecodeContext& ctx, const DocNode& obj);
DeviceClass DecodeDeviceClass(DecodeContext& ctx, const DocNode& obj);

}  // namespace gpusched

#endif  // GPUSCHED_IO_DRA_DECODE_H_

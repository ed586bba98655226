// Decoding spec.affinity.podAffinity and podAntiAffinity (model/
// pod_affinity.h) and Namespace objects (their labels, for
// namespaceSelector). Private to src/io.
#ifndef GPUSCHED_IO_POD_AFFINITY_DECODE_H_
#define GPUSCHED_IO_POD_AFFINITY_DECODE_H_

#include <memory>
#include <string>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/pod_affinity.h"

namespace gpusched {

// The podAffinity and podAntiAffinity of `affinity` (spec.affinity) at
// `path` ("spec.affinity"); null when it has neither.
std::shared_ptr<const PodAffinitySpec> DecodePodAffinitySpec(DecodeContext& ctx, const DocNode& affinity,
                                                             const std::string& path);

}  // namespace gpusched

#endif  // GPUSCHED_IO_POD_AFFINITY_DECODE_H_

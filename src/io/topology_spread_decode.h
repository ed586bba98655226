// Decoding spec.topologySpreadConstraints (model/topology_spread.h). Private
// to src/io.
#ifndef GPUSCHED_IO_TOPOLOGY_SPREAD_DECODE_H_
#define GPUSCHED_IO_TOPOLOGY_SPREAD_DECODE_H_

#include <string>
#include <vector>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/topology_spread.h"

namespace gpusched {

// The list at spec.topologySpreadConstraints (`path`); a constraint
// without labelSelector gets the API server's warning (pkg/api/pod
// warnings.go: "a null labelSelector results in matching no pod").
std::vector<TopologySpreadConstraint> DecodeTopologySpreadConstraints(DecodeContext& ctx, const DocNode& spec,
                                                                      const std::string& path);

}  // namespace gpusched

#endif  // GPUSCHED_IO_TOPOLOGY_SPREAD_DECODE_H_

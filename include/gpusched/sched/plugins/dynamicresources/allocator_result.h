// A claim's AllocationResult from the devices the search picked (the end of
// Allocator.Allocate and createNodeSelector in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go):
// the results with their request names, tolerations, share ids and consumed
// capacity; the class and claim configs; the node selector.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_RESULT_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_RESULT_H_

#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/dra/resource_claim.h"
#include "gpusched/sched/plugins/dynamicresources/allocator_search.h"
#include "gpusched/util/status.h"

namespace gpusched::dra {

// createNodeSelector: a device of a node-local slice (nodeName), or one that
// binds to its node, gives matchFields metadata.name In [node]; otherwise the
// requirements of the slices' (or devices') one-term nodeSelectors, each
// once, in one term; nothing (every node) when there are none. A selector
// with more than one term: "unsupported ResourceSlice.NodeSelector with %d terms".
// `binds_to_node`: whether bindsToNode counts (the experimental variant only).
Result<std::optional<std::vector<NodeSelectorTerm>>> CreateNodeSelector(const std::vector<DeviceResult>& devices,
                                                                      const std::string& node_name,
                                                                      bool binds_to_node);

// The AllocationResult of claim `claim_index`.
Result<AllocationResult> BuildAllocationResult(const AllocationSearch& search, const DraFeatures& features,
                                               int claim_index, const ResourceClaim& claim,
                                               const std::string& node_name);

}  // namespace gpusched::dra

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_RESULT_H_

// The resource pools a node can reach (structured.GatherPools, v1.35's
// internal/experimental/pools_experimental.go): which slices a node reaches
// (nodeName, nodeSelector, allNodes, perDeviceNodeSelection; slices with
// sharedCounters always), only the newest generation of each pool, pools
// whose slices are not all published yet (incomplete) and pools whose
// devices or counters contradict each other (invalid).
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_POOLS_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_POOLS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/plugins/dynamicresources/allocator.h"

namespace gpusched::dra {

struct Pool {
  std::string driver;
  std::string pool;
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
  // The slices with devices that the node reaches, in the order they were
  // listed (slices whose devices have binding conditions last).
  std::vector<const ResourceSlice*> device_slices_targeting_node;
  // The pool's other slices of the same generation (partitionable devices):
  // their allocated devices draw from the pool's counters too.
  std::vector<const ResourceSlice*> device_slices_not_targeting_node;
  // sharedCounters by counter set name (DRAPartitionableDevices).
  std::map<std::string, const CounterSet*, std::less<>> counter_sets;

  // PoolID.String(): "<driver>/<pool>".
  std::string Id() const { return driver + "/" + pool; }
};

// NodeMatches: nodeName, then allNodes, then nodeSelector decide; none set
// matches nothing. A node selector that does not parse matches no node
// (upstream returns "failed to parse node selector" instead; API
// validation keeps such selectors out of ResourceSlices).
bool NodeMatches(const Node& node, const std::string& node_name, bool all_nodes,
                 const std::optional<std::vector<NodeSelectorTerm>>& node_selector);

// GatherPools. Upstream returns the pools in Go map order (random); here
// they are sorted by driver, then pool name (what later upstream releases
// do: "sortPoolsByID"), pools with binding conditions after the others.
std::vector<Pool> GatherPools(const std::vector<const ResourceSlice*>& slices, const Node& node,
                              const DraFeatures& features);

}  // namespace gpusched::dra

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_POOLS_H_

// GatherPools and NodeMatches, after v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/pools_experimental.go.
#include "gpusched/sched/plugins/dynamicresources/allocator_pools.h"

#include <algorithm>
#include <set>
#include <utility>

#include "gpusched/model/node_affinity.h"

namespace gpusched::dra {

namespace {

using PoolKey = std::pair<std::string, std::string>;  // driver, pool
using SlicesByPool = std::map<PoolKey, std::vector<const ResourceSlice*>>;

bool SliceHasBindingConditions(const ResourceSlice& slice) {
  return std::any_of(slice.devices.begin(), slice.devices.end(),
                     [](const Device& d) { return !d.binding_conditions.empty(); });
}

// addSlice: only the newest generation of a pool counts; a newer slice
// replaces every older one gathered so far.
void AddSlice(SlicesByPool& pools, const ResourceSlice* slice) {
  auto& slices = pools[{slice->driver, slice->pool.name}];
  if (slices.empty()) {
    slices.push_back(slice);
    return;
  }
  const int64_t current = slices.front()->pool.generation;
  if (slice->pool.generation < current) return;  // out-dated
  if (slice->pool.generation > current) slices.clear();
  slices.push_back(slice);
}

// checkSlicesInPool: every slice of the pool's generation, wherever it
// points; `obsolete` when a newer generation exists (one whose slices
// reach other nodes only).
struct PoolScan {
  bool obsolete = false;
  std::vector<const ResourceSlice*> slices;
};
PoolScan ScanPool(const std::vector<const ResourceSlice*>& all, const PoolKey& key, int64_t generation) {
  PoolScan scan;
  for (const ResourceSlice* s : all) {
    if (s->driver != key.first || s->pool.name != key.second) continue;
    if (s->pool.generation == generation) {
      scan.slices.push_back(s);
    } else if (s->pool.generation > generation) {
      return PoolScan{true, {}};
    }
  }
  return scan;
}

std::optional<std::string> DuplicateDeviceName(const std::vector<const ResourceSlice*>& slices) {
  std::set<std::string, std::less<>> names;
  for (const ResourceSlice* s : slices) {
    for (const Device& d : s->devices) {
      if (!names.insert(d.name).second) return "duplicate device name " + d.name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> BadCounterConsumption(const std::map<std::string, const CounterSet*, std::less<>>& sets,
                                                 const std::vector<const ResourceSlice*>& slices) {
  for (const ResourceSlice* s : slices) {
    for (const Device& d : s->devices) {
      for (const DeviceCounterConsumption& c : d.consumes_counters) {
        auto it = sets.find(c.counter_set);
        if (it == sets.end()) return "counter set " + c.counter_set + " not found";
        for (const auto& [name, q] : c.counters) {
          if (!it->second->counters.contains(name)) {
            return "counter " + name + " not found in counter set " + it->second->name;
          }
        }
      }
    }
  }
  return std::nullopt;
}

Pool InvalidPool(const PoolKey& key, std::string reason) {
  Pool p;
  p.driver = key.first;
  p.pool = key.second;
  p.invalid = true;
  p.invalid_reason = std::move(reason);
  return p;
}

// buildPool: `all_slices` is empty when `slices` are the whole pool.
Pool BuildPool(const PoolKey& key, const std::vector<const ResourceSlice*>& slices, const DraFeatures& features,
               const std::vector<const ResourceSlice*>& all_slices) {
  std::vector<const ResourceSlice*> device_slices;
  std::vector<const ResourceSlice*> counter_set_slices;
  for (const ResourceSlice* s : slices) {
    if (features.partitionable_devices && !s->shared_counters.empty()) {
      counter_set_slices.push_back(s);
    } else {
      device_slices.push_back(s);
    }
  }
  if (auto err = DuplicateDeviceName(device_slices)) return InvalidPool(key, *err);
  Pool pool;
  pool.driver = key.first;
  pool.pool = key.second;
  pool.device_slices_targeting_node = device_slices;
  if (!features.partitionable_devices) return pool;

  for (const ResourceSlice* s : counter_set_slices) {
    for (const CounterSet& set : s->shared_counters) {
      if (!pool.counter_sets.emplace(set.name, &set).second) {
        return InvalidPool(key, "duplicate counter set name " + set.name);
      }
    }
  }
  if (auto err = BadCounterConsumption(pool.counter_sets, slices)) return InvalidPool(key, *err);
  if (all_slices.empty() || slices.size() == all_slices.size()) return pool;

  // The pool's slices that do not reach this node: their allocated devices
  // still draw from the counters. Only their counter consumption is
  // validated, not their device names (upstream: "consistent with existing
  // behavior where we don't validate slices that we don't allocate from").
  std::set<std::string, std::less<>> reaching;
  for (const ResourceSlice* s : slices) reaching.insert(s->meta.name);
  for (const ResourceSlice* s : all_slices) {
    if (!reaching.contains(s->meta.name)) pool.device_slices_not_targeting_node.push_back(s);
  }
  if (auto err = BadCounterConsumption(pool.counter_sets, pool.device_slices_not_targeting_node)) {
    return InvalidPool(key, *err);
  }
  return pool;
}

bool PoolHasBindingConditions(const Pool& pool) {
  return std::any_of(pool.device_slices_targeting_node.begin(), pool.device_slices_targeting_node.end(),
                     [](const ResourceSlice* s) { return SliceHasBindingConditions(*s); });
}

}  // namespace

bool NodeMatches(const Node& node, const std::string& node_name, bool all_nodes,
                 const std::optional<std::vector<NodeSelectorTerm>>& node_selector) {
  if (!node_name.empty()) return node.name() == node_name;
  if (all_nodes) return true;
  if (node_selector) return MatchesAnyNodeSelectorTerm(*node_selector, node);
  return false;
}

std::vector<Pool> GatherPools(const std::vector<const ResourceSlice*>& slices, const Node& node,
                              const DraFeatures& features) {
  SlicesByPool by_pool;
  // Slices with binding conditions are added after all others, so that
  // their devices are tried last within a pool.
  std::vector<const ResourceSlice*> with_binding_conditions;
  for (const ResourceSlice* slice : slices) {
    if (!features.partitionable_devices && (slice->per_device_node_selection || !slice->shared_counters.empty())) {
      continue;
    }
    if (!slice->shared_counters.empty()) {
      // Counter sets are needed to use a pool whichever node it is for.
      AddSlice(by_pool, slice);
    } else if (!slice->node_name.empty() || slice->all_nodes || slice->node_selector) {
      if (NodeMatches(node, slice->node_name, slice->all_nodes, slice->node_selector)) {
        if (SliceHasBindingConditions(*slice)) {
          with_binding_conditions.push_back(slice);
        } else {
          AddSlice(by_pool, slice);
        }
      }
    } else if (slice->per_device_node_selection) {
      for (const Device& d : slice->devices) {
        if (!NodeMatches(node, d.node_name, d.all_nodes, d.node_selector)) continue;
        if (SliceHasBindingConditions(*slice)) {
          with_binding_conditions.push_back(slice);
        } else {
          AddSlice(by_pool, slice);
        }
        break;
      }
    }
    // Else: no node selection known (a future extension): skipped.
  }
  for (const ResourceSlice* slice : with_binding_conditions) AddSlice(by_pool, slice);

  std::vector<Pool> result;
  std::vector<Pool> result_with_binding_conditions;
  // by_pool is ordered by (driver, pool): the deterministic order noted in the header.
  for (const auto& [key, pool_slices] : by_pool) {
    const int64_t want = pool_slices.front()->pool.resource_slice_count;
    std::optional<Pool> pool;
    if (static_cast<int64_t>(pool_slices.size()) == want) {
      pool = BuildPool(key, pool_slices, features, {});
    } else {
      // Some slices may not reach this node: look at the whole pool before
      // calling it incomplete ("allocate all" must not succeed on part of it).
      PoolScan scan = ScanPool(slices, key, pool_slices.front()->pool.generation);
      if (scan.obsolete) continue;  // the driver is replacing this generation
      if (static_cast<int64_t>(scan.slices.size()) != want) {
        Pool p;
        p.driver = key.first;
        p.pool = key.second;
        p.incomplete = true;
        result.push_back(std::move(p));
        continue;
      }
      pool = BuildPool(key, pool_slices, features, scan.slices);
    }
    if (PoolHasBindingConditions(*pool)) {
      result_with_binding_conditions.push_back(std::move(*pool));
    } else {
      result.push_back(std::move(*pool));
    }
  }
  for (Pool& p : result_with_binding_conditions) result.push_back(std::move(p));
  return result;
}

}  // namespace gpusched::dra

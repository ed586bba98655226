// Allocator::Allocate, after v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/allocator.go (NewAllocator) and
// internal/experimental/allocator_experimental.go (Allocator.Allocate).
//
// Upstream picks the most stable of three implementations that supports
// the enabled features: "stable" (no optional feature), "incubating"
// (DRAAdminAccess, DRAPrioritizedList, DRAPartitionableDevices,
// DRADeviceTaints: v1.35's default gates select it) and "experimental"
// (every feature: DRAConsumableCapacity or DRADeviceBindingConditions
// select it). They share one test table, and each behaves as the
// experimental one does with its features' gates off, but for three
// things the experimental one alone does (ExperimentalVariant): the error
// for capacity requests with DRAConsumableCapacity off, distinctAttribute
// constraints, and bindsToNode in the node selector. This port is the
// experimental one, each optional behaviour behind its gate and those three
// behind the variant. "stable" (every gate off) is not ported apart: with
// every gate off this port acts as "incubating" does.
#include "gpusched/sched/plugins/dynamicresources/allocator.h"

#include "gpusched/sched/plugins/dynamicresources/allocator_pools.h"
#include "gpusched/sched/plugins/dynamicresources/allocator_result.h"
#include "gpusched/sched/plugins/dynamicresources/allocator_search.h"

namespace gpusched {

const Result<bool>* AllocatorReuse::FindMatch(const Device* device, const std::string& expression) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = matches_.find(device);
  if (it == matches_.end()) return nullptr;
  for (const auto& [e, r] : it->second)
    if (e == expression) return r.get();  // never erased: the pointer stays valid
  return nullptr;
}

void AllocatorReuse::KeepMatch(const Device* device, const std::string& expression, const Result<bool>& result) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& kept = matches_[device];
  for (const auto& [e, r] : kept)
    if (e == expression) return;
  kept.emplace_back(expression, std::make_unique<Result<bool>>(result));
}

Allocator::Allocator(DraFeatures features, const AllocatedState* allocated, DeviceClassLookup classes,
                     std::vector<const ResourceSlice*> slices, cel::SelectorCache* cache)
    : features_(features),
      allocated_(allocated),
      classes_(std::move(classes)),
      slices_(std::move(slices)),
      cache_(cache) {}

Result<std::optional<std::vector<AllocationResult>>> Allocator::Allocate(
    const Node& node, const std::vector<const ResourceClaim*>& claims) {
  static const AllocatedState kNothingAllocated;
  const AllocatedState& allocated = allocated_ ? *allocated_ : kNothingAllocated;

  std::shared_ptr<const std::vector<dra::Pool>> pools =
      pools_ ? pools_ : std::make_shared<const std::vector<dra::Pool>>(dra::GatherPools(slices_, node, features_));
  dra::AllocationSearch search(features_, allocated, cache_, node, claims, std::move(pools), reuse_);
  if (Status s = search.Prepare(classes_); !s.ok()) return s;
  search.set_step_limit(step_limit_);
  Result<bool> found = search.Run();
  allocate_one_calls_->fetch_add(search.allocate_one_calls());
  if (!found.ok()) return found.status();
  if (!*found) {
    // Invalid pools were skipped; had they not been, a solution might
    // exist. Only this node is concerned (ErrFailedAllocationOnNode).
    for (const dra::Pool& pool : search.pools()) {
      if (pool.invalid) return Status::NotFound("invalid resource pools were encountered");
    }
    return std::optional<std::vector<AllocationResult>>();
  }
  std::vector<AllocationResult> results;
  results.reserve(claims.size());
  for (size_t i = 0; i < claims.size(); ++i) {
    Result<AllocationResult> r = dra::BuildAllocationResult(search, features_, static_cast<int>(i), *claims[i],
                                                            node.name());
    if (!r.ok()) return r.status();
    results.push_back(std::move(*r));
  }
  return std::optional<std::vector<AllocationResult>>(std::move(results));
}

}  // namespace gpusched

// GpuPacking, ported from the FGD simulator's pkg/simulator/plugin/
// gpu_packing_score.go (Score, getPackingScore), with
// NodeResource.SortedMilliGpuLeftIndexList(true) (a stable ascending sort of
// device indices by free milli, pkg/type/resource.go). Upstream's comment:
//   case-1. use shared GPUs: 100 - freeGPUMemRatioOnUsedGpu/10, capped to [50, 100]
//   case-2. use free GPUs on a used node: 50 - fullyFreeGpuNumToUse, capped to [33, 50]
//   case-3. use free GPUs on a free node: 33 - freeGpuNum, capped below by freeGpuNum
#include <algorithm>

#include "gpusched/sched/policies/paper_policies.h"
#include "gpusched/sched/api/score_plugin.h"

namespace gpusched {
namespace {

int64_t PackingScore(const std::vector<int32_t>& free, const PodShape& shape, std::vector<int32_t>& order) {
  // GetGpuMilliFromPodAnnotation <= 0: a CPU-only pod.
  if (shape.milli_gpu <= 0) return 0;
  const int64_t n = static_cast<int64_t>(free.size());
  int64_t fully_free = 0;
  for (int32_t f : free) fully_free += f == kGpuMilli;
  if (fully_free == n) return std::max(kMaxNodeScore / 3 - fully_free, fully_free);  // case-3
  order.resize(free.size());
  for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int32_t>(d);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return free[static_cast<size_t>(a)] < free[static_cast<size_t>(b)];
  });
  int64_t need = shape.gpu_count;
  int64_t fully_free_used = 0;
  int64_t free_ratio_on_used = 0;
  for (int32_t d : order) {
    if (need == 0) break;
    const int32_t f = free[static_cast<size_t>(d)];
    if (shape.milli_gpu <= f) {
      --need;
      if (f == kGpuMilli) ++fully_free_used;
      free_ratio_on_used += static_cast<int64_t>(f) * 100 / kGpuMilli;
    }
  }
  // Does not fit: upstream errors out (the filter keeps such nodes away).
  if (need != 0) return 0;
  if (fully_free_used > 0) return std::max(kMaxNodeScore / 2 - fully_free_used, kMaxNodeScore / 3);  // case-2
  return std::max(kMaxNodeScore - free_ratio_on_used / 10, kMaxNodeScore / 2);  // case-1
}

}  // namespace

// What a score means, for explain's `why`.
constexpr const char* kGpuPackingMeaning =
    "max(100 - sum(free_i*100/1000)/10, 50) on partly used devices, max(50 - fully free devices used, 33) "
    "on a used node, max(33 - n, n) on a node whose n devices are all free; 0 for CPU-only pods";

GpuPackingPolicy::GpuPackingPolicy()
    : PaperScorePolicy({"gpu-packing", "GpuPackingScore", kGpuPackingMeaning}) {}

void GpuPackingPolicy::Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                             std::vector<int64_t>& scores, PolicyState&) const {
  PodShape shape;
  if (pod.gpu.any()) {
    shape.milli_gpu = pod.gpu.milli;
    shape.gpu_count = pod.gpu.count;
  }
  std::vector<int32_t> order;  // scratch: device indices by free milli
  for (size_t k = 0; k < feasible.size(); ++k)
    scores[k] = PackingScore(cluster.state(feasible[k]).gpu_free_milli, shape, order);
}

}  // namespace gpusched

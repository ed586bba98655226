// DotProd ("Tetris"), ported from the FGD simulator's pkg/simulator/plugin/
// dot_product_score.go (calculateDotProductScore) with dimext "merge" and
// norm "max" as the paper runs it (generate_run_scripts.py), through
// utils.GenerateSchedulingMatchGroups, NormalizeVector and
// CalculateVectorDotProduct (pkg/utils/utils.go). With merge there is one
// match group; its GPU id is empty, so the share's device is gpusel "best".
#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {
namespace {

int64_t DotProductScore(const NodeState& st, const PodShape& shape) {
  const int64_t cpu_left = CpuLeftMilli(st);
  // ToVirtualNodeResourceList: no match group when the CPU does not fit,
  // and no group means MinNodeScore.
  if (cpu_left < shape.milli_cpu) return 0;
  // NormalizeVector divides each dimension by MaxSpec (cpu, gpu).
  const double node_cpu = static_cast<double>(cpu_left) / static_cast<double>(kMaxSpecCpu);
  const double node_gpu = static_cast<double>(st.GpuFreeMilli()) / static_cast<double>(kMaxSpecGpu);
  const double pod_cpu = static_cast<double>(shape.milli_cpu) / static_cast<double>(kMaxSpecCpu);
  const double pod_gpu =
      static_cast<double>(static_cast<int64_t>(shape.milli_gpu) * shape.gpu_count) / static_cast<double>(kMaxSpecGpu);
  double dot = 0;
  dot += node_cpu * pod_cpu;
  dot += node_gpu * pod_gpu;
  double cur = dot / 2;  // norm max: divided by the vector length
  cur = 1 - cur;         // the larger the dot product, the lower the score
  double score = -1;
  if (score < cur) score = cur;
  if (score == -1) return 0;
  return static_cast<int64_t>(100.0 * score);
}

}  // namespace

// What a score means, for explain's `why`.
constexpr const char* kDotProductMeaning =
    "int(100*(1 - (cpuLeft/128000*cpu/128000 + gpuLeft/8000*gpu/8000)/2)), 0 when the cpu left is too small "
    "(prefers the smallest dot product of free and requested)";

DotProductPolicy::DotProductPolicy()
    : PaperScorePolicy({"dot-product", "DotProductScore", kDotProductMeaning}) {}

void DotProductPolicy::Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                             std::vector<int64_t>& scores, PolicyState&) const {
  const PodShape shape = ShapeOf(pod);
  for (size_t k = 0; k < feasible.size(); ++k) scores[k] = DotProductScore(cluster.state(feasible[k]), shape);
}

}  // namespace gpusched

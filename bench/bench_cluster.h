// Synthetic clusters and pod streams for the benchmarks: a realistic GPU
// fleet (half 8-GPU, half 4-GPU nodes) and pods of 1/2/4/8 whole GPUs,
// GPU shares and CPU-only pods, drawn from the seeded Rng.
#ifndef GPUSCHED_BENCH_BENCH_CLUSTER_H_
#define GPUSCHED_BENCH_BENCH_CLUSTER_H_

#include <string>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/quantity.h"
#include "gpusched/util/random.h"

namespace gpusched::bench {

inline Node MakeNode(size_t i, int64_t gpus) {
  Node n;
  n.meta.name = "node-" + std::to_string(i);
  n.has_allocatable = true;
  n.allocatable["cpu"] = Quantity::FromMilli(gpus == 8 ? 96000 : 64000);
  n.allocatable["memory"] = Quantity::FromInt((gpus == 8 ? 768LL : 512LL) << 30, Quantity::Format::kBinarySI);
  n.allocatable["pods"] = Quantity::FromInt(110);
  n.allocatable["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  n.meta.labels["alibabacloud.com/gpu-card-model"] = gpus == 8 ? "A100" : "T4";
  return n;
}

inline std::vector<Node> MakeCluster(size_t n) {
  std::vector<Node> nodes;
  nodes.reserve(n);
  for (size_t i = 0; i < n; ++i) nodes.push_back(MakeNode(i, i % 2 == 0 ? 8 : 4));
  return nodes;
}

// 10% CPU-only, 20% shares of 100..900 milli-GPU, 45% 1 GPU, 12% 2, 8% 4, 5% 8.
inline Pod MakePod(size_t i, Rng& rng) {
  Pod p;
  p.meta.name = "pod-" + std::to_string(i);
  p.meta.namespace_ = "default";
  Container c;
  c.name = "main";
  const uint64_t r = rng.Uniform(100);
  int64_t gpus = 0;
  if (r >= 10 && r < 30) {
    p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(100 * (1 + rng.Uniform(9)));
    p.meta.annotations["alibabacloud.com/gpu-count"] = "1";
  } else if (r >= 30) {
    gpus = r < 75 ? 1 : r < 87 ? 2 : r < 95 ? 4 : 8;
  }
  c.limits["cpu"] = Quantity::FromMilli(gpus ? 4000 * gpus : 2000);
  c.limits["memory"] = Quantity::FromInt((gpus ? 32LL * gpus : 8LL) << 30, Quantity::Format::kBinarySI);
  if (gpus) c.limits["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  c.requests = c.limits;
  p.containers.push_back(std::move(c));
  return p;
}

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_BENCH_CLUSTER_H_

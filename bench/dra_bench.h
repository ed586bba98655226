// DRA scheduling throughput (gpusched_bench --only dra): N nodes with 8
// GPUs each published as a ResourceSlice of the NVIDIA driver's shape (the
// driver's gpu.nvidia.com class with its CEL selector), pods with one claim
// from a template for 1 or 2 GPUs (2 on one PCIe root, matchAttribute),
// scheduled one by one by kube-default (the default profile with
// DynamicResources) until 90% of the GPUs are taken. The baseline, in the
// same run on the same nodes: the same pods asking nvidia.com/gpu of the
// device plugin. Upstream's yardstick: scheduler_perf's
// SchedulingWithResourceClaimTemplate/5000pods_500nodes_QueueingHintsEnabled
// threshold of 56 pods/s (test/integration/scheduler_perf/dra/performance-config.yaml).
#ifndef GPUSCHED_BENCH_DRA_BENCH_H_
#define GPUSCHED_BENCH_DRA_BENCH_H_

#include <cstddef>
#include <vector>

namespace gpusched::bench {

void DraThroughput(const std::vector<size_t>& sizes, double budget_seconds);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_DRA_BENCH_H_

// DRA scheduling throughput (gpusched_bench --only dra): N nodes with 8
// GPUs each published as a ResourceSlice of the NVIDIA driver's shape (the
// driver's gpu.nvidia.com class with its CEL selector; in the "mig" layout
// 2 of the 8 GPUs in MIG mode, 7 1g.10gb devices each, and the driver's
// mig.nvidia.com class), pods with one claim from a template for 1 or 2
// GPUs (2 on one PCIe root, matchAttribute) or one MIG device, scheduled one
// by one by kube-default (the default profile with DynamicResources) until
// 90% of the whole GPUs are taken. The baseline, in the same run on the same
// nodes: the same pods asking nvidia.com/gpu (and nvidia.com/mig-1g.10gb)
// of the device plugin. Then a simulation (sim/simulator.h) of `sim_pods`
// pods arriving and finishing over simulated time, through claims and
// through the device plugin, and the ratio of their run times. Upstream's yardstick: scheduler_perf's
// SchedulingWithResourceClaimTemplate/5000pods_500nodes_QueueingHintsEnabled
// threshold of 56 pods/s (test/integration/scheduler_perf/dra/performance-config.yaml).
#ifndef GPUSCHED_BENCH_DRA_BENCH_H_
#define GPUSCHED_BENCH_DRA_BENCH_H_

#include <cstddef>
#include <vector>

namespace gpusched::bench {

void DraThroughput(const std::vector<size_t>& sizes, double budget_seconds, size_t sim_pods);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_DRA_BENCH_H_

// A generated cluster as a manifest file, the size a user brings: half 8-GPU,
// half 4-GPU nodes and pods of 1/2/4/8 GPUs, GPU shares and CPU-only pods
// (the benchmark's mix, bench/bench_cluster.h), one YAML document each.
#ifndef GPUSCHED_TESTS_CLI_GENERATED_CLUSTER_H_
#define GPUSCHED_TESTS_CLI_GENERATED_CLUSTER_H_

#include <fstream>
#include <string>

#include "gpusched/util/random.h"

namespace gpusched::testing {

inline void WriteGeneratedCluster(const std::string& path, size_t nodes, size_t pods, uint64_t seed = 1) {
  std::ofstream f(path);
  for (size_t i = 0; i < nodes; ++i) {
    const bool big = i % 2 == 0;
    f << "---\n{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node-" << i
      << "\"}, \"status\": {\"allocatable\": {\"cpu\": \"" << (big ? 96 : 64) << "\", \"memory\": \""
      << (big ? 768 : 512) << "Gi\", \"pods\": \"110\", \"nvidia.com/gpu\": \"" << (big ? 8 : 4) << "\"}}}\n";
  }
  Rng rng(seed);
  for (size_t i = 0; i < pods; ++i) {
    const uint64_t r = rng.Uniform(100);
    int gpus = 0;
    std::string annotations;
    if (r >= 10 && r < 30) {
      annotations = ", \"annotations\": {\"alibabacloud.com/gpu-milli\": \"" + std::to_string(100 * (1 + rng.Uniform(9))) +
                    "\"}";
    } else if (r >= 30) {
      gpus = r < 75 ? 1 : r < 87 ? 2 : r < 95 ? 4 : 8;
    }
    f << "---\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"pod-" << i << "\"" << annotations
      << "}, \"spec\": {\"containers\": [{\"name\": \"main\", \"image\": \"x\", \"resources\": {\"limits\": {\"cpu\": \""
      << (gpus ? 4 * gpus : 2) << "\", \"memory\": \"" << (gpus ? 32 * gpus : 8) << "Gi\""
      << (gpus ? ", \"nvidia.com/gpu\": \"" + std::to_string(gpus) + "\"" : "") << "}}}]}}\n";
  }
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_CLI_GENERATED_CLUSTER_H_

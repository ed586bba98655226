#include "cli_bench.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpusched/util/random.h"

#ifndef GPUSCHED_BINARY
#define GPUSCHED_BINARY "build/gpusched"
#endif

namespace gpusched::bench {
namespace {

// The mix of bench_cluster.h as manifests: half 8-GPU, half 4-GPU nodes;
// pods of 1/2/4/8 GPUs, GPU shares and CPU-only pods; one YAML document each.
void WriteManifests(const std::string& path, size_t nodes, size_t pods) {
  std::ofstream f(path);
  for (size_t i = 0; i < nodes; ++i) {
    const bool big = i % 2 == 0;
    f << "---\n{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node-" << i
      << "\"}, \"status\": {\"allocatable\": {\"cpu\": \"" << (big ? 96 : 64) << "\", \"memory\": \""
      << (big ? 768 : 512) << "Gi\", \"pods\": \"110\", \"nvidia.com/gpu\": \"" << (big ? 8 : 4) << "\"}}}\n";
  }
  Rng rng(1);
  for (size_t i = 0; i < pods; ++i) {
    const uint64_t r = rng.Uniform(100);
    int gpus = 0;
    std::string annotations;
    if (r >= 10 && r < 30) {
      annotations = ", \"annotations\": {\"alibabacloud.com/gpu-milli\": \"" +
                    std::to_string(100 * (1 + rng.Uniform(9))) + "\"}";
    } else if (r >= 30) {
      gpus = r < 75 ? 1 : r < 87 ? 2 : r < 95 ? 4 : 8;
    }
    f << "---\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"pod-" << i << "\""
      << annotations << "}, \"spec\": {\"containers\": [{\"name\": \"main\", \"image\": \"x\", \"resources\": "
      << "{\"limits\": {\"cpu\": \"" << (gpus ? 4 * gpus : 2) << "\", \"memory\": \"" << (gpus ? 32 * gpus : 8)
      << "Gi\"" << (gpus ? ", \"nvidia.com/gpu\": \"" + std::to_string(gpus) + "\"" : "") << "}}}]}}\n";
  }
}

struct ChildRun {
  bool ok = false;
  double seconds = 0;
  double peak_mib = 0;
};

// Runs the binary with `args`, stdout and stderr to /dev/null.
ChildRun Run(const std::vector<std::string>& args) {
  ChildRun out;
  const auto t0 = std::chrono::steady_clock::now();
  pid_t child = fork();
  if (child == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::vector<char*> argv;
    std::string bin = GPUSCHED_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage ru {};
  if (child < 0 || wait4(child, &status, 0, &ru) != child) return out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
  out.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return out;
}

// Median time and memory of `runs` runs (each its own median).
ChildRun Median(const std::vector<std::string>& args, int runs) {
  std::vector<double> t, m;
  for (int i = 0; i < runs; ++i) {
    ChildRun r = Run(args);
    if (!r.ok) return r;
    t.push_back(r.seconds);
    m.push_back(r.peak_mib);
  }
  std::sort(t.begin(), t.end());
  std::sort(m.begin(), m.end());
  return ChildRun{true, t[t.size() / 2], m[m.size() / 2]};
}

}  // namespace

void ExplainAgainstSchedule(const std::vector<size_t>& node_counts, int runs) {
  std::printf("\n`gpusched explain POD` against `gpusched schedule` (the binary as a child process, median of %d runs;\n"
              "half 8-GPU, half 4-GPU nodes, 5 pods per node, YAML manifests; explain asks about the last pod):\n",
              runs);
  std::printf("  %7s %7s   %12s %12s   %12s %12s   %10s %10s\n", "nodes", "pods", "schedule s", "schedule MiB",
              "explain s", "explain MiB", "time x", "memory x");
  const std::string dir = std::filesystem::temp_directory_path().string() + "/gpusched-bench-cli";
  std::filesystem::create_directories(dir);
  for (size_t nodes : node_counts) {
    const size_t pods = 5 * nodes;
    const std::string path = dir + "/cluster-" + std::to_string(nodes) + ".yaml";
    WriteManifests(path, nodes, pods);
    const ChildRun s = Median({"schedule", "-f", path}, runs);
    const ChildRun e = Median({"explain", "-f", path, "pod-" + std::to_string(pods - 1)}, runs);
    if (!s.ok || !e.ok) {
      std::printf("  %7zu %7zu   the child run failed (is %s built?)\n", nodes, pods, GPUSCHED_BINARY);
      continue;
    }
    std::printf("  %7zu %7zu   %12.2f %12.0f   %12.2f %12.0f   %10.2f %10.2f\n", nodes, pods, s.seconds, s.peak_mib,
                e.seconds, e.peak_mib, e.seconds / s.seconds, e.peak_mib / s.peak_mib);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace gpusched::bench

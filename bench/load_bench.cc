#include "load_bench.h"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Pods shaped like `kubectl get pods -A -o json` items (minus managedFields
// container statuses, timestamps and resource versions): a Deployment's pod
// with labels, an owner, one GPU container with requests and limits, the two
// default tolerations, bound to a node or pending. About 980 bytes each, so
// that a million of them stay under the 1 GiB gpusched reads from one file.
void WritePod(std::FILE* f, size_t i, size_t nodes) {
  const int gpus = static_cast<int>(1u << (i % 4));  // 1, 2, 4, 8
  const bool bound = i % 3 != 0;
  char node_name[64] = "";
  if (bound) std::snprintf(node_name, sizeof node_name, "\"nodeName\":\"node-%zu\",", (i * 7919) % nodes);
  std::fprintf(f,
               "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"labels\":{\"app\":\"train-%zu\",\"pod-template-hash\":\"7d9f8c6b5\"},\"name\":\"train-%zu-7d9f8c6b5-"
               "x%05zu\",\"namespace\":\"team-%zu\",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"controller\":true,"
               "\"kind\":\"ReplicaSet\",\"name\":\"train-%zu-7d9f8c6b5\",\"uid\":\"6a0e1d3c-0000-4000-8000-%012zu\"}],"
               "\"uid\":\"9b2f6e1a-0000-4000-8000-%012zu\"},\"spec\":{\"containers\":[{"
               "\"image\":\"nvcr.io/nvidia/pytorch:24.01-py3\",\"name\":\"main\","
               "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"%d\"},\"requests\":{\"cpu\":\"%d\",\"memory\":\"%dGi\","
               "\"nvidia.com/gpu\":\"%d\"}}}],\"dnsPolicy\":\"ClusterFirst\",%s\"priority\":0,\"restartPolicy\":"
               "\"Always\",\"schedulerName\":\"default-scheduler\",\"serviceAccountName\":\"default\","
               "\"terminationGracePeriodSeconds\":30,\"tolerations\":[{\"effect\":\"NoExecute\",\"key\":"
               "\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"tolerationSeconds\":300},{\"effect\":"
               "\"NoExecute\",\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"tolerationSeconds\":"
               "300}]},\"status\":{\"phase\":\"%s\",\"qosClass\":\"Burstable\"}}",
               i / 8, i / 8, i % 100000, i % 50, i / 8, i, i, gpus, 4 * gpus, 32 * gpus, gpus,
               node_name, bound ? "Running" : "Pending");
}

void WriteNode(std::FILE* f, size_t i) {
  const int gpus = i % 2 ? 4 : 8;
  std::fprintf(f,
               "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"labels\":{\"kubernetes.io/hostname\":"
               "\"node-%zu\",\"nvidia.com/gpu.product\":\"%s\",\"nvidia.com/gpu.count\":\"%d\"},\"name\":\"node-%zu\","
               "\"uid\":\"1c2d3e4f-0000-4000-8000-%012zu\"},\"spec\":{\"taints\":[{\"effect\":\"NoSchedule\",\"key\":"
               "\"nvidia.com/gpu\",\"value\":\"present\"}]},\"status\":{\"allocatable\":{\"cpu\":\"%d\",\"memory\":"
               "\"%dGi\",\"nvidia.com/gpu\":\"%d\",\"pods\":\"110\"},\"capacity\":{\"cpu\":\"%d\",\"memory\":\"%dGi\","
               "\"nvidia.com/gpu\":\"%d\",\"pods\":\"110\"}}}",
               i, i % 2 ? "Tesla-T4" : "NVIDIA-A100-SXM4-80GB", gpus, i, i, 12 * gpus, 128 * gpus, gpus, 12 * gpus,
               128 * gpus, gpus);
}

struct ChildResult {
  bool ok = false;
  double seconds = 0;
  long long pods = 0, nodes = 0, rejected = 0;
  double heap_per_pod = 0;  // heap held after loading, per pod (the model, keys included)
  double peak_mib = 0;
  double cpu_seconds = 0;  // user + system: what a busy machine does not inflate
};

ChildResult RunChild(const std::string& path) {
  ChildResult r;
  int fd[2];
  if (pipe(fd) != 0) return r;
  pid_t child = fork();
  if (child == 0) {
    close(fd[0]);
    const size_t heap0 = mallinfo2().uordblks + mallinfo2().hblkhd;
    const auto t0 = Clock::now();
    Manifests m;
    Status st = LoadManifestPaths({path}, LoadOptions{}, m);
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    const struct mallinfo2 mi = mallinfo2();
    const double heap = static_cast<double>(mi.uordblks + mi.hblkhd - heap0);
    char buf[256];
    int len = std::snprintf(buf, sizeof buf, "%d %.3f %zu %zu %zu %.1f\n", st.ok() ? 1 : 0, secs, m.pods.size(),
                            m.nodes.size(), m.rejected.size(), m.pods.empty() ? 0.0 : heap / static_cast<double>(m.pods.size()));
    if (write(fd[1], buf, static_cast<size_t>(len)) != len) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  char buf[256] = {0};
  ssize_t got = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  int status = 0;
  struct rusage ru {};
  wait4(child, &status, 0, &ru);
  int ok = 0;
  if (got > 0 && std::sscanf(buf, "%d %lf %lld %lld %lld %lf", &ok, &r.seconds, &r.pods, &r.nodes, &r.rejected,
                             &r.heap_per_pod) == 6) {
    r.ok = ok == 1;
    r.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
    r.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                    1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  }
  return r;
}

}  // namespace

void WriteClusterList(const std::string& path, size_t nodes, size_t pods) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;
  std::fputs("{\"apiVersion\":\"v1\",\"items\":[", f);
  for (size_t i = 0; i < nodes; ++i) {
    if (i) std::fputc(',', f);
    std::fputc('\n', f);
    WriteNode(f, i);
  }
  for (size_t i = 0; i < pods; ++i) {
    std::fputs(",\n", f);
    WritePod(f, i, std::max<size_t>(nodes, 1));
  }
  std::fputs("\n],\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"}}\n", f);
  std::fclose(f);
}

void LoadBench(size_t nodes, size_t pods, int runs) {
  const std::string dir = std::filesystem::temp_directory_path().string() + "/gpusched-bench-load";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/cluster.json";
  WriteClusterList(path, nodes, pods);
  const double mib = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
  std::printf("\nloading a JSON List of %zu nodes and %zu pods (%.0f MiB), each run in a child process:\n", nodes, pods,
              mib);
  std::vector<double> secs, peaks, cpus;
  for (int run = 0; run < runs; ++run) {
    ChildResult r = RunChild(path);
    if (!r.ok) {
      std::printf("  run %d failed\n", run + 1);
      continue;
    }
    secs.push_back(r.seconds);
    peaks.push_back(r.peak_mib);
    cpus.push_back(r.cpu_seconds);
    std::printf("  run %d: %.2f s (%.2f s CPU), peak memory %.0f MiB, %.0f heap bytes per pod after loading; %lld "
                "nodes, %lld pods, %lld rejected\n",
                run + 1, r.seconds, r.cpu_seconds, r.peak_mib, r.heap_per_pod, r.nodes, r.pods, r.rejected);
  }
  if (!secs.empty()) {
    std::sort(secs.begin(), secs.end());
    std::sort(peaks.begin(), peaks.end());
    std::sort(cpus.begin(), cpus.end());
    std::printf("  median of %zu: %.2f s (%.2f s CPU), %.0f MiB peak (%.0f bytes per pod of peak, file %.0f bytes per "
                "object)\n",
                secs.size(), secs[secs.size() / 2], cpus[cpus.size() / 2], peaks[peaks.size() / 2],
                peaks[peaks.size() / 2] * (1 << 20) / static_cast<double>(std::max<size_t>(pods, 1)),
                mib * (1 << 20) / static_cast<double>(std::max<size_t>(nodes + pods, 1)));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace gpusched::bench

#include "gpusched/sim/invariants.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "gpusched/model/gpu_request.h"

namespace gpusched {

std::string CheckNodeInvariants(const ClusterState& cluster, size_t i) {
  const NodeState& s = cluster.state(i);
  const std::string name = cluster.node(i).name();
  for (size_t d = 0; d < s.gpu_free_milli.size(); ++d) {
    const int32_t f = s.gpu_free_milli[d];
    if (f < 0 || f > kGpuMilli)
      return "node " + name + " device " + std::to_string(d) + " has " + std::to_string(f) + " milli-GPU free";
  }
  if (s.gpu_allocatable != s.allocatable.Scalar(kResourceGPU) || s.gpu_requested != s.requested.Scalar(kResourceGPU))
    return "node " + name + " has cached nvidia.com/gpu " + std::to_string(s.gpu_requested) + "/" +
           std::to_string(s.gpu_allocatable) + " but " + std::to_string(s.requested.Scalar(kResourceGPU)) + "/" +
           std::to_string(s.allocatable.Scalar(kResourceGPU)) + " in its resources";
  auto over = [&](std::string_view res, int64_t req, int64_t alloc) -> std::string {
    if (req <= alloc) return "";
    return "node " + name + " has " + std::string(res) + " requested " + std::to_string(req) + " > allocatable " +
           std::to_string(alloc);
  };
  std::string e = over("pods", s.num_pods, s.allocatable.allowed_pods);
  if (e.empty()) e = over("cpu", s.requested.milli_cpu, s.allocatable.milli_cpu);
  if (e.empty()) e = over("memory", s.requested.memory, s.allocatable.memory);
  if (e.empty()) e = over("ephemeral-storage", s.requested.ephemeral_storage, s.allocatable.ephemeral_storage);
  for (const auto& [res, v] : s.requested.scalars) {
    if (!e.empty()) break;
    e = over(res, v, s.allocatable.Scalar(res));
  }
  return e;
}

void NodeUsage::Add(const Resources& r, const GpuRequest& gpu) {
  ++pods;
  milli_cpu = SatAdd(milli_cpu, r.milli_cpu);
  memory = SatAdd(memory, r.memory);
  ephemeral_storage = SatAdd(ephemeral_storage, r.ephemeral_storage);
  for (const auto& [name, v] : r.scalars)
    if (name != kResourceGPU) scalars[name] = SatAdd(scalars[name], v);
  gpu_milli = SatAdd(gpu_milli, gpu.total_milli());
}

std::string CheckNodeUsage(const ClusterState& cluster, size_t i, const NodeUsage& u) {
  const NodeState& s = cluster.state(i);
  const std::string name = cluster.node(i).name();
  auto differs = [&](std::string_view what, int64_t books, int64_t pods) -> std::string {
    if (books == pods) return "";
    return "node " + name + " books " + std::string(what) + " " + std::to_string(books) +
           " but its running pods add up to " + std::to_string(pods);
  };
  std::string e = differs("pods", s.num_pods, u.pods);
  if (e.empty()) e = differs("cpu", s.requested.milli_cpu, u.milli_cpu);
  if (e.empty()) e = differs("memory", s.requested.memory, u.memory);
  if (e.empty()) e = differs("ephemeral-storage", s.requested.ephemeral_storage, u.ephemeral_storage);
  for (const auto& [res, v] : s.requested.scalars) {
    if (!e.empty()) break;
    if (res == kResourceGPU) continue;
    auto it = u.scalars.find(res);
    e = differs(res, v, it == u.scalars.end() ? 0 : it->second);
  }
  for (const auto& [res, v] : u.scalars) {
    if (!e.empty()) break;
    e = differs(res, s.requested.Scalar(res), v);
  }
  // Devices are tracked only up to kMaxTrackedGpusPerNode; past that the
  // count alone is honoured and no device holds anything.
  if (e.empty() && s.gpu_allocatable <= kMaxTrackedGpusPerNode) {
    int64_t taken = 0;
    for (int32_t f : s.gpu_free_milli) taken += kGpuMilli - f;
    e = differs("milli-GPU taken on devices", taken, u.gpu_milli);
  }
  return e;
}

std::string CheckPodConservation(int64_t finished, int64_t running, int64_t waiting, int64_t rejected,
                                 int64_t arrived) {
  if (finished + running + waiting + rejected == arrived) return "";
  return "pods not conserved: finished " + std::to_string(finished) + " + running " + std::to_string(running) +
         " + waiting " + std::to_string(waiting) + " + rejected " + std::to_string(rejected) + " != arrived " +
         std::to_string(arrived);
}

void ReportInvariantViolation(const std::function<void(const std::string& what)>& failed, const std::string& what) {
  if (failed) {
    failed(what);
    return;
  }
  std::fprintf(stderr, "gpusched: simulator invariant violated %s\n", what.c_str());
  std::abort();
}

}  // namespace gpusched

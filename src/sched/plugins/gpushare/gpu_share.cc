// GpuShare filter: the device-level GPU check (see gpu_share.h). Mirrors the
// FGD simulator's Open-Gpu-Share Filter (pkg/simulator/plugin/open_gpu_share.go
// -> gpunodeinfo.go AllocateGpuId): nodes without GPUs, a model mismatch
// (utils.IsNodeAccessibleToPodByType), no single device with enough free
// milli for a share, fewer than k fully free devices for k whole ones; for
// KAI's gpu-memory, its predicate (a node without the gpu memory label
// cannot take it) and isValidGpuPortion (KAI pkg/scheduler/plugins/predicates,
// api/node_info/node_info.go).
#include "gpusched/sched/plugins/gpushare/gpu_share.h"

namespace gpusched {

bool GpuShare::Check(const PodInfo& pod, const Node&, const NodeState& state, FilterVerdict* why) const {
  const GpuRequest& gpu = pod.gpu;
  if (!gpu.any()) return true;
  if (!gpu.AllowsModel(state.gpu_model)) {
    if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, kReasonGpuModel);
    return false;
  }
  if (!gpu.from_annotations) return true;  // NodeResourcesFit counts nvidia.com/gpu
  if (gpu.memory_mib > 0 && state.GpuMilliFor(gpu) <= 0) {
    // KAI's predicate (GpuMemorySynced) and isValidGpuPortion.
    if (why)
      why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable,
                state.gpu_memory_mib < 0 ? kReasonGpuMemoryUnknown : kReasonGpuMemoryTooSmall);
    return false;
  }
  if (state.FitsGpus(gpu)) return true;
  if (why) {
    const char* reason = gpu.shared() ? kReasonGpuShare : "Insufficient nvidia.com/gpu";
    // A node with fewer devices than asked for can never host the pod.
    why->Fail(static_cast<int64_t>(state.gpu_free_milli.size()) < gpu.count
                  ? SchedStatus::Code::kUnschedulableAndUnresolvable
                  : SchedStatus::Code::kUnschedulable,
              reason);
  }
  return false;
}

int GpuShareNeverFits(const GpuRequest& gpu, const NodeState& state) {
  if (!gpu.any()) return 0;
  if (!gpu.AllowsModel(state.gpu_model)) return kGpuModelNeverFits;
  if (gpu.memory_mib > 0 && state.GpuMilliFor(gpu) <= 0)
    return state.gpu_memory_mib < 0 ? kGpuMemoryUnlabelled : kGpuMemoryTooSmall;
  return 0;
}

int GpuShare::NeverPasses(const PodInfo& pod, const Node&, const NodeState& state) const {
  return GpuShareNeverFits(pod.gpu, state);
}

std::string GpuShare::ExclusionPhrase(const PodInfo& pod, const ClusterState&, int reason) const {
  switch (reason) {
    case kGpuModelNeverFits:
      return "without a GPU model it allows (alibabacloud.com/gpu-card-model)";
    case kGpuMemoryUnlabelled:
      return "without the nvidia.com/gpu.memory label (GPU Feature Discovery) that KAI sizes its gpu-memory "
             "request of " + std::to_string(pod.gpu.memory_mib) +
             " MiB against (KAI: \"the gpu memory count on the node was not synced\")";
    case kGpuMemoryTooSmall:
      return "whose GPUs have less memory (nvidia.com/gpu.memory) than its gpu-memory of " +
             std::to_string(pod.gpu.memory_mib) + " MiB";
  }
  return {};
}

}  // namespace gpusched

// GpuShare filter: the device-level GPU check (see gpu_share.h). Mirrors the
// FGD simulator's Open-Gpu-Share Filter (pkg/simulator/plugin/open_gpu_share.go
// -> gpunodeinfo.go AllocateGpuId): nodes without GPUs, a model mismatch
// (utils.IsNodeAccessibleToPodByType), no single device with enough free
// milli for a share, fewer than k fully free devices for k whole ones; for
// KAI's gpu-memory, its predicate (a node without the gpu memory label
// cannot take it) and isValidGpuPortion (KAI pkg/scheduler/plugins/predicates,
// api/node_info/node_info.go).
#include "gpusched/sched/plugins/gpu_share.h"

namespace gpusched {

bool GpuShareFilter::Check(const PodInfo& pod, const Node&, const NodeState& state, FilterVerdict* why) const {
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

const char* GpuShareNeverFits(const GpuRequest& gpu, const NodeState& state) {
  if (!gpu.any()) return nullptr;
  if (!gpu.AllowsModel(state.gpu_model)) return "GpuShare";
  if (gpu.memory_mib > 0 && state.GpuMilliFor(gpu) <= 0)
    return state.gpu_memory_mib < 0 ? "GpuMemoryLabel" : "GpuMemorySize";
  return nullptr;
}

}  // namespace gpusched

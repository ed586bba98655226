// GpuShare: gpusched's device-level check of GPU requests (no kube-scheduler
// equivalent: kube-scheduler sees only the nvidia.com/gpu count), as the FGD
// simulator's Open-Gpu-Share filter and KAI-Scheduler's GPU sharing do it:
// the node's GPU model must be one the pod allows
// (alibabacloud.com/gpu-card-model), and a share (annotations) needs `count`
// devices with `milli` free each (for KAI's gpu-memory, the share it takes on
// this node: the node must carry the nvidia.com/gpu.memory label and GPUs at
// least that large). Whole nvidia.com/gpu counts are left to
// NodeResourcesFit, which sees shared devices as taken. Unresolvable when the
// node has too few devices at all.
#ifndef GPUSCHED_SCHED_PLUGINS_GPU_SHARE_H_
#define GPUSCHED_SCHED_PLUGINS_GPU_SHARE_H_

#include <string_view>

#include "gpusched/model/gpu_request.h"
#include "gpusched/sched/api/filter_plugin.h"

namespace gpusched {

// gpusched's reasons for GPU devices.
inline constexpr const char* kReasonGpuModel = "node(s) didn't have the requested GPU model";
inline constexpr const char* kReasonGpuShare = "node(s) didn't have enough free GPU share";
// KAI's gpu-memory is sized against the node's nvidia.com/gpu.memory label
// (KAI itself says "node is not a gpu node or the gpu memory count on the
// node was not synced yet"); both are unresolvable.
inline constexpr const char* kReasonGpuMemoryUnknown =
    "node(s) didn't have the nvidia.com/gpu.memory label that gpu-memory is sized against";
inline constexpr const char* kReasonGpuMemoryTooSmall = "node(s) had GPUs with less memory than the requested gpu-memory";

class GpuShareFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "GpuShare"; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true, .checks_devices = true}; }
};

// Why GpuShare can never pass `gpu` on a node whatever runs there, for the
// diagnosis: "GpuShare" (no GPU model the pod allows), "GpuMemoryLabel" (no
// nvidia.com/gpu.memory label for a KAI gpu-memory request),
// "GpuMemorySize" (GPUs smaller than it); nullptr when it may pass.
const char* GpuShareNeverFits(const GpuRequest& gpu, const NodeState& state);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_GPU_SHARE_H_

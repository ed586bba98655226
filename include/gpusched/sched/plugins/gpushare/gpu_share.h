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
#ifndef GPUSCHED_SCHED_PLUGINS_GPUSHARE_GPU_SHARE_H_
#define GPUSCHED_SCHED_PLUGINS_GPUSHARE_GPU_SHARE_H_

#include <string>
#include <string_view>

#include "gpusched/config/plugin_names.h"
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

class GpuShare : public FilterPlugin {
 public:
  std::string_view Name() const override { return names::kGpuShare; }
  bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const override;
  FilterTraits Traits() const override { return {.in_tree = true, .checks_devices = true}; }
  // As its filter asks of an added node; a deleted pod frees devices: Queue.
  bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const override {
    return Check(pod, node, state, nullptr);
  }
  bool QueueOnAssignedPodDeleted() const override { return true; }
  // A GPU model mismatch excludes a node for good; free GPU share comes and
  // goes like any resource, so only the model (and a node KAI cannot size a
  // gpu-memory request on) counts: the reasons of GpuShareNeverFits.
  int NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const override;
  std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const override;
};

// Why GpuShare can never pass `gpu` on a node whatever runs there:
// kGpuModelNeverFits (no GPU model the pod allows), kGpuMemoryUnlabelled (no
// nvidia.com/gpu.memory label for a KAI gpu-memory request),
// kGpuMemoryTooSmall (GPUs smaller than it); 0 when it may pass.
inline constexpr int kGpuModelNeverFits = 1;
inline constexpr int kGpuMemoryUnlabelled = 2;
inline constexpr int kGpuMemoryTooSmall = 3;
int GpuShareNeverFits(const GpuRequest& gpu, const NodeState& state);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_PLUGINS_GPUSHARE_GPU_SHARE_H_

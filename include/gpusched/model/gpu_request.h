// GpuRequest: what a pod asks of a node's GPU *devices*, in one shape for the
// several ways users spell it:
//   - whole GPUs, `nvidia.com/gpu: N` in resources (the NVIDIA device plugin);
//   - the Alibaba open-gpu-share / FGD simulator annotations
//     `alibabacloud.com/gpu-milli` (per GPU, 1000 = a whole device),
//     `alibabacloud.com/gpu-count` and `alibabacloud.com/gpu-card-model`
//     (allowed models, `|`-separated), as the 2023 GPU trace has them;
//   - KAI-Scheduler's `gpu-fraction` (0 < f <= 1) with
//     `gpu-fraction-num-devices`;
//   - KAI-Scheduler's `gpu-memory` (MiB of one device, with
//     `gpu-fraction-num-devices`), a share sized on each node against its
//     `nvidia.com/gpu.memory` label (model/node_gpus.h), as KAI does
//     (pkg/scheduler/api/pod_info/pod_info.go updatePodAdditionalFields,
//     node_info.go GetResourceGpuMemory / getGpuMemoryFractionalOnNode).
// A request is `count` devices, each with at least `milli` free. A device
// lent to fractions is tracked in milli-GPU (NodeState::gpu_free_milli).
#ifndef GPUSCHED_MODEL_GPU_REQUEST_H_
#define GPUSCHED_MODEL_GPU_REQUEST_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/model/validation.h"

namespace gpusched {

// Milli-GPU capacity of one device.
inline constexpr int32_t kGpuMilli = 1000;

inline constexpr std::string_view kAnnotationGpuMilli = "alibabacloud.com/gpu-milli";
inline constexpr std::string_view kAnnotationGpuCount = "alibabacloud.com/gpu-count";
inline constexpr std::string_view kAnnotationGpuCardModel = "alibabacloud.com/gpu-card-model";
inline constexpr std::string_view kAnnotationKaiGpuFraction = "gpu-fraction";
inline constexpr std::string_view kAnnotationKaiNumDevices = "gpu-fraction-num-devices";
inline constexpr std::string_view kAnnotationKaiGpuMemory = "gpu-memory";
// Node labels that name the GPU model: the FGD simulator's, then GPU Feature
// Discovery's.
inline constexpr std::string_view kLabelGpuCardModel = "alibabacloud.com/gpu-card-model";
inline constexpr std::string_view kLabelGpuProduct = "nvidia.com/gpu.product";

struct GpuRequest {
  int32_t milli = 0;  // per device, 1..1000; 0 = no GPU
  int32_t count = 0;  // devices
  // True when the request comes from annotations rather than nvidia.com/gpu:
  // the devices it occupies are then charged to the node's nvidia.com/gpu
  // as KAI-Scheduler's reservation pod does (see ClusterState::Bind).
  bool from_annotations = false;
  std::vector<std::string> models;  // allowed GPU models; empty = any
  // KAI's gpu-memory: MiB of each device, 0 when the request is not by
  // memory. The share it takes depends on the node (MilliOn); `milli` then
  // holds 1, the least any node gives, so any() and shared() hold and the
  // node indexes, which prune on `milli`, never skip a node that could fit.
  int64_t memory_mib = 0;

  bool any() const { return count > 0 && milli > 0; }
  // The share of one device this request takes on a node whose GPUs have
  // `node_gpu_memory_mib` MiB each (NodeGpuMemoryMib): `milli`, or for
  // gpu-memory ceil(memory x 1000 / node memory); 0 when the node cannot take
  // it (no or unusable label, or GPUs smaller than the memory asked for).
  int32_t MilliOn(int64_t node_gpu_memory_mib) const;
  // A fraction of one device (the trace's "GPU sharing": num_gpu == 1 && gpu_milli < 1000).
  bool shared() const { return count == 1 && milli > 0 && milli < kGpuMilli; }
  int64_t total_milli() const { return static_cast<int64_t>(milli) * count; }
  bool AllowsModel(std::string_view model) const;
  bool operator==(const GpuRequest& o) const = default;
};

// The GPU request of a pod that passed validation (ValidateGpuAnnotations):
// nvidia.com/gpu from `whole_gpus` (the pod's effective request), else the
// annotations. Models come from alibabacloud.com/gpu-card-model either way.
GpuRequest ComputeGpuRequest(const Pod& pod, int64_t whole_gpus);

// Validates the GPU annotations of a pod (after defaulting), with
// field.Error messages on metadata.annotations[...]: integer milli in
// 1..1000, a positive count, a KAI fraction in (0, 1] (KAI ignores a bad one;
// we refuse it rather than drop the request silently), a positive integer
// gpu-memory (KAI's binder rule), one spelling only, num-devices only with a
// fraction or memory (KAI's binder rule), and not combined with an
// nvidia.com/gpu request (ambiguous). `meta_path` is "metadata" for a Pod,
// "spec.template.metadata" for a template.
std::vector<FieldError> ValidateGpuAnnotations(const Pod& pod, std::string_view meta_path = "metadata");

// The GPU model a node advertises (labels above), or "".
std::string_view NodeGpuModel(const ObjectMeta& node_meta);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_GPU_REQUEST_H_

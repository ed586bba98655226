// HAMi (Project-HAMi/HAMi) as gpusched recognises it, in order to refuse it
// loudly rather than schedule HAMi's vGPUs as whole GPUs. With HAMi,
// `nvidia.com/gpu` counts vGPUs (slices of a device), sized by
// `nvidia.com/gpumem` (MiB), `nvidia.com/gpumem-percentage` and
// `nvidia.com/gpucores` (% of the SMs), and HAMi's scheduler extender
// (schedulerName hami-scheduler) places them from the devices each node
// registers in the `hami.io/node-nvidia-register` annotation
// (pkg/device/nvidia/device.go: GenerateResourceRequests, Fit,
// GetNodeDevices; pkg/scheduler/scheduler.go Filter). gpusched does not model
// that per-device state: see sched/framework/pre_enqueue.h.
#ifndef GPUSCHED_MODEL_HAMI_H_
#define GPUSCHED_MODEL_HAMI_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

inline constexpr std::string_view kHamiSchedulerName = "hami-scheduler";
inline constexpr std::string_view kHamiNodeRegisterAnnotation = "hami.io/node-nvidia-register";

// nvidia.com/gpumem, nvidia.com/gpumem-percentage, nvidia.com/gpucores,
// nvidia.com/priority: HAMi's resource names (its default ResourceMemoryName,
// ResourceMemoryPercentageName, ResourceCoreName, ResourcePriority).
bool IsHamiResource(std::string_view name);

// The HAMi resources a pod's containers request or limit, after its
// nvidia.com/gpu count: {"nvidia.com/gpu: 1", "nvidia.com/gpucores: 30",
// "nvidia.com/gpumem: 3000"} (first value per name, in container then name
// order); empty when it asks for none of HAMi's own resources.
std::vector<std::string> HamiResourcesOf(const Pod& pod);

// True when the node carries HAMi's device registry annotation: its
// nvidia.com/gpu then counts vGPUs (devices x split count), not devices.
bool IsHamiNode(const Node& node);

// The loader's note on such a node: "carries HAMi's device registry ...".
std::string HamiNodeNote(const Node& node);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_HAMI_H_

// What a node says about its GPUs in the spellings the GPU ecosystem uses,
// beyond the NVIDIA device plugin's `nvidia.com/gpu` count:
//   - Alibaba's open-gpu-share and the FGD simulator's cluster format
//     advertise `alibabacloud.com/gpu-count` devices in status.allocatable
//     (with `alibabacloud.com/gpu-milli` = count x 1000 and the
//     `alibabacloud.com/gpu-card-model` label; kubernetes-scheduler-simulator
//     pkg/type/open-gpu-share/utils/const.go, example/test-cluster/node/);
//   - GPU Feature Discovery's `nvidia.com/gpu.memory` label (MiB of one GPU),
//     which KAI-Scheduler sizes `gpu-memory` requests against
//     (KAI pkg/scheduler/api/node_info/node_info.go getNodeGpuMemory);
//   - the device plugin's MIG "mixed" strategy: `nvidia.com/mig-<profile>`
//     resources instead of (or beside) `nvidia.com/gpu`.
#ifndef GPUSCHED_MODEL_NODE_GPUS_H_
#define GPUSCHED_MODEL_NODE_GPUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/resources.h"

namespace gpusched {

inline constexpr std::string_view kResourceAlibabaGpuCount = "alibabacloud.com/gpu-count";
inline constexpr std::string_view kLabelGpuMemory = "nvidia.com/gpu.memory";
inline constexpr std::string_view kMigResourcePrefix = "nvidia.com/mig-";

// The node's allocatable as the scheduler counts it: Resources::FromList of
// EffectiveAllocatable(), except that a node advertising
// alibabacloud.com/gpu-count and no nvidia.com/gpu has that many GPU devices
// (1000 milli each) counted under nvidia.com/gpu, so that whole-GPU and
// shared requests see them; the alibabacloud.com/gpu-count entry is moved,
// not copied, so the devices are counted once.
Resources NodeAllocatableResources(const Node& node);

// KAI's MemoryOfEveryGpuOnNode from the nvidia.com/gpu.memory label: MiB
// (a value of 1 TiB or more in MiB is taken as bytes, GFD issue #26),
// floored to a multiple of 100 (0 when that leaves nothing). -1 when the
// label is absent or not an integer (KAI: "not synced"); a gpu-memory
// request can use neither kind of node.
int64_t NodeGpuMemoryMib(const ObjectMeta& node_meta);

// nvidia.com/mig-1g.10gb -> "1g.10gb"; "" when `name` is not a MIG resource.
std::string_view MigProfile(std::string_view resource);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_NODE_GPUS_H_

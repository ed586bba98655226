// What a DRA device is, for counting GPUs: a whole GPU, a MIG device, or
// something else, read from the `type` attribute NVIDIA's DRA driver
// publishes in its domain (kubernetes-sigs/dra-driver-nvidia-gpu
// deviceinfo.go: "gpu", "mig", "vfio"; written "type" or
// "gpu.nvidia.com/type"). A MIG device's share of its GPU is its memory
// slices (capacity memorySlice<i>, mig.go's CommonCapacitiesMig) out of
// the GPU's eight.
#ifndef GPUSCHED_MODEL_DRA_DEVICE_KINDS_H_
#define GPUSCHED_MODEL_DRA_DEVICE_KINDS_H_

#include <string>
#include <vector>

#include "gpusched/model/dra/resource_slice.h"

namespace gpusched {

inline constexpr const char* kNvidiaGpuDriver = "gpu.nvidia.com";
// Memory slices of an A100/H100/H200/B200 (the MIG geometry's eighths).
inline constexpr int kMigMemorySlicesPerGpu = 8;

enum class DraDeviceKind { kGpu, kMig, kOther };

DraDeviceKind KindOfDevice(const std::string& driver, const Device& device);
// The memorySlice<i> capacities of a MIG device (0 when it has none).
int MigMemorySlices(const Device& device);
// The parentUUID attribute of a MIG device ("" when absent).
std::string MigParent(const std::string& driver, const Device& device);
// The uuid attribute of a GPU device, which its MIG devices name as parentUUID ("" when absent).
std::string GpuUuid(const std::string& driver, const Device& device);

// The slices whose generation is the newest of their pool (driver, pool
// name), in input order: what each pool publishes now, the devices counted
// (older generations are what the driver is replacing).
std::vector<const ResourceSlice*> CurrentSlices(const std::vector<ResourceSlice>& slices);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_DRA_DEVICE_KINDS_H_

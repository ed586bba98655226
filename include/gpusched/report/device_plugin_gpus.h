// The summary's account of GPUs the NVIDIA device plugin advertises as
// something other than whole GPUs, read from GPU feature discovery's labels
// (model/mig_profiles.h):
//   - MIG devices: nvidia.com/mig-<profile> (mixed strategy) and, under the
//     single strategy, nvidia.com/gpu itself; each is counted as the
//     fraction of a GPU its memory slices are, as the DRA summary counts
//     MIG devices ("18 MIG devices on 2 nodes: 2.5 GPUs");
//   - time-sliced and MPS replicas (nvidia.com/gpu.replicas): the physical
//     GPUs apart from the replicas they are shared as.
#ifndef GPUSCHED_REPORT_DEVICE_PLUGIN_GPUS_H_
#define GPUSCHED_REPORT_DEVICE_PLUGIN_GPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"

namespace gpusched {

struct DevicePluginGpus {
  int64_t mig_devices = 0, mig_nodes = 0, mig_held = 0;
  // The GPU fraction of the MIG devices whose GPU model and profile are
  // known (thousandths of a GPU), and how many devices are not.
  int64_t mig_milli = 0, mig_held_milli = 0, mig_unsized = 0;
  // Under the single strategy: MIG devices counted in nvidia.com/gpu, and
  // the pods placed on them (each has one MIG device per nvidia.com/gpu).
  int64_t single_devices = 0, single_pods = 0;
  // Their profile when all are of one known profile ("1g.5gb", 125 milli), else "".
  std::string single_profile;
  int64_t single_milli = 0;
  bool single_mixed_profiles = false;
  struct Shared {
    std::string kind;  // "time-sliced" or "MPS"
    int64_t gpus = 0, nodes = 0, replicas = 0, held = 0, pods = 0;
    int64_t replicas_as_gpu = 0;  // replicas advertised as nvidia.com/gpu (not renamed)
    int64_t pods_over_one = 0;    // pods holding more than 1 replica on a node
  };
  std::vector<Shared> shared;  // time-sliced first, then MPS; only kinds present
};

DevicePluginGpus CountDevicePluginGpus(const ClusterState& cluster);

// The summary's lines for it (none when the cluster has neither), e.g.
// "MIG devices through the device plugin: 18 on 2 nodes (2.5 GPUs), 3 held (0.375 GPUs)";
// "time-slicing: 8 GPUs on 2 nodes, shared as 32 time-sliced replicas, 30 held by 30 pods".
std::vector<std::string> DevicePluginGpuLines(const DevicePluginGpus& d);

// Node i's part for the node-state lines: "1/8 MIG devices held",
// "16/16 time-sliced replicas of 4 GPUs held" ("" for a node with neither).
// *gpu_not_whole (when given): its nvidia.com/gpu count is not whole GPUs
// (single-strategy MIG devices, or replicas under that name).
std::string NodeDevicePluginState(const ClusterState& cluster, size_t i, bool* gpu_not_whole = nullptr);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_DEVICE_PLUGIN_GPUS_H_

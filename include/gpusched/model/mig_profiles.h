// What NVIDIA's GPUs can be partitioned into with MIG, and how GPU Feature
// Discovery (GFD) labels a node's GPUs when the device plugin exposes them
// as MIG devices or as shared replicas. The figures are data, not code:
//   - the MIG profiles of each GPU model, with their compute and memory
//     slices and the most instances one GPU holds: NVIDIA's MIG user guide,
//     "Supported MIG Profiles" (docs.nvidia.com/datacenter/tesla/
//     mig-user-guide/supported-mig-profiles.html);
//   - which nvidia.com/mig.config value makes which profiles: the GPU
//     operator's default-mig-parted-config (NVIDIA/gpu-operator
//     assets/state-mig-manager/0400_configmap.yaml): every profile P of a
//     model has a config "all-P" that makes the most instances of P one GPU
//     holds, and "all-balanced" makes 2 x 1g, 1 x 2g and 1 x 3g;
//   - the label spellings: GFD's nvidia.com/gpu.product (nvidia-smi's name
//     with spaces as '-', "-MIG-<profile>" appended under the single MIG
//     strategy, "-SHARED" appended when shared replicas are renamed),
//     nvidia.com/mig.strategy, nvidia.com/gpu.replicas,
//     nvidia.com/gpu.sharing-strategy (newer GFDs only; NVIDIA/k8s-device-plugin
//     internal/lm/resource.go and docs/gpu-feature-discovery/README.md).
// A label that is absent or not of GFD's form is read as GFD-absent: the
// node is then not known to be MIG-partitioned or shared, and is counted as
// before (whole GPUs); nothing here fails on a label value.
#ifndef GPUSCHED_MODEL_MIG_PROFILES_H_
#define GPUSCHED_MODEL_MIG_PROFILES_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "gpusched/model/gpu_request.h"  // kLabelGpuProduct
#include "gpusched/model/object_meta.h"

namespace gpusched {

inline constexpr std::string_view kLabelGpuCount = "nvidia.com/gpu.count";
inline constexpr std::string_view kLabelMigStrategy = "nvidia.com/mig.strategy";
inline constexpr std::string_view kLabelMigConfig = "nvidia.com/mig.config";
inline constexpr std::string_view kLabelGpuReplicas = "nvidia.com/gpu.replicas";
inline constexpr std::string_view kLabelGpuSharingStrategy = "nvidia.com/gpu.sharing-strategy";
// The device plugin's renameByDefault: shared replicas of nvidia.com/gpu
// are advertised as nvidia.com/gpu.shared.
inline constexpr std::string_view kResourceGpuShared = "nvidia.com/gpu.shared";

struct MigProfileInfo {
  std::string_view name;  // "3g.40gb"
  int compute_slices;     // of the model's 7 (A30: 4)
  int memory_slices;      // of the model's MigGpuModel::memory_slices
  int max_instances;      // on one GPU
};

struct MigGpuModel {
  std::string_view name;  // "A100 80GB"
  int memory_slices;      // 8; the A30's 4
  std::span<const MigProfileInfo> profiles;
  // The profiles all-balanced makes on one GPU (2, 1, 1 of them).
  std::string_view balanced[3];
};

// Every model, in a fixed order (the order of MigGpuModelOf's rules).
std::span<const MigGpuModel> MigGpuModels();

// GFD's nvidia.com/gpu.product split into its parts:
// "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb" -> base "NVIDIA-A100-SXM4-40GB",
// mig_profile "1g.5gb"; "Tesla-T4-SHARED" -> base "Tesla-T4", shared.
struct GpuProduct {
  std::string_view base;
  std::string_view mig_profile;  // "" when no -MIG- suffix
  bool shared = false;
};
GpuProduct ParseGpuProduct(std::string_view product);

// The MIG-capable model a product name names, or null (not MIG-capable, or
// not known to gpusched). An A100 whose name does not say 40GB or 80GB is
// told apart by `memory_mib` (GFD's nvidia.com/gpu.memory of a whole GPU;
// -1 when unknown: null then).
const MigGpuModel* MigGpuModelOf(std::string_view product_base, int64_t memory_mib = -1);

// The profile of `model` called `profile` ("3g.40gb"), or null.
const MigProfileInfo* FindMigProfile(const MigGpuModel& model, std::string_view profile);

// The default-mig-parted-config name that makes the most of `profile` on
// one GPU of `model`: "all-3g.40gb" ("" when the model has no such profile).
std::string MigConfigFor(const MigGpuModel& model, std::string_view profile);

// A profile's share of a whole GPU in thousandths (memory slices over the
// model's), as the DRA summary counts MIG devices: 3g.40gb -> 500.
int64_t MigProfileMilliGpu(const MigGpuModel& model, const MigProfileInfo& profile);

// How GFD says the device plugin exposes a node's GPUs.
struct NodeGpuSharing {
  enum class Mig { kNone, kSingle, kMixed };  // nvidia.com/mig.strategy; kNone when absent or unknown
  Mig mig = Mig::kNone;
  GpuProduct product;                // of nvidia.com/gpu.product (empty when absent)
  const MigGpuModel* model = nullptr;  // the product's MIG model, when known
  // Under the single strategy: the profile every nvidia.com/gpu device is
  // (the product's -MIG- suffix; null when the model or profile is unknown).
  const MigProfileInfo* single_profile = nullptr;
  // nvidia.com/gpu.replicas when > 1 (an integer, as GFD writes it); 0 otherwise.
  int64_t replicas = 0;
  std::string_view sharing;  // "time-slicing" or "mps" when replicas > 0
  // The resource the replicas are advertised as: nvidia.com/gpu, or
  // nvidia.com/gpu.shared when the product carries -SHARED (renamed).
  std::string_view replica_resource;
  // nvidia.com/gpu.count (physical GPUs or, under the single strategy, MIG
  // devices); -1 when absent or not a non-negative integer.
  int64_t gpu_count = -1;
};
NodeGpuSharing ReadNodeGpuSharing(const ObjectMeta& node_meta);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_MIG_PROFILES_H_

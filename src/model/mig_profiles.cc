#include "gpusched/model/mig_profiles.h"

#include <array>
#include <charconv>

namespace gpusched {
namespace {

// NVIDIA MIG user guide, "Supported MIG Profiles": on every 8-memory-slice
// model the profiles have the same shape, named by the model's memory:
//   1g.<m/8>   1/7 SMs, 1/8 memory, 7 instances  (+me: 1 instance)
//   1g.<m/4>   1/7 SMs, 2/8 memory, 4 instances
//   2g.<m/4>   2/7 SMs, 2/8 memory, 3 instances
//   3g.<m/2>   3/7 SMs, 4/8 memory, 2 instances
//   4g.<m/2>   4/7 SMs, 4/8 memory, 1 instance
//   7g.<m>     7/7 SMs, 8/8 memory, 1 instance
// The +me (media extensions) variants are left out: the device plugin
// advertises them as nvidia.com/mig-1g.10gb+me only where mig-parted made
// them, and no all-<profile> config makes them (all-1g.10gb.me is its own).
// Written out rather than generated, so that each row reads as the guide's.
constexpr MigProfileInfo kA100_40[] = {{"1g.5gb", 1, 1, 7},  {"1g.10gb", 1, 2, 4}, {"2g.10gb", 2, 2, 3},
                                       {"3g.20gb", 3, 4, 2}, {"4g.20gb", 4, 4, 1}, {"7g.40gb", 7, 8, 1}};
// A100 80GB, A800 80GB, H100 80GB (SXM5 and PCIe), H800 80GB.
constexpr MigProfileInfo k80GB[] = {{"1g.10gb", 1, 1, 7}, {"1g.20gb", 1, 2, 4}, {"2g.20gb", 2, 2, 3},
                                    {"3g.40gb", 3, 4, 2}, {"4g.40gb", 4, 4, 1}, {"7g.80gb", 7, 8, 1}};
// H100 NVL, H800 NVL (94GB).
constexpr MigProfileInfo kH100Nvl[] = {{"1g.12gb", 1, 1, 7}, {"1g.24gb", 1, 2, 4}, {"2g.24gb", 2, 2, 3},
                                       {"3g.47gb", 3, 4, 2}, {"4g.47gb", 4, 4, 1}, {"7g.94gb", 7, 8, 1}};
// H100 96GB, GH200 96GB (GH200 480GB).
constexpr MigProfileInfo k96GB[] = {{"1g.12gb", 1, 1, 7}, {"1g.24gb", 1, 2, 4}, {"2g.24gb", 2, 2, 3},
                                    {"3g.48gb", 3, 4, 2}, {"4g.48gb", 4, 4, 1}, {"7g.96gb", 7, 8, 1}};
// H200 141GB, H200 NVL.
constexpr MigProfileInfo kH200[] = {{"1g.18gb", 1, 1, 7}, {"1g.35gb", 1, 2, 4}, {"2g.35gb", 2, 2, 3},
                                    {"3g.71gb", 3, 4, 2}, {"4g.71gb", 4, 4, 1}, {"7g.141gb", 7, 8, 1}};
// GH200 144GB HBM3e.
constexpr MigProfileInfo kGh200_144[] = {{"1g.18gb", 1, 1, 7}, {"1g.36gb", 1, 2, 4}, {"2g.36gb", 2, 2, 3},
                                         {"3g.72gb", 3, 4, 2}, {"4g.72gb", 4, 4, 1}, {"7g.144gb", 7, 8, 1}};
// B200 (180GB).
constexpr MigProfileInfo kB200[] = {{"1g.23gb", 1, 1, 7}, {"1g.45gb", 1, 2, 4}, {"2g.45gb", 2, 2, 3},
                                    {"3g.90gb", 3, 4, 2}, {"4g.90gb", 4, 4, 1}, {"7g.180gb", 7, 8, 1}};
// A30 24GB: 4 compute and 4 memory slices.
constexpr MigProfileInfo kA30[] = {{"1g.6gb", 1, 1, 4}, {"2g.12gb", 2, 2, 2}, {"4g.24gb", 4, 4, 1}};

// all-balanced per model: default-mig-parted-config's device-filter blocks.
constexpr std::array kModels = {
    MigGpuModel{"A100 40GB", 8, kA100_40, {"1g.5gb", "2g.10gb", "3g.20gb"}},
    MigGpuModel{"A100 80GB", 8, k80GB, {"1g.10gb", "2g.20gb", "3g.40gb"}},
    MigGpuModel{"H100 80GB", 8, k80GB, {"1g.10gb", "2g.20gb", "3g.40gb"}},
    MigGpuModel{"H100 NVL", 8, kH100Nvl, {"1g.12gb", "2g.24gb", "3g.47gb"}},
    MigGpuModel{"H100 96GB", 8, k96GB, {"1g.12gb", "2g.24gb", "3g.48gb"}},
    MigGpuModel{"GH200 96GB", 8, k96GB, {"1g.12gb", "2g.24gb", "3g.48gb"}},
    MigGpuModel{"GH200 144GB", 8, kGh200_144, {"1g.18gb", "2g.36gb", "3g.72gb"}},
    MigGpuModel{"H200 141GB", 8, kH200, {"1g.18gb", "2g.35gb", "3g.71gb"}},
    MigGpuModel{"B200", 8, kB200, {"1g.23gb", "2g.45gb", "3g.90gb"}},
    // A30's all-balanced is 2 x 1g.6gb + 1 x 2g.12gb: no 3-slice profile.
    MigGpuModel{"A30", 4, kA30, {"1g.6gb", "2g.12gb", ""}},
};

enum ModelIndex { kA100_40Idx, kA100_80Idx, kH100Idx, kH100NvlIdx, kH100_96Idx, kGh200Idx, kGh200_144Idx,
                  kH200Idx, kB200Idx, kA30Idx };

bool Has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// A non-negative decimal integer, as GFD writes counts; -1 otherwise.
int64_t ParseCount(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0) return -1;
  return v;
}

}  // namespace

std::span<const MigGpuModel> MigGpuModels() { return kModels; }

GpuProduct ParseGpuProduct(std::string_view product) {
  GpuProduct g;
  // productLabel (k8s-device-plugin internal/lm/resource.go) joins the
  // parts with '-': model, then "MIG" and the profile for a MIG resource,
  // then "SHARED" when the resource is shared under its own name.
  constexpr std::string_view kShared = "-SHARED";
  if (product.ends_with(kShared)) {
    g.shared = true;
    product.remove_suffix(kShared.size());
  }
  constexpr std::string_view kMig = "-MIG-";
  if (const size_t at = product.rfind(kMig); at != std::string_view::npos) {
    g.mig_profile = product.substr(at + kMig.size());
    product = product.substr(0, at);
  }
  g.base = product;
  return g;
}

const MigGpuModel* MigGpuModelOf(std::string_view product_base, int64_t memory_mib) {
  // nvidia-smi's names with spaces as '-': NVIDIA-A100-SXM4-40GB,
  // NVIDIA-A100-PCIE-40GB, NVIDIA-A100-SXM4-80GB, NVIDIA-A100-80GB-PCIe,
  // NVIDIA-A30, NVIDIA-H100-80GB-HBM3, NVIDIA-H100-PCIe, NVIDIA-H100-NVL,
  // NVIDIA-H200, NVIDIA-H200-NVL, NVIDIA-GH200-480GB,
  // NVIDIA-GH200-144G-HBM3e, NVIDIA-B200. GB200's profiles (1g.23gb,
  // 2g.47gb, 3g.93gb...) differ from B200's and are not in the table: null.
  const std::string p = Upper(product_base);
  auto at = [](ModelIndex i) { return &kModels[i]; };
  if (Has(p, "GB200")) return nullptr;
  if (Has(p, "GH200")) return Has(p, "144G") ? at(kGh200_144Idx) : at(kGh200Idx);
  if (Has(p, "B200")) return at(kB200Idx);
  if (Has(p, "H200")) return at(kH200Idx);
  if (Has(p, "H100") || Has(p, "H800")) {
    if (Has(p, "NVL")) return at(kH100NvlIdx);
    if (Has(p, "96GB")) return at(kH100_96Idx);
    return at(kH100Idx);
  }
  if (Has(p, "A100") || Has(p, "A800")) {
    if (Has(p, "80GB")) return at(kA100_80Idx);
    if (Has(p, "40GB")) return at(kA100_40Idx);
    // The name does not say: a whole A100's memory does (40960 or 81920 MiB).
    if (memory_mib <= 0) return nullptr;
    return memory_mib > 60000 ? at(kA100_80Idx) : at(kA100_40Idx);
  }
  // "NVIDIA-A30", not A300/A3000 (not MIG-capable).
  if (p.ends_with("-A30") || Has(p, "-A30-")) return at(kA30Idx);
  return nullptr;
}

const MigProfileInfo* FindMigProfile(const MigGpuModel& model, std::string_view profile) {
  for (const MigProfileInfo& p : model.profiles)
    if (p.name == profile) return &p;
  return nullptr;
}

std::string MigConfigFor(const MigGpuModel& model, std::string_view profile) {
  if (!FindMigProfile(model, profile)) return "";
  return "all-" + std::string(profile);
}

int64_t MigProfileMilliGpu(const MigGpuModel& model, const MigProfileInfo& profile) {
  return int64_t{profile.memory_slices} * 1000 / model.memory_slices;
}

NodeGpuSharing ReadNodeGpuSharing(const ObjectMeta& node_meta) {
  NodeGpuSharing s;
  auto label = [&](std::string_view key) -> std::string_view {
    auto it = node_meta.labels.find(key);
    return it == node_meta.labels.end() ? std::string_view() : std::string_view(it->second);
  };
  // GFD writes none, single or mixed; any other value is GFD-absent.
  const std::string_view strategy = label(kLabelMigStrategy);
  if (strategy == "single") s.mig = NodeGpuSharing::Mig::kSingle;
  if (strategy == "mixed") s.mig = NodeGpuSharing::Mig::kMixed;
  std::string_view product = label(kLabelGpuProduct);
  if (product.empty()) {
    // A node whose GPUs are all MIG-partitioned (mixed) has no full-GPU
    // labels; each MIG resource has its own: nvidia.com/mig-1g.10gb.product
    // = NVIDIA-A100-SXM4-80GB-MIG-1g.10gb. The first, by key, names the model.
    for (const auto& [key, value] : node_meta.labels)
      if (key.starts_with("nvidia.com/mig-") && key.ends_with(".product")) {
        product = value;
        break;
      }
  }
  s.product = ParseGpuProduct(product);
  // nvidia.com/gpu.memory is a MIG device's memory under the single
  // strategy, a whole GPU's otherwise: only the latter tells A100s apart.
  int64_t memory = -1;
  if (s.product.mig_profile.empty()) memory = ParseCount(label("nvidia.com/gpu.memory"));
  s.model = MigGpuModelOf(s.product.base, memory);
  if (s.mig == NodeGpuSharing::Mig::kSingle && s.model) s.single_profile = FindMigProfile(*s.model, s.product.mig_profile);
  s.gpu_count = ParseCount(label(kLabelGpuCount));
  if (const int64_t r = ParseCount(label(kLabelGpuReplicas)); r > 1) {
    s.replicas = r;
    // Older GFDs write no sharing-strategy label: time-slicing was the only one.
    s.sharing = label(kLabelGpuSharingStrategy) == "mps" ? std::string_view("mps") : std::string_view("time-slicing");
    // -SHARED marks replicas kept under nvidia.com/gpu; renamed ones
    // (renameByDefault) are nvidia.com/gpu.shared and the product is plain.
    s.replica_resource = s.product.shared ? std::string_view("nvidia.com/gpu") : kResourceGpuShared;
  }
  return s;
}

}  // namespace gpusched

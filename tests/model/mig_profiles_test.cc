// Tests for src/model/mig_profiles.cc. Expected figures: NVIDIA's MIG user
// guide "Supported MIG Profiles" tables, and the GPU operator's
// default-mig-parted-config (NVIDIA/gpu-operator
// assets/state-mig-manager/0400_configmap.yaml), e.g. all-1g.10gb makes 7
// per A100-80GB/H100-80GB and all-3g.40gb 2; all-balanced on an A100-40GB
// is 2 x 1g.5gb, 1 x 2g.10gb, 1 x 3g.20gb. Label forms: k8s-device-plugin
// internal/lm/resource.go productLabel / replicasLabel.
#include "gpusched/model/mig_profiles.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace gpusched {
namespace {

TEST(MigProfilesTest, ProductNamesToModels) {
  struct Case {
    std::string product;
    int64_t memory_mib;
    std::string want;  // model name, "" for none
  } cases[] = {
      {"NVIDIA-A100-SXM4-40GB", -1, "A100 40GB"},
      {"NVIDIA-A100-PCIE-40GB", -1, "A100 40GB"},
      {"NVIDIA-A100-SXM4-80GB", -1, "A100 80GB"},
      {"NVIDIA-A100-80GB-PCIe", -1, "A100 80GB"},
      {"NVIDIA-A800-SXM4-80GB", -1, "A100 80GB"},
      {"NVIDIA-A100-SXM4", -1, ""},           // no size, no memory label: not guessed
      {"NVIDIA-A100-SXM4", 81920, "A100 80GB"},
      {"NVIDIA-A100-SXM4", 40960, "A100 40GB"},
      {"NVIDIA-A30", -1, "A30"},
      {"NVIDIA-A3000", -1, ""},
      {"NVIDIA-H100-80GB-HBM3", -1, "H100 80GB"},
      {"NVIDIA-H100-PCIe", -1, "H100 80GB"},
      {"NVIDIA-H100-NVL", -1, "H100 NVL"},
      {"NVIDIA-H200", -1, "H200 141GB"},
      {"NVIDIA-H200-NVL", -1, "H200 141GB"},
      {"NVIDIA-GH200-480GB", -1, "GH200 96GB"},
      {"NVIDIA-GH200-144G-HBM3e", -1, "GH200 144GB"},
      {"NVIDIA-B200", -1, "B200"},
      {"NVIDIA-GB200", -1, ""},
      {"Tesla-T4", -1, ""},
      {"NVIDIA-L40S", -1, ""},
      {"", -1, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.product);
    const MigGpuModel* m = MigGpuModelOf(c.product, c.memory_mib);
    EXPECT_EQ(m ? std::string(m->name) : "", c.want);
  }
}

TEST(MigProfilesTest, ProfilesOfEachModel) {
  // name -> (compute slices, memory slices, max instances), the guide's rows.
  struct Case {
    std::string product;
    std::string profile;
    int compute, memory, max;
    int64_t milli_gpu;
    std::string config;
  } cases[] = {
      {"NVIDIA-A100-SXM4-40GB", "1g.5gb", 1, 1, 7, 125, "all-1g.5gb"},
      {"NVIDIA-A100-SXM4-40GB", "1g.10gb", 1, 2, 4, 250, "all-1g.10gb"},
      {"NVIDIA-A100-SXM4-40GB", "3g.20gb", 3, 4, 2, 500, "all-3g.20gb"},
      {"NVIDIA-A100-SXM4-40GB", "7g.40gb", 7, 8, 1, 1000, "all-7g.40gb"},
      {"NVIDIA-A100-SXM4-80GB", "1g.10gb", 1, 1, 7, 125, "all-1g.10gb"},
      {"NVIDIA-A100-SXM4-80GB", "2g.20gb", 2, 2, 3, 250, "all-2g.20gb"},
      {"NVIDIA-H100-80GB-HBM3", "3g.40gb", 3, 4, 2, 500, "all-3g.40gb"},
      {"NVIDIA-H100-80GB-HBM3", "4g.40gb", 4, 4, 1, 500, "all-4g.40gb"},
      {"NVIDIA-H100-NVL", "3g.47gb", 3, 4, 2, 500, "all-3g.47gb"},
      {"NVIDIA-H200", "1g.18gb", 1, 1, 7, 125, "all-1g.18gb"},
      {"NVIDIA-H200", "7g.141gb", 7, 8, 1, 1000, "all-7g.141gb"},
      {"NVIDIA-GH200-480GB", "3g.48gb", 3, 4, 2, 500, "all-3g.48gb"},
      {"NVIDIA-B200", "1g.45gb", 1, 2, 4, 250, "all-1g.45gb"},
      {"NVIDIA-B200", "3g.90gb", 3, 4, 2, 500, "all-3g.90gb"},
      {"NVIDIA-A30", "1g.6gb", 1, 1, 4, 250, "all-1g.6gb"},
      {"NVIDIA-A30", "2g.12gb", 2, 2, 2, 500, "all-2g.12gb"},
      {"NVIDIA-A30", "4g.24gb", 4, 4, 1, 1000, "all-4g.24gb"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.product + " " + c.profile);
    const MigGpuModel* m = MigGpuModelOf(c.product);
    ASSERT_NE(m, nullptr);
    const MigProfileInfo* p = FindMigProfile(*m, c.profile);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->compute_slices, c.compute);
    EXPECT_EQ(p->memory_slices, c.memory);
    EXPECT_EQ(p->max_instances, c.max);
    EXPECT_EQ(MigProfileMilliGpu(*m, *p), c.milli_gpu);
    EXPECT_EQ(MigConfigFor(*m, c.profile), c.config);
  }
}

TEST(MigProfilesTest, ProfilesAModelDoesNotHave) {
  struct Case {
    std::string product, profile;
  } cases[] = {
      {"NVIDIA-A100-SXM4-40GB", "3g.40gb"},  // its 3-slice profile is 3g.20gb
      {"NVIDIA-A100-SXM4-80GB", "3g.20gb"},
      {"NVIDIA-H100-NVL", "3g.40gb"},
      {"NVIDIA-A30", "3g.12gb"},
      {"NVIDIA-A30", "7g.24gb"},
      {"NVIDIA-H200", "1g.10gb"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.product + " " + c.profile);
    const MigGpuModel* m = MigGpuModelOf(c.product);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(FindMigProfile(*m, c.profile), nullptr);
    EXPECT_EQ(MigConfigFor(*m, c.profile), "");
  }
}

// Every model's table against the guide's shape: a full-GPU profile of all
// its slices, instances that fit in its memory slices, and all-balanced
// naming profiles the model has.
TEST(MigProfilesTest, EveryModelIsConsistent) {
  for (const MigGpuModel& m : MigGpuModels()) {
    SCOPED_TRACE(std::string(m.name));
    ASSERT_FALSE(m.profiles.empty());
    const MigProfileInfo& whole = m.profiles.back();
    EXPECT_EQ(whole.memory_slices, m.memory_slices);
    EXPECT_EQ(whole.max_instances, 1);
    for (const MigProfileInfo& p : m.profiles) {
      EXPECT_LE(p.memory_slices * p.max_instances, m.memory_slices) << p.name;
      EXPECT_EQ(std::string(p.name).substr(0, 2), std::to_string(p.compute_slices) + "g") << p.name;
    }
    for (std::string_view b : m.balanced) {
      if (!b.empty()) {
        EXPECT_NE(FindMigProfile(m, b), nullptr) << b;
      }
    }
  }
}

TEST(MigProfilesTest, ParseGpuProduct) {
  struct Case {
    std::string product, base, profile;
    bool shared;
  } cases[] = {
      {"NVIDIA-A100-SXM4-40GB", "NVIDIA-A100-SXM4-40GB", "", false},
      {"NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "NVIDIA-A100-SXM4-40GB", "1g.5gb", false},
      {"Tesla-T4-SHARED", "Tesla-T4", "", true},
      {"NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED", "NVIDIA-A100-SXM4-40GB", "1g.5gb", true},
      {"", "", "", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.product);
    GpuProduct g = ParseGpuProduct(c.product);
    EXPECT_EQ(g.base, c.base);
    EXPECT_EQ(g.mig_profile, c.profile);
    EXPECT_EQ(g.shared, c.shared);
  }
}

TEST(MigProfilesTest, ReadNodeGpuSharing) {
  using Mig = NodeGpuSharing::Mig;
  struct Case {
    std::string name;
    std::map<std::string, std::string, std::less<>> labels;
    Mig mig;
    std::string model, single_profile;
    int64_t replicas;
    std::string sharing, replica_resource;
    int64_t gpu_count;
  } cases[] = {
      {"no GFD labels", {}, Mig::kNone, "", "", 0, "", "", -1},
      {"mixed, model from gpu.product",
       {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"}},
       Mig::kMixed, "H100 80GB", "", 0, "", "", -1},
      {"mixed, model from a MIG resource's product label",
       {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/mig-1g.10gb.product", "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb"}},
       Mig::kMixed, "A100 80GB", "", 0, "", "", -1},
      {"single: the product's MIG suffix is the profile of every device",
       {{"nvidia.com/mig.strategy", "single"},
        {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"},
        {"nvidia.com/gpu.count", "14"},
        {"nvidia.com/gpu.memory", "4864"}},
       Mig::kSingle, "A100 40GB", "1g.5gb", 0, "", "", 14},
      {"single with a profile the model lacks",
       {{"nvidia.com/mig.strategy", "single"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-3g.40gb"}},
       Mig::kSingle, "A100 40GB", "", 0, "", "", -1},
      {"an unknown strategy is GFD-absent",
       {{"nvidia.com/mig.strategy", "Mixed"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}},
       Mig::kNone, "A100 40GB", "", 0, "", "", -1},
      {"time-slicing under nvidia.com/gpu: -SHARED",
       {{"nvidia.com/gpu.product", "Tesla-T4-SHARED"},
        {"nvidia.com/gpu.replicas", "4"},
        {"nvidia.com/gpu.sharing-strategy", "time-slicing"},
        {"nvidia.com/gpu.count", "4"}},
       Mig::kNone, "", "", 4, "time-slicing", "nvidia.com/gpu", 4},
      {"renamed replicas: plain product, nvidia.com/gpu.shared",
       {{"nvidia.com/gpu.product", "Tesla-T4"}, {"nvidia.com/gpu.replicas", "4"}},
       Mig::kNone, "", "", 4, "time-slicing", "nvidia.com/gpu.shared", -1},
      {"mps",
       {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB-SHARED"},
        {"nvidia.com/gpu.replicas", "10"},
        {"nvidia.com/gpu.sharing-strategy", "mps"}},
       Mig::kNone, "A100 80GB", "", 10, "mps", "nvidia.com/gpu", -1},
      {"one replica is no sharing",
       {{"nvidia.com/gpu.replicas", "1"}, {"nvidia.com/gpu.sharing-strategy", "none"}},
       Mig::kNone, "", "", 0, "", "", -1},
      {"bad numbers are GFD-absent",
       {{"nvidia.com/gpu.replicas", "four"}, {"nvidia.com/gpu.count", "-2"}},
       Mig::kNone, "", "", 0, "", "", -1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ObjectMeta meta;
    meta.name = "n";
    meta.labels = c.labels;
    const NodeGpuSharing s = ReadNodeGpuSharing(meta);
    EXPECT_EQ(s.mig, c.mig);
    EXPECT_EQ(s.model ? std::string(s.model->name) : "", c.model);
    EXPECT_EQ(s.single_profile ? std::string(s.single_profile->name) : "", c.single_profile);
    EXPECT_EQ(s.replicas, c.replicas);
    EXPECT_EQ(s.sharing, c.sharing);
    EXPECT_EQ(s.replica_resource, c.replica_resource);
    EXPECT_EQ(s.gpu_count, c.gpu_count);
  }
}

}  // namespace
}  // namespace gpusched

// Tests for src/sched/diagnosis/mig_diagnosis.cc: MigOfferNote, the note a
// whole-GPU pod gets when nodes offer their GPUs as MIG slices (the NVIDIA
// device plugin's mixed strategy). Diagnose's use of it is in
// diagnosis_test.cc (DiagnosisMigTest).
#include <gtest/gtest.h>

#include <map>

#include "gpusched/sched/diagnosis/diagnosis.h"
#include "../test_util.h"

namespace gpusched {
namespace {

Node SlicedNode(const std::string& name, std::vector<std::pair<std::string, int64_t>> resources) {
  Node n = testing::GpuNode(name, -1);
  for (auto& [resource, count] : resources) n.allocatable[resource] = Quantity::FromInt(count);
  return n;
}

constexpr const char* kAdvice =
    ": request one of these profiles (e.g. nvidia.com/mig-1g.10gb: 1) instead of nvidia.com/gpu, or turn MIG off on "
    "some nodes";

TEST(MigOfferNoteTest, Table) {
  struct Case {
    const char* name;
    std::string resource;
    std::vector<Node> nodes;
    std::vector<size_t> removed;
    std::string want;
  } cases[] = {
      {"not nvidia.com/gpu", "example.com/fpga", {SlicedNode("a", {{"nvidia.com/mig-1g.10gb", 7}})}, {}, ""},
      {"no MIG node", "nvidia.com/gpu", {testing::GpuNode("a", 8)}, {}, ""},
      {"one node, one profile",
       "nvidia.com/gpu",
       {SlicedNode("a", {{"nvidia.com/mig-1g.10gb", 7}})},
       {},
       std::string("; the GPUs of 1 node are partitioned with MIG (the NVIDIA device plugin's mixed strategy) and "
                   "offered as nvidia.com/mig-1g.10gb (7 on 1 node)") +
           kAdvice},
      {"profiles by name, slices summed over nodes",
       "nvidia.com/gpu",
       {SlicedNode("a", {{"nvidia.com/mig-3g.40gb", 2}, {"nvidia.com/mig-1g.10gb", 1}}),
        SlicedNode("b", {{"nvidia.com/mig-1g.10gb", 7}}), testing::GpuNode("c", 8)},
       {},
       std::string("; the GPUs of 2 nodes are partitioned with MIG (the NVIDIA device plugin's mixed strategy) and "
                   "offered as nvidia.com/mig-1g.10gb (8 on 2 nodes), nvidia.com/mig-3g.40gb (2 on 1 node)") +
           kAdvice},
      {"a zero amount and another vendor's mig- name do not count",
       "nvidia.com/gpu",
       {SlicedNode("a", {{"nvidia.com/mig-1g.10gb", 0}, {"example.com/mig-1g.10gb", 4}})},
       {},
       ""},
      {"a removed node does not count",
       "nvidia.com/gpu",
       {SlicedNode("a", {{"nvidia.com/mig-2g.20gb", 3}}), SlicedNode("b", {{"nvidia.com/mig-1g.10gb", 7}})},
       {0},
       std::string("; the GPUs of 1 node are partitioned with MIG (the NVIDIA device plugin's mixed strategy) and "
                   "offered as nvidia.com/mig-1g.10gb (7 on 1 node)") +
           kAdvice},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster(c.nodes);
    for (size_t i : c.removed) cluster.RemoveNode(i);
    EXPECT_EQ(MigOfferNote(c.resource, cluster), c.want);
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// A node as GPU feature discovery labels it, with the device plugin's
// resources in status.allocatable.
Node GfdNode(const std::string& name, std::map<std::string, std::string, std::less<>> labels,
             std::vector<std::pair<std::string, int64_t>> resources) {
  Node n = testing::GpuNode(name, -1);
  n.meta.labels = std::move(labels);
  for (auto& [resource, count] : resources) n.allocatable[resource] = Quantity::FromInt(count);
  return n;
}

Node Mixed(const std::string& name, const std::string& product, std::vector<std::pair<std::string, int64_t>> resources) {
  return GfdNode(name, {{"nvidia.com/mig.strategy", "mixed"}, {"nvidia.com/gpu.product", product}}, std::move(resources));
}

TEST(MigProfileNoteTest, Table) {
  const Node a100_40 = Mixed("a100-40-1", "NVIDIA-A100-SXM4-40GB", {{"nvidia.com/mig-1g.5gb", 14}, {"nvidia.com/mig-3g.20gb", 4}});
  const Node h100 = Mixed("h100-1", "NVIDIA-H100-80GB-HBM3", {{"nvidia.com/mig-1g.10gb", 28}});
  const Node h100b = Mixed("h100-2", "NVIDIA-H100-80GB-HBM3", {{"nvidia.com/mig-1g.10gb", 28}});
  const Node a100_80 = Mixed("a100-80-1", "NVIDIA-A100-SXM4-80GB", {{"nvidia.com/mig-1g.10gb", 7}});
  const Node single = GfdNode("a100-single",
                              {{"nvidia.com/mig.strategy", "single"},
                               {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"}},
                              {{"nvidia.com/gpu", 56}});
  const Node h100_single = GfdNode("h100-s",
                                   {{"nvidia.com/mig.strategy", "single"},
                                    {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb"}},
                                   {{"nvidia.com/gpu", 56}});
  const std::string relabel_h100 =
      "; 3g.40gb is a MIG profile of the H100 80GB GPUs of h100-1 (2 per GPU): `kubectl label node h100-1 "
      "nvidia.com/mig.config=all-3g.40gb --overwrite` has the GPU operator's MIG manager repartition their GPUs (once "
      "no pod uses them)";
  struct Case {
    const char* name;
    std::string resource;
    std::vector<Node> nodes;
    std::string want;
  } cases[] = {
      {"not a MIG resource", "nvidia.com/gpu", {a100_40}, ""},
      {"3g.40gb: an H100 can, an A100 40GB cannot",
       "nvidia.com/mig-3g.40gb",
       {a100_40, h100},
       "; the nodes offer nvidia.com/mig-1g.10gb (28 on h100-1: H100 80GB), nvidia.com/mig-1g.5gb (14 on a100-40-1: "
       "A100 40GB), nvidia.com/mig-3g.20gb (4 on a100-40-1: A100 40GB)" +
           relabel_h100 +
           "; the A100 40GB GPUs of a100-40-1 have no 3g.40gb profile (their 3-slice profile is 3g.20gb)"},
      {"two models that can, in one command, nodes summed per resource",
       "nvidia.com/mig-3g.40gb",
       {h100, a100_80, h100b},
       "; the nodes offer nvidia.com/mig-1g.10gb (63 on 3 nodes: A100 80GB, H100 80GB); 3g.40gb is a MIG profile of "
       "the H100 80GB, A100 80GB GPUs of h100-1, h100-2, a100-80-1 (2 per GPU): `kubectl label node h100-1 h100-2 "
       "a100-80-1 nvidia.com/mig.config=all-3g.40gb --overwrite` has the GPU operator's MIG manager repartition their "
       "GPUs (once no pod uses them)"},
      {"no GPU of the cluster has it",
       "nvidia.com/mig-3g.40gb",
       {a100_40},
       "; the nodes offer nvidia.com/mig-1g.5gb (14 on a100-40-1: A100 40GB), nvidia.com/mig-3g.20gb (4 on "
       "a100-40-1: A100 40GB); the A100 40GB GPUs of a100-40-1 have no 3g.40gb profile (their 3-slice profile is "
       "3g.20gb); no GPU in this cluster can provide 3g.40gb: it is a MIG profile of A100 80GB, H100 80GB"},
      {"a profile no model has",
       "nvidia.com/mig-5g.50gb",
       {h100},
       "; the nodes offer nvidia.com/mig-1g.10gb (28 on h100-1: H100 80GB); the H100 80GB GPUs of h100-1 have no "
       "5g.50gb profile (their profiles are 1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb); no GPU model "
       "gpusched knows has a 5g.50gb MIG profile (NVIDIA's MIG user guide lists each model's)"},
      {"single strategy offers the profile as nvidia.com/gpu",
       "nvidia.com/mig-1g.5gb",
       {single},
       "; a100-single offers 1g.5gb MIG devices as nvidia.com/gpu (the device plugin's single strategy): request "
       "nvidia.com/gpu: 1 to run there; the GPUs of a100-single have the 1g.5gb profile, but only the device "
       "plugin's mixed strategy (nvidia.com/mig.strategy=mixed) advertises nvidia.com/mig-1g.5gb"},
      {"single strategy of another profile",
       "nvidia.com/mig-3g.40gb",
       {h100_single},
       "; the GPUs of h100-s have the 3g.40gb profile, but only the device plugin's mixed strategy "
       "(nvidia.com/mig.strategy=mixed) advertises nvidia.com/mig-3g.40gb"},
      {"nodes without GFD labels: nothing known of their GPUs",
       "nvidia.com/mig-3g.40gb",
       {SlicedNode("bare", {{"nvidia.com/mig-1g.10gb", 7}})},
       "; the nodes offer nvidia.com/mig-1g.10gb (7 on bare); no GPU in this cluster can provide 3g.40gb: it is a MIG "
       "profile of A100 80GB, H100 80GB"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cluster(c.nodes);
    EXPECT_EQ(MigProfileNote(c.resource, cluster), c.want);
  }
}

}  // namespace
}  // namespace gpusched

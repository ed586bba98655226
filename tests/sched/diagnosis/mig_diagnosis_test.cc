// Tests for src/sched/diagnosis/mig_diagnosis.cc: MigOfferNote, the note a
// whole-GPU pod gets when nodes offer their GPUs as MIG slices (the NVIDIA
// device plugin's mixed strategy). Diagnose's use of it is in
// diagnosis_test.cc (DiagnosisMigTest).
#include <gtest/gtest.h>

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

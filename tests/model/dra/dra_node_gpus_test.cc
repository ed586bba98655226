// DraNodeGpus (dra_node_gpus.h): milli-GPUs per node from ResourceSlices.
#include "gpusched/model/dra/dra_node_gpus.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

Device Dev(const std::string& name, const std::string& type, const std::string& uuid = "",
           const std::string& parent = "", int slices = 0) {
  Device d;
  d.name = name;
  d.attributes["type"] = {DeviceAttribute::Kind::kString, 0, false, type};
  if (!uuid.empty()) d.attributes["uuid"] = {DeviceAttribute::Kind::kString, 0, false, uuid};
  if (!parent.empty()) d.attributes["parentUUID"] = {DeviceAttribute::Kind::kString, 0, false, parent};
  for (int i = 0; i < slices; ++i) d.capacity["memorySlice" + std::to_string(i)] = {*Quantity::Parse("1"), std::nullopt};
  return d;
}

ResourceSlice Slice(const std::string& node, int64_t generation, std::vector<Device> devices) {
  ResourceSlice s;
  s.driver = "gpu.nvidia.com";
  s.pool = {node, generation, 1};
  s.node_name = node;
  s.devices = std::move(devices);
  return s;
}

TEST(DraNodeGpusTest, GpusMigSlicesGenerationsAndHeldDevices) {
  DraObjects dra;
  // a: two GPUs; an older generation of the pool is ignored.
  dra.slices.push_back(Slice("a", 2, {Dev("gpu-0", "gpu", "U0"), Dev("gpu-1", "gpu", "U1")}));
  dra.slices.push_back(Slice("a", 1, {Dev("gpu-9", "gpu", "U9")}));
  // b: MIG devices of unpublished GPUs (3 + 2 memory slices), and a NIC.
  dra.slices.push_back(Slice("b", 1, {Dev("mig-0", "mig", "", "P0", 3), Dev("mig-1", "mig", "", "P0", 2),
                                      Dev("nic-0", "nic")}));
  // c: a GPU and a MIG device of it (partitionable devices): the GPU's 1000 hold both.
  dra.slices.push_back(Slice("c", 1, {Dev("gpu-0", "gpu", "UC"), Dev("gpu-0-mig-0", "mig", "", "UC", 4)}));
  // A slice for a node selector: not per node.
  ResourceSlice any = Slice("", 1, {Dev("gpu-x", "gpu", "UX")});
  any.pool.name = "shared";
  any.all_nodes = true;
  dra.slices.push_back(any);
  const DraNodeGpus gpus(dra);
  struct Case {
    const char* node;
    std::set<DeviceId> held;
    int64_t total, used;
  };
  const Case cases[] = {
      {"a", {}, 2000, 0},
      {"a", {{"gpu.nvidia.com", "a", "gpu-1"}, {"gpu.nvidia.com", "a", "gpu-9"}}, 2000, 1000},
      {"b", {{"gpu.nvidia.com", "b", "mig-1"}, {"gpu.nvidia.com", "b", "nic-0"}}, 625, 250},
      {"c", {{"gpu.nvidia.com", "c", "gpu-0-mig-0"}}, 1000, 500},
      {"c", {{"gpu.nvidia.com", "c", "gpu-0-mig-0"}, {"gpu.nvidia.com", "c", "gpu-0"}}, 1000, 1000},
      {"nowhere", {}, 0, 0},
  };
  for (const Case& c : cases) {
    AllocatedState state;
    state.allocated_devices = c.held;
    const DraNodeGpus::Milli m = gpus.On(c.node, state);
    EXPECT_EQ(m.total, c.total) << c.node;
    EXPECT_EQ(m.used, c.used) << c.node;
  }
  EXPECT_TRUE(DraNodeGpus(DraObjects{}).empty());
}

}  // namespace
}  // namespace gpusched

// CreateNodeSelector (allocator_result.h): the node selector an allocation
// gets from the slices (or devices) of the devices it holds.
#include "gpusched/sched/plugins/dynamicresources/allocator_result.h"

#include <gtest/gtest.h>

namespace gpusched::dra {
namespace {

NodeSelectorTerm Term(std::vector<NodeSelectorRequirement> expressions, std::vector<NodeSelectorRequirement> fields = {}) {
  return NodeSelectorTerm{std::move(expressions), std::move(fields)};
}
const NodeSelectorRequirement kRegion1{"region", "In", {"r1"}};
const NodeSelectorRequirement kRegion1Again{"region", "In", {"r1"}};
const NodeSelectorRequirement kPlanet{"planet", "In", {"earth", "mars"}};
const NodeSelectorRequirement kPlanetReordered{"planet", "In", {"mars", "earth"}};

TEST(AllocatorResultTest, CreateNodeSelector) {
  ResourceSlice local;
  local.node_name = "node-1";
  ResourceSlice all;
  all.all_nodes = true;
  ResourceSlice region;
  region.node_selector = std::vector<NodeSelectorTerm>{Term({kRegion1, kPlanet})};
  ResourceSlice region_again;
  region_again.node_selector = std::vector<NodeSelectorTerm>{Term({kRegion1Again, kPlanetReordered})};
  ResourceSlice two_terms;
  two_terms.node_selector = std::vector<NodeSelectorTerm>{Term({kRegion1}), Term({kPlanet})};
  ResourceSlice per_device;
  per_device.per_device_node_selection = true;
  Device plain;
  Device binds;
  binds.binds_to_node = true;
  Device device_local;
  device_local.node_name = "node-1";

  using Selector = std::optional<std::vector<NodeSelectorTerm>>;
  const Selector on_node = std::vector<NodeSelectorTerm>{Term({}, {{"metadata.name", "In", {"node-7"}}})};
  struct Case {
    const char* name;
    std::vector<std::pair<const ResourceSlice*, const Device*>> devices;
    bool binds_to_node;
    Selector want;
    std::string error;
  };
  const Case cases[] = {
      {"no devices: every node", {}, true, std::nullopt, ""},
      {"network-attached to all nodes: every node", {{&all, &plain}}, true, std::nullopt, ""},
      {"a node-local slice: the node being allocated for", {{&all, &plain}, {&local, &plain}}, true, on_node, ""},
      {"selectors merge into one term, each requirement once",
       {{&region, &plain}, {&region_again, &plain}},
       true,
       std::vector<NodeSelectorTerm>{Term({kRegion1, kPlanet})},
       ""},
      {"bindsToNode restricts to the node", {{&region, &binds}}, true, on_node, ""},
      {"bindsToNode ignored outside the experimental variant",
       {{&all, &binds}},
       false,
       std::nullopt,
       ""},
      {"per-device node selection reads the device", {{&per_device, &device_local}}, true, on_node, ""},
      {"more than one term", {{&two_terms, &plain}}, true, std::nullopt,
       "unsupported ResourceSlice.NodeSelector with 2 terms"},
  };
  for (const Case& c : cases) {
    std::vector<DeviceResult> devices;
    for (const auto& [slice, device] : c.devices) {
      DeviceResult r;
      r.ref.slice = slice;
      r.ref.device = device;
      devices.push_back(r);
    }
    auto got = CreateNodeSelector(devices, "node-7", c.binds_to_node);
    if (!c.error.empty()) {
      ASSERT_FALSE(got.ok()) << c.name;
      EXPECT_EQ(got.status().message(), c.error) << c.name;
      continue;
    }
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ(*got, c.want) << c.name;
  }
}

}  // namespace
}  // namespace gpusched::dra

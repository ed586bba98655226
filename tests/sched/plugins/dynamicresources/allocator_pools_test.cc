// GatherPools and NodeMatches (allocator_pools.h): which slices a node
// reaches, generations, incomplete, obsolete and invalid pools, the order.
#include "gpusched/sched/plugins/dynamicresources/allocator_pools.h"

#include <gtest/gtest.h>

namespace gpusched::dra {
namespace {

Node MakeNode(const std::string& name, const std::string& region) {
  Node n;
  n.meta.name = name;
  n.meta.labels = {{"region", region}};
  return n;
}

std::vector<NodeSelectorTerm> RegionIn(const std::string& region) {
  NodeSelectorTerm t;
  t.match_expressions.push_back(NodeSelectorRequirement{"region", "In", {region}});
  return {t};
}

// A slice: nodeName "node-1", allNodes "*", "selector:<region>", or "per-device".
ResourceSlice Slice(const std::string& name, const std::string& driver, const std::string& pool, int64_t generation,
                    int64_t count, const std::string& reach, std::vector<std::string> devices) {
  ResourceSlice s;
  s.meta.name = name;
  s.driver = driver;
  s.pool = ResourcePool{pool, generation, count};
  if (reach == "*") {
    s.all_nodes = true;
  } else if (reach.rfind("selector:", 0) == 0) {
    s.node_selector = RegionIn(reach.substr(9));
  } else if (reach == "per-device") {
    s.per_device_node_selection = true;
  } else if (!reach.empty()) {
    s.node_name = reach;
  }
  for (const std::string& d : devices) {
    Device dev;
    dev.name = d;
    s.devices.push_back(dev);
  }
  return s;
}

// "<driver>/<pool>: slice,slice" plus " incomplete" or " invalid: <reason>".
std::vector<std::string> Describe(const std::vector<Pool>& pools) {
  std::vector<std::string> out;
  for (const Pool& p : pools) {
    std::string s = p.Id() + ":";
    for (const ResourceSlice* slice : p.device_slices_targeting_node) s += " " + slice->meta.name;
    if (!p.device_slices_not_targeting_node.empty()) {
      s += " | other:";
      for (const ResourceSlice* slice : p.device_slices_not_targeting_node) s += " " + slice->meta.name;
    }
    if (p.incomplete) s += " incomplete";
    if (p.invalid) s += " invalid: " + p.invalid_reason;
    out.push_back(s);
  }
  return out;
}

TEST(AllocatorPoolsTest, NodeMatches) {
  const Node n = MakeNode("node-1", "r1");
  EXPECT_TRUE(NodeMatches(n, "node-1", false, std::nullopt));
  EXPECT_FALSE(NodeMatches(n, "node-2", true, std::nullopt));  // the name decides first
  EXPECT_TRUE(NodeMatches(n, "", true, std::nullopt));
  EXPECT_TRUE(NodeMatches(n, "", false, RegionIn("r1")));
  EXPECT_FALSE(NodeMatches(n, "", false, RegionIn("r2")));
  EXPECT_FALSE(NodeMatches(n, "", false, std::vector<NodeSelectorTerm>{}));  // no terms: nothing
  EXPECT_FALSE(NodeMatches(n, "", false, std::nullopt));                     // nothing set
}

TEST(AllocatorPoolsTest, GatherPools) {
  struct Case {
    const char* name;
    std::vector<ResourceSlice> slices;
    DraFeatures features;
    std::vector<std::string> want;
  };
  DraFeatures partitionable;
  partitionable.partitionable_devices = true;
  ResourceSlice with_counters = Slice("counters", "d", "p", 1, 2, "", {});
  with_counters.shared_counters.push_back(CounterSet{"set", {{"mem", *Quantity::Parse("1")}}});
  ResourceSlice consumer = Slice("consumer", "d", "p", 1, 2, "node-1", {"a"});
  consumer.devices[0].consumes_counters.push_back(DeviceCounterConsumption{"missing", {}});
  ResourceSlice per_device = Slice("per-device", "d", "p", 1, 1, "per-device", {"a", "b"});
  per_device.devices[1].node_name = "node-1";
  const Case cases[] = {
      {"reach: name, all nodes, selector; sorted by driver then pool",
       {Slice("s1", "b", "p", 1, 1, "node-1", {"x"}), Slice("s2", "a", "q", 1, 1, "*", {"y"}),
        Slice("s3", "a", "p", 1, 1, "selector:r1", {"z"}), Slice("s4", "a", "o", 1, 1, "node-2", {"w"}),
        Slice("s5", "a", "n", 1, 1, "selector:r2", {"v"}), Slice("s6", "a", "m", 1, 1, "", {"u"})},
       {},
       {"a/p: s3", "a/q: s2", "b/p: s1"}},
      {"the newest generation replaces older ones",
       {Slice("old", "d", "p", 1, 1, "node-1", {"a"}), Slice("new", "d", "p", 2, 1, "node-1", {"a"}),
        Slice("older", "d", "p", 0, 1, "node-1", {"a"})},
       {},
       {"d/p: new"}},
      {"a pool missing a slice is incomplete",
       {Slice("one", "d", "p", 1, 2, "node-1", {"a"})}, {}, {"d/p: incomplete"}},
      {"a slice for another node completes the pool",
       {Slice("mine", "d", "p", 1, 2, "node-1", {"a"}), Slice("theirs", "d", "p", 1, 2, "node-2", {"b"})},
       {},
       {"d/p: mine"}},
      {"a newer generation for another node makes the pool obsolete",
       {Slice("mine", "d", "p", 1, 2, "node-1", {"a"}), Slice("theirs", "d", "p", 2, 2, "node-2", {"b"})},
       {},
       {}},
      {"duplicate device names make the pool invalid",
       {Slice("s1", "d", "p", 1, 2, "node-1", {"a"}), Slice("s2", "d", "p", 1, 2, "*", {"a"})},
       {},
       {"d/p: invalid: duplicate device name a"}},
      {"slices with counters or per-device selection need DRAPartitionableDevices",
       {with_counters, per_device},
       {},
       {}},
      {"a counter set a device lacks makes the pool invalid",
       {with_counters, consumer},
       partitionable,
       {"d/p: invalid: counter set missing not found"}},
      {"per-device node selection: a slice with one device for the node",
       {per_device},
       partitionable,
       {"d/p: per-device"}},
  };
  const Node n = MakeNode("node-1", "r1");
  for (const Case& c : cases) {
    std::vector<const ResourceSlice*> slices;
    for (const ResourceSlice& s : c.slices) slices.push_back(&s);
    EXPECT_EQ(Describe(GatherPools(slices, n, c.features)), c.want) << c.name;
  }
}

TEST(AllocatorPoolsTest, CounterSetsAndSlicesForOtherNodes) {
  DraFeatures partitionable;
  partitionable.partitionable_devices = true;
  ResourceSlice counters = Slice("counters", "d", "p", 1, 3, "", {});
  counters.shared_counters.push_back(CounterSet{"set", {{"mem", *Quantity::Parse("4")}}});
  ResourceSlice mine = Slice("mine", "d", "p", 1, 3, "node-1", {"a"});
  ResourceSlice theirs = Slice("theirs", "d", "p", 1, 3, "node-2", {"b"});
  for (ResourceSlice* s : {&mine, &theirs}) {
    s->devices[0].consumes_counters.push_back(DeviceCounterConsumption{"set", {{"mem", *Quantity::Parse("2")}}});
  }
  const std::vector<const ResourceSlice*> slices{&counters, &mine, &theirs};
  const std::vector<Pool> pools = GatherPools(slices, MakeNode("node-1", "r1"), partitionable);
  EXPECT_EQ(Describe(pools), (std::vector<std::string>{"d/p: mine | other: theirs"}));
  ASSERT_EQ(pools.size(), 1u);
  ASSERT_TRUE(pools[0].counter_sets.contains("set"));
  EXPECT_EQ(pools[0].counter_sets.at("set"), &counters.shared_counters[0]);
}

}  // namespace
}  // namespace gpusched::dra

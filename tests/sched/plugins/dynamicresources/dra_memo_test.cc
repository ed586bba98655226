// DynamicResources' memo of per-node answers (dynamic_resources_memo.cc)
// against the plain reference (set_memoize(false): the allocator for every
// node and pod) on random clusters and pod sequences: PreFilter's status,
// every node's Filter verdict and message, Score, and the devices Reserve
// records must be the same, step after step, while pods come and go.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"
#include "gpusched/util/random.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

DeviceAttribute Str(const std::string& s) { return DeviceAttribute{DeviceAttribute::Kind::kString, 0, false, s}; }
DeviceAttribute Int(int64_t v) { return DeviceAttribute{DeviceAttribute::Kind::kInt, v, false, ""}; }

Device RandomDevice(Rng& rng, int i) {
  Device d;
  d.name = "dev-" + std::to_string(i);
  d.attributes["type"] = Str(rng.Uniform(4) == 0 ? "mig" : "gpu");
  d.attributes["index"] = Int(i);
  d.attributes["pcieRoot"] = Str("pci-" + std::to_string(rng.Uniform(2)));
  // Some devices lack "model": the "strict" class's selector errors on them.
  if (rng.Uniform(5) != 0) d.attributes["model"] = Str(rng.Uniform(2) ? "a100" : "h100");
  return d;
}

ResourceSlice RandomSlice(Rng& rng, const std::string& name, const std::string& pool) {
  ResourceSlice s;
  s.meta.name = name;
  s.driver = "gpu.nvidia.com";
  s.pool = {pool, 1, 1};
  const int n = static_cast<int>(rng.Uniform(7));
  for (int i = 0; i < n; ++i) s.devices.push_back(RandomDevice(rng, i));
  // Now and then an invalid pool (a device name twice).
  if (n > 0 && rng.Uniform(12) == 0) s.devices.push_back(s.devices.front());
  return s;
}

ResourceClaimSpec RandomSpec(Rng& rng) {
  static const char* kClasses[] = {"gpu", "any", "strict", "missing"};
  ResourceClaimSpec spec;
  const int requests = 1 + static_cast<int>(rng.Uniform(2));
  for (int r = 0; r < requests; ++r) {
    ExactDeviceRequest e;
    e.device_class_name = kClasses[rng.Uniform(rng.Uniform(10) == 0 ? 4 : 3)];
    e.count = 1 + static_cast<int64_t>(rng.Uniform(3));
    if (rng.Uniform(8) == 0) e.allocation_mode = kAllocationModeAll;
    if (rng.Uniform(3) == 0) e.selectors.push_back("device.attributes['gpu.nvidia.com'].index % 2 == 0");
    spec.requests.push_back(DeviceRequest{"r" + std::to_string(r), e, {}});
  }
  if (rng.Uniform(3) == 0) spec.constraints.push_back(DeviceConstraint{{}, "gpu.nvidia.com/pcieRoot", std::nullopt});
  return spec;
}

std::shared_ptr<ApiObjects> RandomObjects(Rng& rng, const std::vector<Node>& nodes) {
  auto o = std::make_shared<ApiObjects>();
  auto cls = [&](const std::string& name, std::vector<std::string> selectors) {
    DeviceClass& c = o->dra.device_classes[name];
    c.meta.name = name;
    c.selectors = std::move(selectors);
  };
  cls("gpu", {"device.attributes['gpu.nvidia.com'].type == 'gpu'"});
  cls("any", {});
  cls("strict", {"device.attributes['gpu.nvidia.com'].model == 'a100'"});
  for (const Node& n : nodes) {
    if (rng.Uniform(6) == 0) continue;  // a node without devices
    o->dra.slices.push_back(RandomSlice(rng, n.name() + "-slice", n.name()));
    o->dra.slices.back().node_name = n.name();
    // A pool of two slices, one of them missing: incomplete.
    if (rng.Uniform(10) == 0) o->dra.slices.back().pool.resource_slice_count = 2;
  }
  // Devices every node reaches, and devices of the nodes labelled zone=a.
  ResourceSlice everywhere = RandomSlice(rng, "shared", "shared");
  everywhere.all_nodes = true;
  o->dra.slices.push_back(std::move(everywhere));
  ResourceSlice zone = RandomSlice(rng, "zone-a", "zone-a");
  zone.node_selector = std::vector<NodeSelectorTerm>{
      NodeSelectorTerm{{NodeSelectorRequirement{"zone", "In", {"a"}}}, {}}};
  o->dra.slices.push_back(std::move(zone));
  for (int t = 0; t < 5; ++t) {
    ResourceClaimTemplate& tmpl = o->dra.templates["default/t" + std::to_string(t)];
    tmpl.meta.name = "t" + std::to_string(t);
    tmpl.meta.namespace_ = "default";
    tmpl.spec = RandomSpec(rng);
  }
  for (int c = 0; c < 3; ++c) {
    ResourceClaim& claim = o->dra.claims["default/c" + std::to_string(c)];
    claim.meta.name = "c" + std::to_string(c);
    claim.meta.namespace_ = "default";
    claim.spec = RandomSpec(rng);
  }
  return o;
}

std::string Verdict(const FilterVerdict& v, bool ok) {
  if (ok) return "pass";
  std::string s = std::to_string(static_cast<int>(v.code));
  for (const ReasonView& r : v.reasons) s += ": " + r.str();
  return s;
}

std::string Devices(const std::vector<ClaimDevices>& claims) {
  std::string s;
  for (const ClaimDevices& c : claims) {
    s += c.claim + ":";
    for (const DeviceRequestAllocationResult& r : c.results) s += " " + r.request + "=" + r.pool + "/" + r.device;
    s += ";";
  }
  return s;
}

TEST(DraMemoTest, SameAnswersAsThePlainAllocatorOnRandomRuns) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    std::vector<Node> nodes;
    const size_t num_nodes = 3 + rng.Uniform(6);
    for (size_t i = 0; i < num_nodes; ++i) {
      nodes.push_back(testing::GpuNode("n" + std::to_string(i), 0));
      if (rng.Uniform(2)) nodes.back().meta.labels["zone"] = "a";
    }
    std::shared_ptr<ApiObjects> objects = RandomObjects(rng, nodes);
    ClusterState memo_cluster(nodes, objects), plain_cluster(nodes, objects);
    DynamicResources memo, plain;
    plain.set_memoize(false);
    std::vector<std::string> placed;
    for (int step = 0; step < 60; ++step) {
      if (!placed.empty() && rng.Uniform(4) == 0) {
        // A pod leaves: its claims nobody else reserves free their devices.
        const size_t k = rng.Uniform(placed.size());
        memo_cluster.mutable_dra_allocations().Release(placed[k]);
        plain_cluster.mutable_dra_allocations().Release(placed[k]);
        placed.erase(placed.begin() + static_cast<std::ptrdiff_t>(k));
        continue;
      }
      const bool named = rng.Uniform(5) == 0;
      const std::string source = named ? "c" + std::to_string(rng.Uniform(3)) : "t" + std::to_string(rng.Uniform(5));
      Pod pod = testing::ClaimPod({{"gpu", named ? source : "", named ? "" : source, "", false}});
      pod.meta.name = "p" + std::to_string(step);
      const PodInfo info = PodInfo::Make(pod, static_cast<size_t>(step));
      SchedStatus memo_reject = SchedStatus::Success(), plain_reject = SchedStatus::Success();
      std::unique_ptr<PreFilterData> memo_data = memo.PreFilter(info, memo_cluster, memo_reject);
      std::unique_ptr<PreFilterData> plain_data = plain.PreFilter(info, plain_cluster, plain_reject);
      ASSERT_EQ(memo_reject.code(), plain_reject.code());
      ASSERT_EQ(memo_reject.reasons(), plain_reject.reasons());
      ASSERT_EQ(memo_data == nullptr, plain_data == nullptr);
      if (!memo_data) continue;
      CycleState memo_cycle, plain_cycle;
      memo_cycle.Put(&memo, std::move(memo_data), memo.Name());
      plain_cycle.Put(&plain, std::move(plain_data), plain.Name());
      PodInfo memo_info = info, plain_info = info;
      memo_info.cycle = &memo_cycle;
      plain_info.cycle = &plain_cycle;
      std::vector<size_t> feasible;
      // Twice over the nodes: the second pass answers from the memo.
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < num_nodes; ++i) {
          FilterVerdict mv, pv;
          const bool m = memo.Check(memo_info, memo_cluster.node(i), memo_cluster.state(i), &mv);
          const bool p = plain.Check(plain_info, plain_cluster.node(i), plain_cluster.state(i), &pv);
          ASSERT_EQ(Verdict(mv, m), Verdict(pv, p)) << "pod " << pod.name() << " (" << source << ") node " << i;
          ASSERT_EQ(memo.Score(memo_info, memo_cluster.node(i), memo_cluster.state(i)),
                    plain.Score(plain_info, plain_cluster.node(i), plain_cluster.state(i)));
          if (m && pass == 0) feasible.push_back(i);
        }
      }
      if (feasible.empty()) continue;
      const size_t node = feasible[rng.Uniform(feasible.size())];
      const std::string memo_devices = Devices(memo.Reserve(memo_info, memo_cluster, node));
      const std::string plain_devices = Devices(plain.Reserve(plain_info, plain_cluster, node));
      ASSERT_EQ(memo_devices, plain_devices) << "pod " << pod.name() << " on node " << node;
      placed.push_back("default/" + pod.name());
    }
  }
}

}  // namespace
}  // namespace gpusched

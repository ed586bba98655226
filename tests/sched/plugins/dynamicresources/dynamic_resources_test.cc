// DynamicResources (src/sched/plugins/dynamicresources/dynamic_resources.cc)
// in the framework: PreFilter's statuses, Filter through the structured
// allocator, Reserve's allocations that the next pods see, shared claims
// that hold their pods to the node of their devices, and the devices each
// placed pod gets, exactly. Upstream: pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go (v1.35) and its TestPlugin cases
// "claim-template", "missing-class", "structured-no-resources",
// "structured-with-resources", "structured-allocation-shared" (their
// statuses; their objects are here in gpusched's types).
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/policies/policy.h"
#include "../../test_util.h"

namespace gpusched {
namespace {

using testing::ClaimPod;
using testing::GpuNode;
using testing::GpuPod;

ResourceSlice Slice(const std::string& node, int devices) {
  ResourceSlice s;
  s.meta.name = node + "-gpu.nvidia.com";
  s.driver = "gpu.nvidia.com";
  s.pool = {node, 1, 1};
  s.node_name = node;
  for (int i = 0; i < devices; ++i) s.devices.push_back(Device{.name = "gpu-" + std::to_string(i)});
  return s;
}

ResourceClaimSpec Asks(int64_t count, const std::string& cls = "gpu.nvidia.com", bool all = false) {
  ResourceClaimSpec spec;
  ExactDeviceRequest e;
  e.device_class_name = cls;
  e.count = count;
  if (all) e.allocation_mode = kAllocationModeAll;
  spec.requests.push_back(DeviceRequest{"gpu", e, {}});
  return spec;
}

std::shared_ptr<ApiObjects> Objects() {
  auto o = std::make_shared<ApiObjects>();
  o->dra.device_classes["gpu.nvidia.com"].meta.name = "gpu.nvidia.com";
  o->dra.slices = {Slice("a", 2), Slice("b", 4)};
  auto tmpl = [&](const std::string& name, ResourceClaimSpec spec) {
    ResourceClaimTemplate& t = o->dra.templates["default/" + name];
    t.meta.name = name;
    t.meta.namespace_ = "default";
    t.spec = std::move(spec);
  };
  tmpl("one", Asks(1));
  tmpl("two", Asks(2));
  tmpl("five", Asks(5));
  tmpl("missing-class", Asks(1, "mig.nvidia.com"));
  ResourceClaim& shared = o->dra.claims["default/shared"];
  shared.meta.name = "shared";
  shared.meta.namespace_ = "default";
  shared.spec = Asks(1);
  return o;
}

Pod Named(const std::string& name, const std::string& claim_name, bool from_template = true) {
  Pod p = ClaimPod({{"gpu", from_template ? "" : claim_name, from_template ? claim_name : "", "", false}});
  p.meta.name = name;
  return p;
}

std::unique_ptr<Scheduler> DraScheduler() {
  std::vector<std::unique_ptr<FilterPlugin>> filters = DefaultFilters();
  filters.push_back(NewFilterPlugin(names::kDynamicResources));
  return std::make_unique<Scheduler>(std::move(filters), std::make_unique<FirstFitPolicy>(), 1);
}

std::string Devices(const Decision& d) {
  std::string s;
  for (const ClaimDevices& c : d.claims) {
    s += c.pod_claim_name + "=" + c.claim + ":";
    for (const DeviceRequestAllocationResult& r : c.results) s += " " + r.request + "/" + r.pool + "/" + r.device;
    s += ";";
  }
  return s;
}

TEST(DynamicResourcesTest, PlacementsDevicesAndStatusesInOrder) {
  ClusterState c({GpuNode("a", 0), GpuNode("b", 0)}, Objects());
  std::unique_ptr<Scheduler> s = DraScheduler();
  struct Step {
    Pod pod;
    std::string node;     // "" when it does not fit
    std::string devices;  // Devices(d), or the FitError message
  };
  const std::vector<Step> steps = {
      // First fit: a's devices in slice order.
      {Named("p1", "one"), "a", "gpu=default/" + GeneratedClaimName(Named("p1", "one"), "gpu") +
                                    ": gpu/a/gpu-0;"},
      // a has one device left: two go to b.
      {Named("p2", "two"), "b", "gpu=default/" + GeneratedClaimName(Named("p2", "two"), "gpu") +
                                    ": gpu/b/gpu-0 gpu/b/gpu-1;"},
      {Named("p3", "five"), "", "0/2 nodes are available: 2 cannot allocate all claims."},
      {Named("p4", "missing-class"), "",
       "0/2 nodes are available: request gpu: device class mig.nvidia.com does not exist."},
      // The shared claim: allocated by its first pod on a (a's last device)...
      {Named("p5", "shared", false), "a", "gpu=default/shared: gpu/a/gpu-1;"},
      // ...a second pod using it must go where its device is, and takes no other.
      {Named("p6", "shared", false), "a", "gpu=default/shared: gpu/a/gpu-1;"},
      // a is full now.
      {Named("p7", "one"), "b", "gpu=default/" + GeneratedClaimName(Named("p7", "one"), "gpu") +
                                    ": gpu/b/gpu-2;"},
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE(steps[i].pod.name());
    Decision d = s->ScheduleOne(PodInfo::Make(steps[i].pod, i), c);
    if (steps[i].node.empty()) {
      EXPECT_FALSE(d.scheduled);
      EXPECT_EQ(d.fit_error.Error(), steps[i].devices);
      continue;
    }
    ASSERT_TRUE(d.scheduled) << d.fit_error.Error();
    EXPECT_EQ(c.node(d.node).name(), steps[i].node);
    EXPECT_EQ(Devices(d), steps[i].devices);
  }
  EXPECT_EQ(c.dra_allocations().size(), 4u);  // p1's, p2's, shared, p7's
  EXPECT_EQ(c.dra_allocations().state().allocated_devices.size(), 5u);
}

TEST(DynamicResourcesTest, ReleasedDevicesAreFreeAgainAndSharedClaimsLastWithTheirLastPod) {
  ClusterState c({GpuNode("a", 0)}, Objects());
  std::unique_ptr<Scheduler> s = DraScheduler();
  std::vector<Pod> pods = {Named("p1", "two"), Named("p2", "shared", false), Named("p3", "shared", false)};
  EXPECT_TRUE(s->ScheduleOne(PodInfo::Make(pods[0], 0), c).scheduled);
  EXPECT_FALSE(s->ScheduleOne(PodInfo::Make(pods[1], 1), c).scheduled);
  ASSERT_TRUE(c.Unbind(0, 0));  // p1 ends: its claim is deallocated
  EXPECT_EQ(c.dra_allocations().size(), 0u);
  EXPECT_TRUE(s->ScheduleOne(PodInfo::Make(pods[1], 1), c).scheduled);
  EXPECT_TRUE(s->ScheduleOne(PodInfo::Make(pods[2], 2), c).scheduled);
  ASSERT_TRUE(c.Unbind(0, 1));
  // p3 still reserves the shared claim.
  ASSERT_NE(c.dra_allocations().Find("default/shared"), nullptr);
  EXPECT_EQ(c.dra_allocations().Find("default/shared")->reserved_for, (std::set<std::string, std::less<>>{"default/p3"}));
  ASSERT_TRUE(c.Unbind(0, 2));
  EXPECT_EQ(c.dra_allocations().Find("default/shared"), nullptr);
}

TEST(DynamicResourcesTest, PreFilterStatuses) {
  auto objects = Objects();
  ResourceClaim& deleting = objects->dra.claims["default/going"];
  deleting.meta.name = "going";
  deleting.meta.namespace_ = "default";
  deleting.being_deleted = true;
  // A claim allocated on b, reserved by 256 other pods: in use.
  ResourceClaim& full = objects->dra.claims["default/full"];
  full.meta.name = "full";
  full.meta.namespace_ = "default";
  full.spec = Asks(1);
  full.allocation = AllocationResult{};
  full.allocation->results.push_back({"gpu", "gpu.nvidia.com", "b", "gpu-3"});
  for (int i = 0; i < 256; ++i) full.reserved_for.push_back({"", "pods", "user-" + std::to_string(i), ""});
  // A claim allocated on b: available there only.
  ResourceClaim& on_b = objects->dra.claims["default/on-b"];
  on_b.meta.name = "on-b";
  on_b.meta.namespace_ = "default";
  on_b.spec = Asks(1);
  on_b.allocation = AllocationResult{};
  on_b.allocation->results.push_back({"gpu", "gpu.nvidia.com", "b", "gpu-2"});
  on_b.allocation->node_selector = std::vector<NodeSelectorTerm>{{{}, {{"metadata.name", "In", {"b"}}}}};
  ClusterState c({GpuNode("a", 0), GpuNode("b", 0)}, objects);
  std::unique_ptr<Scheduler> s = DraScheduler();
  struct Case {
    Pod pod;
    std::string message;  // "" when it fits
    std::string node = "";
  };
  const std::vector<Case> cases = {
      {Named("x", "nope", false), "0/2 nodes are available: could not find ResourceClaim \"default/nope\"."},
      {Named("x", "going", false), "0/2 nodes are available: resourceclaim \"going\" is being deleted."},
      {Named("x", "full", false), "0/2 nodes are available: resourceclaim in use."},
      {Named("x", "on-b", false), "", "b"},
      // b's devices 2 and 3 are held by the input's allocations.
      {Named("y", "four-on-b"), "0/2 nodes are available: pod \"default/y\": ResourceClaim not created yet."},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    Decision d = s->ScheduleOne(PodInfo::Make(cases[i].pod, i), c);
    if (cases[i].message.empty()) {
      ASSERT_TRUE(d.scheduled) << d.fit_error.Error();
      EXPECT_EQ(c.node(d.node).name(), cases[i].node);
    } else {
      EXPECT_FALSE(d.scheduled);
      EXPECT_EQ(d.fit_error.Error(), cases[i].message);
    }
  }
  EXPECT_EQ(c.dra_allocations().state().allocated_devices,
            (std::set<DeviceId>{{"gpu.nvidia.com", "b", "gpu-2"}, {"gpu.nvidia.com", "b", "gpu-3"}}));
}

TEST(DynamicResourcesTest, PodsWithoutClaimsSkip) {
  ClusterState c({GpuNode("a", 1)}, Objects());
  DynamicResources f;
  EXPECT_EQ(f.Name(), "DynamicResources");
  Pod plain = GpuPod("p", 1);
  SchedStatus reject = SchedStatus::Success();
  EXPECT_EQ(f.PreFilter(PodInfo::Make(plain, 0), c, reject), nullptr);
  EXPECT_TRUE(reject.IsSuccess());
  EXPECT_TRUE(f.Filter(PodInfo::Make(plain, 0), c.node(0), c.state(0)).IsSuccess());
}

TEST(DynamicResourcesTest, GeneratedClaimNamesAreStableAndShaped) {
  Pod p = Named("trainer-0", "one");
  const std::string n = GeneratedClaimName(p, "gpu");
  EXPECT_EQ(n.substr(0, 14), "trainer-0-gpu-");
  EXPECT_EQ(n.size(), 19u);
  EXPECT_EQ(n.find_first_not_of("bcdfghjklmnpqrstvwxz2456789", 14), std::string::npos);
  EXPECT_EQ(GeneratedClaimName(p, "gpu"), n);
  EXPECT_NE(GeneratedClaimName(Named("trainer-1", "one"), "gpu"), n);
  // At most 63 characters: the prefix is cut to 57.
  EXPECT_EQ(GeneratedClaimName(Named(std::string(70, 'x'), "one"), "gpu").size(), 63u);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// DRAPrioritizedList's Score: with kube-scheduler's default profile, a
// firstAvailable claim goes where its first choice fits (a MIG device on
// node b scores 8, a whole GPU on node a 7: normalized 100 and 87), though
// node a comes first in scan order and is as free.
TEST(DynamicResourcesScoreTest, FirstChoiceWins) {
  auto o = std::make_shared<ApiObjects>();
  auto typed_class = [&](const std::string& name, const std::string& type) {
    DeviceClass& c = o->dra.device_classes[name];
    c.meta.name = name;
    c.selectors = {"device.attributes['gpu.nvidia.com'].type == '" + type + "'"};
  };
  typed_class("gpu.nvidia.com", "gpu");
  typed_class("mig.nvidia.com", "mig");
  ResourceSlice a = Slice("a", 1), b = Slice("b", 1);
  a.devices[0].attributes["type"] = DeviceAttribute{DeviceAttribute::Kind::kString, 0, false, "gpu"};
  b.devices[0].name = "gpu-0-mig-3g40gb-9-0";
  b.devices[0].attributes["type"] = DeviceAttribute{DeviceAttribute::Kind::kString, 0, false, "mig"};
  o->dra.slices = {a, b};
  ResourceClaimTemplate& t = o->dra.templates["default/mig-or-gpu"];
  ExactDeviceRequest mig, gpu;
  mig.name = "mig";
  mig.device_class_name = "mig.nvidia.com";
  gpu.name = "gpu";
  gpu.device_class_name = "gpu.nvidia.com";
  t.spec.requests.push_back(DeviceRequest{"accel", std::nullopt, {mig, gpu}});
  ClusterState c({GpuNode("a", 0), GpuNode("b", 0)}, o);
  PolicyOptions options;
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1, options);
  ASSERT_TRUE(set.ok()) << set.status().message();
  Scheduler& s = *set->profiles.at(0).second;
  Pod p = Named("flexible", "mig-or-gpu");
  Decision d = s.ScheduleOne(PodInfo::Make(p, 0), c);
  ASSERT_TRUE(d.scheduled) << d.fit_error.Error();
  EXPECT_EQ(c.node(d.node).name(), "b");
  EXPECT_EQ(Devices(d), "gpu=default/" + GeneratedClaimName(p, "gpu") + ": accel/mig/b/gpu-0-mig-3g40gb-9-0;");
  // With the gate off, firstAvailable is refused at PreFilter.
  PolicyOptions off;
  off.dra_features.prioritized_list = false;
  Result<SchedulerSet> gated = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1, off);
  ASSERT_TRUE(gated.ok());
  Decision g = gated->profiles.at(0).second->ScheduleOne(PodInfo::Make(Named("f2", "mig-or-gpu"), 1), c);
  EXPECT_FALSE(g.scheduled);
  EXPECT_EQ(g.fit_error.Error(),
            "0/2 nodes are available: resource claim default/" + GeneratedClaimName(Named("f2", "mig-or-gpu"), "gpu") +
                ", request accel: has subrequests, but the DRAPrioritizedList feature is disabled. preemption: 0/2 "
                "nodes are available: 2 Preemption is not helpful for scheduling.");
}

}  // namespace
}  // namespace gpusched

// VolumeBinding's PreFilter and Filter. TestVolumeBinding's table from
// upstream pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go
// (v1.35), with its expected statuses; the scores of its capacity cases need
// StorageCapacityScoring (alpha, off in v1.35), so PreScore skips here.
#include "gpusched/sched/plugins/volumebinding/volume_binding.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"

namespace gpusched {
namespace {

// The upstream test's builders (test_utils.go): makePVC, makePV, makeNode,
// makePod.
PersistentVolumeClaim MakePvc(const std::string& name, const std::string& sc) {
  PersistentVolumeClaim c;
  c.meta.name = name;
  c.meta.namespace_ = "default";
  c.storage_class_name = sc;
  return c;
}
PersistentVolumeClaim WithBoundPv(PersistentVolumeClaim c, const std::string& pv) {
  c.volume_name = pv;
  c.meta.annotations[kAnnBindCompleted] = "true";
  return c;
}
PersistentVolumeClaim WithRequest(PersistentVolumeClaim c, const std::string& q) {
  c.request = *Quantity::Parse(q);
  return c;
}
PersistentVolume MakePv(const std::string& name, const std::string& sc, const std::string& phase = "Available",
                        const std::string& capacity = "",
                        const std::vector<std::pair<std::string, std::string>>& affinity = {}) {
  PersistentVolume v;
  v.meta.name = name;
  v.storage_class = sc;
  v.phase = phase;
  if (!capacity.empty()) v.capacity = *Quantity::Parse(capacity);
  if (!affinity.empty()) {
    v.has_node_affinity = true;
    NodeSelectorTerm t;
    for (const auto& [k, val] : affinity) t.match_expressions.push_back({k, "In", {val}});
    v.node_affinity.push_back(t);
  }
  return v;
}
Node MakeNode(const std::string& name, std::map<std::string, std::string, std::less<>> labels = {}) {
  Node n;
  n.meta.name = name;
  n.meta.labels = std::move(labels);
  n.meta.labels["kubernetes.io/hostname"] = name;
  return n;
}
Pod MakePod(const std::vector<std::string>& claims) {
  Pod p;
  p.meta.name = "pod-a";
  p.meta.namespace_ = "default";
  if (claims.empty()) return p;
  auto extras = std::make_shared<PodSpecExtras>();
  for (const std::string& c : claims) {
    PodVolume v;
    v.name = c;
    v.kind = PodVolume::Kind::kClaim;
    v.claim_name = c;
    extras->volumes.push_back(v);
  }
  p.extras = std::move(extras);
  return p;
}

struct Case {
  const char* name;
  Pod pod;
  std::vector<Node> nodes;
  std::vector<PersistentVolumeClaim> pvcs;
  std::vector<PersistentVolume> pvs;
  std::optional<std::string> want_pre_filter;  // the UnschedulableAndUnresolvable message
  bool want_skip = false;
  // Per node: "" passes, otherwise the reasons joined with "|".
  std::vector<std::string> want_filter;
};

std::string Joined(const SchedStatus& s) {
  std::string out;
  for (size_t i = 0; i < s.reasons().size(); ++i) out += (i ? "|" : "") + s.reasons()[i];
  return out;
}

void RunCase(const Case& c) {
  SCOPED_TRACE(c.name);
  auto objects = std::make_shared<ApiObjects>();
  // immediateSC, waitSC and waitHDDSC (no provisioner).
  for (auto [name, mode] : {std::pair{"immediate-sc", "Immediate"}, std::pair{"wait-sc", "WaitForFirstConsumer"},
                            std::pair{"wait-hdd-sc", "WaitForFirstConsumer"}}) {
    StorageClass sc;
    sc.meta.name = name;
    sc.volume_binding_mode = mode;
    objects->volumes.Add(sc);
  }
  for (const auto& p : c.pvcs) objects->volumes.Add(p);
  for (const auto& p : c.pvs) objects->volumes.Add(p);
  ClusterState cluster(c.nodes);
  cluster.set_objects(objects);
  VolumeBinding plugin;
  const PodInfo info = PodInfo::Make(c.pod, 0);
  SchedStatus reject = SchedStatus::Success();
  std::unique_ptr<PreFilterData> data = plugin.PreFilter(info, cluster, reject);
  if (c.want_pre_filter) {
    EXPECT_EQ(reject.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
    EXPECT_EQ(Joined(reject), *c.want_pre_filter);
    return;
  }
  ASSERT_TRUE(reject.IsSuccess()) << Joined(reject);
  EXPECT_EQ(data == nullptr, c.want_skip);
  CycleState cycle;
  if (data) cycle.Put(&plugin, std::move(data));
  PodInfo with = info;
  with.cycle = &cycle;
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    SCOPED_TRACE(c.nodes[i].name());
    SchedStatus s = plugin.Filter(with, c.nodes[i], NodeState{});
    if (c.want_filter[i].empty()) {
      EXPECT_TRUE(s.IsSuccess()) << Joined(s);
    } else {
      EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
      EXPECT_EQ(Joined(s), c.want_filter[i]);
    }
  }
  EXPECT_FALSE(plugin.PreScore(with, cluster));  // StorageCapacityScoring is off in v1.35
}

const std::string kBind = "node(s) didn't find available persistent volumes to bind";

TEST(VolumeBindingTest, UpstreamTable) {
  const std::string zone = "topology.kubernetes.io/zone", region = "topology.kubernetes.io/region";
  auto zn = [&](const std::string& name, const std::string& r, const std::string& z) {
    return MakeNode(name, {{region, r}, {zone, z}});
  };
  std::vector<Node> zonal = {zn("zone-a-node-a", "region-a", "zone-a"), zn("zone-a-node-b", "region-a", "zone-a"),
                             zn("zone-b-node-a", "region-b", "zone-b"), zn("zone-b-node-b", "region-b", "zone-b"),
                             zn("zone-c-node-a", "region-c", "zone-c"), zn("zone-c-node-b", "region-c", "zone-c")};
  auto zpv = [&](const std::string& name, const std::string& cap, const std::string& r, const std::string& z) {
    return MakePv(name, "wait-sc", "Available", cap, {{region, r}, {zone, z}});
  };
  auto hpv = [&](const std::string& name, const std::string& sc, const std::string& cap, const std::string& host) {
    return MakePv(name, sc, "Available", cap, {{"kubernetes.io/hostname", host}});
  };
  const std::vector<Node> abc = {MakeNode("node-a"), MakeNode("node-b"), MakeNode("node-c")};
  const Case cases[] = {
      {"pod has not pvcs", MakePod({}), {MakeNode("node-a")}, {}, {}, std::nullopt, true, {""}},
      {"all bound", MakePod({"pvc-a"}), {MakeNode("node-a")}, {WithBoundPv(MakePvc("pvc-a", "wait-sc"), "pv-a")},
       {MakePv("pv-a", "wait-sc")}, std::nullopt, false, {""}},
      {"PVC does not exist", MakePod({"pvc-a"}), {MakeNode("node-a")}, {}, {},
       "persistentvolumeclaim \"pvc-a\" not found"},
      {"Part of PVCs do not exist", MakePod({"pvc-a", "pvc-b"}), {MakeNode("node-a")},
       {WithBoundPv(MakePvc("pvc-a", "wait-sc"), "pv-a")}, {}, "persistentvolumeclaim \"pvc-b\" not found"},
      {"immediate claims not bound", MakePod({"pvc-a"}), {MakeNode("node-a")}, {MakePvc("pvc-a", "immediate-sc")}, {},
       "pod has unbound immediate PersistentVolumeClaims"},
      {"unbound claims no matches", MakePod({"pvc-a"}), {MakeNode("node-a")}, {MakePvc("pvc-a", "wait-sc")}, {},
       std::nullopt, false, {kBind}},
      {"bound and unbound unsatisfied", MakePod({"pvc-a", "pvc-b"}), {MakeNode("node-a", {{"foo", "barbar"}})},
       {WithBoundPv(MakePvc("pvc-a", "wait-sc"), "pv-a"), MakePvc("pvc-b", "wait-sc")},
       {MakePv("pv-a", "wait-sc", "Available", "", {{"foo", "bar"}})}, std::nullopt, false,
       {"node(s) had volume node affinity conflict|" + kBind}},
      {"pvc not found", MakePod({"pvc-a"}), {MakeNode("node-a")}, {}, {}, "persistentvolumeclaim \"pvc-a\" not found"},
      {"pv not found", MakePod({"pvc-a"}), {MakeNode("node-a")}, {WithBoundPv(MakePvc("pvc-a", "wait-sc"), "pv-a")}, {},
       std::nullopt, false, {"node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"}},
      {"pv not found claim lost", MakePod({"pvc-a"}), {MakeNode("node-a")},
       {[] {
         auto c = WithBoundPv(MakePvc("pvc-a", "wait-sc"), "pv-a");
         c.phase = "Lost";
         return c;
       }()},
       {}, "persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\""},
      {"local volumes with close capacity are preferred", MakePod({"pvc-a"}), abc,
       {WithRequest(MakePvc("pvc-a", "wait-sc"), "50Gi")},
       {hpv("pv-a-0", "wait-sc", "200Gi", "node-a"), hpv("pv-a-1", "wait-sc", "200Gi", "node-a"),
        hpv("pv-b-0", "wait-sc", "100Gi", "node-b"), hpv("pv-b-1", "wait-sc", "100Gi", "node-b")},
       std::nullopt, false, {"", "", kBind}},
      {"local volumes with close capacity are preferred (multiple pvcs)", MakePod({"pvc-0", "pvc-1"}), abc,
       {WithRequest(MakePvc("pvc-0", "wait-sc"), "50Gi"), WithRequest(MakePvc("pvc-1", "wait-hdd-sc"), "100Gi")},
       {hpv("pv-a-0", "wait-sc", "200Gi", "node-a"), hpv("pv-a-1", "wait-sc", "200Gi", "node-a"),
        hpv("pv-a-2", "wait-hdd-sc", "200Gi", "node-a"), hpv("pv-a-3", "wait-hdd-sc", "200Gi", "node-a"),
        hpv("pv-b-0", "wait-sc", "100Gi", "node-b"), hpv("pv-b-1", "wait-sc", "100Gi", "node-b"),
        hpv("pv-b-2", "wait-hdd-sc", "100Gi", "node-b"), hpv("pv-b-3", "wait-hdd-sc", "100Gi", "node-b")},
       std::nullopt, false, {"", "", kBind}},
      {"zonal volumes with close capacity are preferred", MakePod({"pvc-a"}), zonal,
       {WithRequest(MakePvc("pvc-a", "wait-sc"), "50Gi")},
       {zpv("pv-a-0", "200Gi", "region-a", "zone-a"), zpv("pv-a-1", "200Gi", "region-a", "zone-a"),
        zpv("pv-b-0", "100Gi", "region-b", "zone-b"), zpv("pv-b-1", "100Gi", "region-b", "zone-b")},
       std::nullopt, false, {"", "", "", "", kBind, kBind}},
      // "(custom shape)": the same Filter with another score shape.
      {"zonal volumes with close capacity are preferred (custom shape)", MakePod({"pvc-a"}), zonal,
       {WithRequest(MakePvc("pvc-a", "wait-sc"), "50Gi")},
       {zpv("pv-a-0", "200Gi", "region-a", "zone-a"), zpv("pv-a-1", "200Gi", "region-a", "zone-a"),
        zpv("pv-b-0", "100Gi", "region-b", "zone-b"), zpv("pv-b-1", "100Gi", "region-b", "zone-b")},
       std::nullopt, false, {"", "", "", "", kBind, kBind}},
  };
  for (const Case& c : cases) RunCase(c);
}

// gpusched's own cases: what the table leaves out.
TEST(VolumeBindingTest, ProvisionerAndTopology) {
  Case c{"provisioner with allowedTopologies", MakePod({"pvc-a"}),
         {MakeNode("node-a", {{"zone", "z1"}}), MakeNode("node-b", {{"zone", "z2"}})},
         {MakePvc("pvc-a", "fast")}, {}, std::nullopt, false, {"", kBind}};
  auto objects = std::make_shared<ApiObjects>();
  StorageClass sc;
  sc.meta.name = "fast";
  sc.provisioner = "ebs.csi.aws.com";
  sc.volume_binding_mode = "WaitForFirstConsumer";
  sc.allowed_topologies.push_back(TopologySelectorTerm{{{"zone", {"z1"}}}});
  objects->volumes.Add(sc);
  objects->volumes.Add(c.pvcs[0]);
  ClusterState cluster(c.nodes);
  cluster.set_objects(objects);
  VolumeBinding plugin;
  PodInfo info = PodInfo::Make(c.pod, 0);
  SchedStatus reject = SchedStatus::Success();
  auto data = plugin.PreFilter(info, cluster, reject);
  ASSERT_TRUE(reject.IsSuccess());
  ASSERT_NE(data, nullptr);
  CycleState cycle;
  cycle.Put(&plugin, std::move(data));
  info.cycle = &cycle;
  EXPECT_TRUE(plugin.Filter(info, c.nodes[0], NodeState{}).IsSuccess());
  EXPECT_EQ(Joined(plugin.Filter(info, c.nodes[1], NodeState{})), kBind);
}

TEST(VolumeBindingTest, PreFilterErrors) {
  auto objects = std::make_shared<ApiObjects>();
  PersistentVolumeClaim deleting = MakePvc("old", "wait-sc");
  deleting.deleting = true;
  objects->volumes.Add(deleting);
  PersistentVolumeClaim eph = MakePvc("pod-a-scratch", "wait-sc");  // not owned by the pod
  objects->volumes.Add(eph);
  ClusterState cluster(std::vector<Node>{MakeNode("node-a")});
  cluster.set_objects(objects);
  VolumeBinding plugin;
  auto reject_of = [&](const Pod& pod) {
    SchedStatus reject = SchedStatus::Success();
    plugin.PreFilter(PodInfo::Make(pod, 0), cluster, reject);
    return Joined(reject);
  };
  EXPECT_EQ(reject_of(MakePod({"old"})), "persistentvolumeclaim \"old\" is being deleted");
  Pod with_eph = MakePod({});
  auto extras = std::make_shared<PodSpecExtras>();
  PodVolume v;
  v.name = "scratch";
  v.kind = PodVolume::Kind::kEphemeral;
  extras->volumes.push_back(v);
  with_eph.extras = extras;
  EXPECT_EQ(reject_of(with_eph), "PVC default/pod-a-scratch was not created for pod default/pod-a (pod is not owner)");
  with_eph.meta.name = "pod-b";
  EXPECT_EQ(reject_of(with_eph),
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"pod-b-scratch\"");
  // A pod with only inline volumes (no claim) skips.
  Pod inline_only = MakePod({});
  auto ie = std::make_shared<PodSpecExtras>();
  PodVolume iv;
  iv.name = "disk";
  iv.source.kind = "gcePersistentDisk";
  ie->volumes.push_back(iv);
  inline_only.extras = ie;
  SchedStatus reject = SchedStatus::Success();
  EXPECT_EQ(plugin.PreFilter(PodInfo::Make(inline_only, 0), cluster, reject), nullptr);
  EXPECT_TRUE(reject.IsSuccess());
}

}  // namespace
}  // namespace gpusched

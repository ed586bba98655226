// VolumeRestrictions. TestGCEDiskConflicts, TestAWSDiskConflicts,
// TestRBDDiskConflicts, TestISCSIDiskConflicts and TestAccessModeConflicts
// from upstream pkg/scheduler/framework/plugins/volumerestrictions/
// volume_restrictions_test.go (v1.35: the ReadWriteOncePod conflict is
// Filter's, Unschedulable, so that preemption can resolve it), plus the
// dry runs' AddPod/RemovePod on the node's pod list.
#include "gpusched/sched/plugins/volumerestrictions/volume_restrictions.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

Pod WithVolumes(const std::string& name, std::vector<PodVolume> volumes) {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "default";
  if (!volumes.empty()) {
    auto extras = std::make_shared<PodSpecExtras>();
    extras->volumes = std::move(volumes);
    p.extras = extras;
  }
  return p;
}

PodVolume Inline(const std::string& kind, const std::string& id, std::vector<std::string> monitors = {},
                 const std::string& pool = "rbd") {
  PodVolume v;
  v.name = "v";
  v.source.kind = kind;
  v.source.id = id;
  v.source.rbd_monitors = std::move(monitors);
  v.source.rbd_pool = pool;
  return v;
}

PodVolume ClaimVolume(const std::string& claim) {
  PodVolume v;
  v.name = "v";
  v.kind = PodVolume::Kind::kClaim;
  v.claim_name = claim;
  return v;
}

// The plugin on node "node-1" holding `existing`; the verdict's reasons
// ("" for a pass), or the PreFilter rejection prefixed "prefilter: ".
std::string RunCase(const Pod& pod, const std::vector<const Pod*>& existing,
                const std::vector<PersistentVolumeClaim>& pvcs = {}) {
  auto objects = std::make_shared<ApiObjects>();
  for (const auto& c : pvcs) objects->volumes.Add(c);
  Node n;
  n.meta.name = "node-1";
  ClusterState cluster(std::vector<Node>{n});
  cluster.set_objects(objects);
  uint64_t id = 100;
  for (const Pod* e : existing) cluster.Bind(0, {}, {}, id++, 0, {}, {}, e);
  VolumeRestrictions plugin;
  PodInfo info = PodInfo::Make(pod, 0);
  SchedStatus reject = SchedStatus::Success();
  auto data = plugin.PreFilter(info, cluster, reject);
  if (!reject.IsSuccess()) {
    EXPECT_EQ(reject.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
    return "prefilter: " + reject.reasons()[0];
  }
  CycleState cycle;
  if (data) cycle.Put(&plugin, std::move(data));
  info.cycle = &cycle;
  SchedStatus s = plugin.Filter(info, cluster.node(0), cluster.state(0));
  if (s.IsSuccess()) return "";
  EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulable);
  return s.reasons()[0];
}

const std::string kDisk = "node(s) had no available disk";

TEST(VolumeRestrictionsTest, DiskConflicts) {
  struct Family {
    const char* name;
    PodVolume state, state2;
  } families[] = {
      {"GCE", Inline("gcePersistentDisk", "foo"), Inline("gcePersistentDisk", "bar")},
      {"AWS", Inline("awsElasticBlockStore", "foo"), Inline("awsElasticBlockStore", "bar")},
      {"RBD", Inline("rbd", "bar", {"a", "b"}, "foo"), Inline("rbd", "bar", {"c", "d"}, "foo")},
      {"ISCSI", Inline("iscsi", "iqn.2016-12.server:storage.target01"),
       Inline("iscsi", "iqn.2017-12.server:storage.target01")},
  };
  for (const Family& f : families) {
    SCOPED_TRACE(f.name);
    const Pod none = WithVolumes("p", {}), vol = WithVolumes("p", {f.state}), vol2 = WithVolumes("p", {f.state2});
    const Pod existing = WithVolumes("e", {f.state});
    EXPECT_EQ(RunCase(none, {}), "") << "nothing";
    EXPECT_EQ(RunCase(none, {&existing}), "") << "one state";
    EXPECT_EQ(RunCase(vol, {&existing}), kDisk) << "same state";
    EXPECT_EQ(RunCase(vol2, {&existing}), "") << "different state";
  }
  // Read-only on both sides shares a GCE disk; an EBS volume never is.
  PodVolume ro = Inline("gcePersistentDisk", "foo");
  ro.source.read_only = true;
  const Pod ro_pod = WithVolumes("p", {ro}), ro_existing = WithVolumes("e", {ro});
  EXPECT_EQ(RunCase(ro_pod, {&ro_existing}), "");
  PodVolume ebs = Inline("awsElasticBlockStore", "foo");
  ebs.source.read_only = true;
  const Pod ebs_pod = WithVolumes("p", {ebs}), ebs_existing = WithVolumes("e", {ebs});
  EXPECT_EQ(RunCase(ebs_pod, {&ebs_existing}), kDisk);
}

TEST(VolumeRestrictionsTest, AccessModeConflicts) {
  PersistentVolumeClaim rwop, rwx;
  rwop.meta.name = "claim-with-rwop";
  rwop.meta.namespace_ = "default";
  rwop.access_modes = {"ReadWriteOncePod"};
  rwx.meta.name = "claim-with-rwx";
  rwx.meta.namespace_ = "default";
  rwx.access_modes = {"ReadWriteMany"};
  const Pod with_rwop = WithVolumes("pod-with-rwop", {ClaimVolume("claim-with-rwop")});
  const Pod with_rwx = WithVolumes("pod-with-rwx", {ClaimVolume("claim-with-rwx")});
  EXPECT_EQ(RunCase(WithVolumes("p", {}), {}, {}), "") << "nothing";
  EXPECT_EQ(RunCase(with_rwop, {}, {}), "prefilter: persistentvolumeclaim \"claim-with-rwop\" not found")
      << "failed to get PVC";
  EXPECT_EQ(RunCase(with_rwop, {&with_rwx}, {rwop, rwx}), "") << "no access mode conflict";
  EXPECT_EQ(RunCase(with_rwop, {&with_rwop, &with_rwx}, {rwop, rwx}),
            "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode")
      << "access mode conflict";
}

TEST(VolumeRestrictionsTest, DryRunsSeeTheNodesPodsAsTheStateHoldsThem) {
  // The pod using the ReadWriteOncePod claim runs on node-1; preemption's
  // copy without it passes (RemovePod), and a copy of another node with a
  // nominated pod using it fails (AddPod).
  PersistentVolumeClaim rwop;
  rwop.meta.name = "c";
  rwop.meta.namespace_ = "default";
  rwop.access_modes = {"ReadWriteOncePod"};
  auto objects = std::make_shared<ApiObjects>();
  objects->volumes.Add(rwop);
  Node a, b;
  a.meta.name = "node-1";
  b.meta.name = "node-2";
  ClusterState cluster(std::vector<Node>{a, b});
  cluster.set_objects(objects);
  const Pod holder = WithVolumes("holder", {ClaimVolume("c")}), pod = WithVolumes("p", {ClaimVolume("c")});
  cluster.Bind(0, {}, {}, 7, 0, {}, {}, &holder);
  VolumeRestrictions plugin;
  PodInfo info = PodInfo::Make(pod, 0);
  SchedStatus reject = SchedStatus::Success();
  auto data = plugin.PreFilter(info, cluster, reject);
  ASSERT_NE(data, nullptr);
  CycleState cycle;
  cycle.Put(&plugin, std::move(data));
  info.cycle = &cycle;
  EXPECT_FALSE(plugin.Check(info, cluster.node(0), cluster.state(0), nullptr));
  EXPECT_FALSE(plugin.Check(info, cluster.node(1), cluster.state(1), nullptr));  // a count over the cluster
  NodeState without = cluster.state(0);
  without.pods.clear();
  EXPECT_TRUE(plugin.Check(info, cluster.node(0), without, nullptr));
}

}  // namespace
}  // namespace gpusched

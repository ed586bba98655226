// VolumeZone. TestSingleZone, TestMultiZone and TestWithBinding from upstream
// pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go (v1.35),
// with their expected statuses. Two TestWithBinding cases read differently
// in a real cluster, and are checked as kube-scheduler words them there:
// the StorageClass lister's NotFound names "storageclass.storage.k8s.io"
// (the test's fake lister says "storageclasses.storage.k8s.io"), and a
// StorageClass without volumeBindingMode is defaulted to Immediate by the
// API server (the test's object, never defaulted, gives "VolumeBindingMode
// not set").
#include "gpusched/sched/plugins/volumezone/volume_zone.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpusched {
namespace {

const std::string kBetaZone = "failure-domain.beta.kubernetes.io/zone";
const std::string kBetaRegion = "failure-domain.beta.kubernetes.io/region";
const std::string kZone = "topology.kubernetes.io/zone";
const std::string kRegion = "topology.kubernetes.io/region";

PersistentVolume Pv(const std::string& name, LabelMap labels) {
  PersistentVolume v;
  v.meta.name = name;
  v.meta.labels = std::move(labels);
  return v;
}
PersistentVolumeClaim Pvc(const std::string& name, const std::string& volume,
                          std::optional<std::string> sc = std::nullopt) {
  PersistentVolumeClaim c;
  c.meta.name = name;
  c.meta.namespace_ = "default";
  c.volume_name = volume;
  c.storage_class_name = std::move(sc);
  return c;
}
Pod PodWithVolume(const std::string& claim) {
  Pod p;
  p.meta.name = "pod_1";
  p.meta.namespace_ = "default";
  if (claim.empty()) return p;
  auto extras = std::make_shared<PodSpecExtras>();
  PodVolume v;
  v.name = "v";
  v.kind = PodVolume::Kind::kClaim;
  v.claim_name = claim;
  extras->volumes.push_back(v);
  p.extras = extras;
  return p;
}
Node Host(LabelMap labels) {
  Node n;
  n.meta.name = "host1";
  n.meta.labels = std::move(labels);
  return n;
}

struct Case {
  const char* name;
  std::string claim;
  LabelMap node_labels;
  std::string want_pre_filter;  // "" success; "skip"; else the message
  bool want_fit = true;
};

void RunCase(const std::vector<PersistentVolume>& pvs, const std::vector<PersistentVolumeClaim>& pvcs,
         const std::vector<StorageClass>& classes, const std::vector<Case>& cases) {
  auto objects = std::make_shared<ApiObjects>();
  for (const auto& v : pvs) objects->volumes.Add(v);
  for (const auto& c : pvcs) objects->volumes.Add(c);
  for (const auto& s : classes) objects->volumes.Add(s);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Node node = Host(c.node_labels);
    ClusterState cluster(std::vector<Node>{node});
    cluster.set_objects(objects);
    VolumeZone plugin;
    const Pod pod = PodWithVolume(c.claim);
    PodInfo info = PodInfo::Make(pod, 0);
    SchedStatus reject = SchedStatus::Success();
    std::unique_ptr<PreFilterData> data = plugin.PreFilter(info, cluster, reject);
    if (c.want_pre_filter == "skip") {
      EXPECT_TRUE(reject.IsSuccess());
      EXPECT_EQ(data, nullptr);
      continue;
    }
    if (!c.want_pre_filter.empty()) {
      EXPECT_EQ(reject.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
      ASSERT_EQ(reject.reasons().size(), 1u);
      EXPECT_EQ(reject.reasons()[0], c.want_pre_filter);
      continue;
    }
    ASSERT_TRUE(reject.IsSuccess());
    ASSERT_NE(data, nullptr);
    CycleState cycle;
    cycle.Put(&plugin, std::move(data));
    info.cycle = &cycle;
    SchedStatus s = plugin.Filter(info, node, NodeState{});
    EXPECT_EQ(s.IsSuccess(), c.want_fit);
    if (!c.want_fit) {
      EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
      EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) had no available volume zone"});
    }
  }
}

TEST(VolumeZoneTest, SingleZone) {
  const std::vector<PersistentVolume> pvs = {
      Pv("Vol_1", {{kBetaZone, "us-west1-a"}}),
      Pv("Vol_2", {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}),
      Pv("Vol_3", {{kBetaRegion, "us-west1"}}),
      Pv("Vol_Stable_1", {{kZone, "us-west1-a"}}),
      Pv("Vol_Stable_2", {{kRegion, "us-west1"}, {"uselessLabel", "none"}}),
      Pv("Vol_Stable_3", {{kZone, "us-west1-a"}, {kRegion, "us-west1-a"}}),
  };
  const std::vector<PersistentVolumeClaim> pvcs = {
      Pvc("PVC_1", "Vol_1"), Pvc("PVC_2", "Vol_2"), Pvc("PVC_3", "Vol_3"), Pvc("PVC_4", "Vol_not_exist"),
      Pvc("PVC_Stable_1", "Vol_Stable_1"), Pvc("PVC_Stable_2", "Vol_Stable_2"), Pvc("PVC_Stable_3", "Vol_Stable_3"),
  };
  const LabelMap useless = {{"uselessLabel", "none"}};
  auto with = [&](LabelMap l) {
    l.insert(useless.begin(), useless.end());
    return l;
  };
  RunCase(pvs, pvcs, {},
      {
          {"pod without volume", "", {{kBetaZone, "us-west1-a"}}, "skip"},
          {"node without labels", "PVC_1", {}, ""},
          {"beta zone label matched", "PVC_1", with({{kBetaZone, "us-west1-a"}}), ""},
          {"beta region label matched", "PVC_2", with({{kBetaRegion, "us-west1"}}), ""},
          {"beta region label doesn't match", "PVC_2", with({{kBetaRegion, "no_us-west1"}}), "", false},
          {"beta zone label doesn't match", "PVC_1", with({{kBetaZone, "no_us-west1-a"}}), "", false},
          {"zone label matched", "PVC_Stable_1", with({{kZone, "us-west1-a"}}), ""},
          {"region label matched", "PVC_Stable_2", with({{kRegion, "us-west1"}}), ""},
          {"region label doesn't match", "PVC_Stable_2", with({{kRegion, "no_us-west1"}}), "", false},
          {"zone label doesn't match", "PVC_Stable_1", with({{kZone, "no_us-west1-a"}}), "", false},
          {"pv with zone and region, node with only zone", "PVC_Stable_3", {{kZone, "us-west1-a"}}, "", false},
          {"pv with zone,node with beta zone", "PVC_Stable_1", {{kBetaZone, "us-west1-a"}}, "", false},
          {"pv with beta label,node with ga label, matched", "PVC_1", {{kZone, "us-west1-a"}}, ""},
          {"pv with beta label,node with ga label, don't match", "PVC_1", {{kZone, "us-west1-b"}}, "", false},
          // gpusched's: the PV a claim names does not exist (the lister's NotFound).
          {"bound to a missing PV", "PVC_4", {{kZone, "us-west1-a"}}, "persistentvolume \"Vol_not_exist\" not found"},
      });
}

TEST(VolumeZoneTest, MultiZone) {
  const std::vector<PersistentVolume> pvs = {
      Pv("Vol_1", {{kBetaZone, "us-west1-a"}}),
      Pv("Vol_2", {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}),
      Pv("Vol_3", {{kBetaZone, "us-west1-c__us-west1-a"}}),
      Pv("Vol_Stable_1", {{kZone, "us-west1-a"}}),
      Pv("Vol_Stable_2", {{kZone, "us-west1-c__us-west1-a"}}),
  };
  const std::vector<PersistentVolumeClaim> pvcs = {
      Pvc("PVC_1", "Vol_1"), Pvc("PVC_2", "Vol_2"), Pvc("PVC_3", "Vol_3"), Pvc("PVC_4", "Vol_not_exist"),
      Pvc("PVC_Stable_1", "Vol_Stable_1"), Pvc("PVC_Stable_2", "Vol_Stable_2"),
  };
  RunCase(pvs, pvcs, {},
      {
          {"node without labels", "PVC_3", {}, ""},
          {"beta zone label matched", "PVC_3", {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, ""},
          {"beta zone label doesn't match", "PVC_1", {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}, "",
           false},
          {"zone label matched", "PVC_Stable_2", {{kZone, "us-west1-a"}, {"uselessLabel", "none"}}, ""},
          {"zone label doesn't match", "PVC_Stable_1", {{kZone, "us-west1-b"}, {"uselessLabel", "none"}}, "", false},
      });
}

TEST(VolumeZoneTest, WithBinding) {
  StorageClass immediate, wait;
  immediate.meta.name = "Class_Immediate";
  wait.meta.name = "Class_Wait";
  wait.volume_binding_mode = "WaitForFirstConsumer";
  const LabelMap node = {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}};
  RunCase({Pv("Vol_1", {{kBetaZone, "us-west1-a"}})},
      {Pvc("PVC_1", "Vol_1"), Pvc("PVC_NoSC", "", "Class_0"), Pvc("PVC_EmptySC", ""), Pvc("PVC_WaitSC", "", "Class_Wait"),
       Pvc("PVC_ImmediateSC", "", "Class_Immediate")},
      {immediate, wait},
      {
          {"label zone failure domain matched", "PVC_1", node, ""},
          {"unbound volume empty storage class", "PVC_EmptySC", node,
           "PersistentVolumeClaim had no pv name and storageClass name"},
          {"unbound volume no storage class", "PVC_NoSC", node, "storageclass.storage.k8s.io \"Class_0\" not found"},
          {"unbound volume immediate binding mode", "PVC_ImmediateSC", node, "PersistentVolume had no name"},
          {"unbound volume wait binding mode", "PVC_WaitSC", node, "skip"},
      });
}

}  // namespace
}  // namespace gpusched

// NodeVolumeLimits (CSILimits). TestCSILimits from upstream
// pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go (v1.35), its
// helpers (getFakeCSIPVLister, getFakeCSIPVCLister, the CSINode of
// getNodeWithPodAndVolumeLimits) rebuilt as objects, with the expected
// statuses. Not ported: the in-tree migration cases that need
// csi-translation-lib (not modelled) and the VolumeAttachment cases (not an
// input). Two messages read as a real cluster gives them: the real lister's
// NotFound says "persistentvolumeclaim" (the fake lister,
// "persistentvolumeclaims"); and a claim not created for the pod is
// UnschedulableAndUnresolvable, not the framework's Error.
#include "gpusched/sched/plugins/nodevolumelimits/csi.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

const std::string kEbs = "ebs.csi.aws.com";
const std::string kGce = "pd.csi.storage.gke.io";
const std::string kHostPath = "kubernetes.io/hostpath";
const std::string kInTreeEbs = "kubernetes.io/aws-ebs";
const std::string kNode = "node-for-max-pd-test-1";

Pod MakePod(const std::string& name, const std::string& ns, std::vector<std::string> claims,
            std::vector<std::string> ephemeral = {}, const std::string& uid = "") {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = ns;
  p.meta.uid = uid;
  auto extras = std::make_shared<PodSpecExtras>();
  for (const auto& c : claims) {
    PodVolume v;
    v.name = c;
    v.kind = PodVolume::Kind::kClaim;
    v.claim_name = c;
    extras->volumes.push_back(v);
  }
  for (const auto& e : ephemeral) {
    PodVolume v;
    v.name = e;
    v.kind = PodVolume::Kind::kEphemeral;
    extras->volumes.push_back(v);
  }
  if (!extras->volumes.empty()) p.extras = extras;
  return p;
}

PersistentVolumeClaim OwnedClaim(const std::string& ns, const std::string& name, const std::string& uid) {
  PersistentVolumeClaim c;
  c.meta.namespace_ = ns;
  c.meta.name = name;
  c.storage_class_name = "csi-sc";
  c.has_controller = !uid.empty();
  c.controller_uid = uid;
  return c;
}

struct Case {
  const char* name;
  Pod pod;
  std::vector<Pod> existing;
  std::vector<PersistentVolumeClaim> extra_claims;
  int32_t max_vols;
  std::vector<std::string> drivers;
  std::string limit_source;  // "csinode", "csinode-with-no-limit", "" (none)
  std::string want;  // "" passes, "skip", "error: <message>" (UnschedulableAndUnresolvable), or the reason
};

void RunCase(const Case& c) {
  SCOPED_TRACE(c.name);
  auto objects = std::make_shared<ApiObjects>();
  VolumeObjects& v = objects->volumes;
  // getFakeCSIPVLister / getFakeCSIPVCLister with volumeName "csi".
  for (const std::string& driver : c.drivers) {
    for (int j = 0; j < 4; ++j) {
      const std::string name = "csi-" + driver + "-" + std::to_string(j);
      PersistentVolume pv;
      pv.meta.name = name;
      if (driver == kHostPath) {
        pv.source.kind = "hostPath";
      } else if (driver == kInTreeEbs) {
        pv.source.kind = "awsElasticBlockStore";
        pv.source.id = name;
      } else {
        pv.source.kind = "csi";
        pv.source.csi_driver = driver;
        pv.source.id = name;
      }
      v.Add(pv);
      PersistentVolumeClaim pvc;
      pvc.meta.name = name;
      pvc.volume_name = name;
      v.Add(pvc);
    }
  }
  PersistentVolumeClaim four, five, six;
  four.meta.name = "csi-4";
  four.storage_class_name = "csi-sc";
  five.meta.name = "csi-5";
  six.meta.name = "csi-6";
  six.storage_class_name = "csi-sc";
  six.volume_name = "missing-in-action";
  v.Add(four);
  v.Add(five);
  v.Add(six);
  for (const auto& e : c.extra_claims) v.Add(e);
  StorageClass sc;  // getFakeCSIStorageClassLister(scName, driverNames[0])
  sc.meta.name = "csi-sc";
  sc.provisioner = c.drivers[0];
  v.Add(sc);
  if (!c.limit_source.empty()) {
    CSINode n;
    n.meta.name = kNode;
    for (const std::string& d : c.drivers) {
      CSINodeDriver driver{d, kNode, {}, std::nullopt};
      if (c.limit_source == "csinode") driver.allocatable_count = c.max_vols;
      n.drivers.push_back(driver);
    }
    v.Add(n);
  }
  Node node;
  node.meta.name = kNode;
  ClusterState cluster(std::vector<Node>{node});
  cluster.set_objects(objects);
  uint64_t id = 10;
  for (const Pod& e : c.existing) cluster.Bind(0, {}, {}, id++, 0, {}, {}, &e);
  CSILimits plugin;
  PodInfo info = PodInfo::Make(c.pod, 0);
  SchedStatus reject = SchedStatus::Success();
  auto data = plugin.PreFilter(info, cluster, reject);
  ASSERT_TRUE(reject.IsSuccess());  // upstream's PreFilter never rejects
  if (data == nullptr) {
    // Skip (or nothing of its own to count): passes everywhere.
    EXPECT_TRUE(c.want == "skip" || c.want.empty()) << c.want;
    return;
  }
  CycleState cycle;
  cycle.Put(&plugin, std::move(data));
  info.cycle = &cycle;
  SchedStatus s = plugin.Filter(info, cluster.node(0), cluster.state(0));
  if (c.want.empty()) {
    EXPECT_TRUE(s.IsSuccess()) << s.reasons()[0];
  } else if (c.want.rfind("error: ", 0) == 0) {
    EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
    ASSERT_FALSE(s.reasons().empty());
    EXPECT_EQ("error: " + s.reasons()[0], c.want);
  } else {
    EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulable);
    ASSERT_FALSE(s.reasons().empty());
    EXPECT_EQ(s.reasons()[0], c.want);
  }
}

TEST(CSILimitsTest, UpstreamTable) {
  const std::string kMax = "node(s) exceed max volume count";
  const Pod running = MakePod("", "", {"csi-" + kEbs + "-3"});
  const Pod pending = MakePod("", "", {"csi-4"});
  const Pod pending2 = MakePod("", "", {"csi-4"});
  const Pod missing_pv = MakePod("", "", {"csi-6"});
  const Pod no_sc = MakePod("", "", {"csi-5"});
  const Pod gce_two = MakePod("", "", {"csi-" + kGce + "-1", "csi-" + kGce + "-2"});
  const Pod ebs_one = MakePod("", "", {"csi-" + kEbs + "-0"});
  const Pod ebs_two = MakePod("", "", {"csi-" + kEbs + "-1", "csi-" + kEbs + "-2"});
  const Pod hostpath_one = MakePod("", "", {"csi-" + kHostPath + "-0"});
  const Pod ephemeral = MakePod("abc", "test", {}, {"xyz"}, "12345");
  const Pod ephemeral_two = MakePod("abc", "test", {}, {"x", "y"}, "12345II");
  const PersistentVolumeClaim eph_claim = OwnedClaim("test", "abc-xyz", "12345");
  const PersistentVolumeClaim conflicting = OwnedClaim("test", "abc-xyz", "");
  const PersistentVolumeClaim claim_x = OwnedClaim("test", "abc-x", "12345II");
  const PersistentVolumeClaim claim_y = OwnedClaim("test", "abc-y", "12345II");
  const Pod only_config = MakePod("", "", {});  // configMap and secret volumes are not kept
  const Pod in_tree_one = MakePod("", "", {"csi-" + kInTreeEbs + "-0"});
  const Pod in_tree_two = MakePod("", "", {"csi-" + kInTreeEbs + "-1", "csi-" + kInTreeEbs + "-2"});
  Pod in_tree_inline = MakePod("", "", {});
  {
    auto extras = std::make_shared<PodSpecExtras>();
    PodVolume v;
    v.name = "aws";
    v.source.kind = "awsElasticBlockStore";
    v.source.id = "aws-inline1";
    extras->volumes.push_back(v);
    in_tree_inline.extras = extras;
  }
  const std::vector<Case> cases = {
      {"fits when node volume limit >= new pods CSI volume", ebs_one, {running, ebs_two}, {}, 4, {kEbs}, "csinode", ""},
      {"doesn't when node volume limit <= pods CSI volume", ebs_one, {running, ebs_two}, {}, 2, {kEbs}, "csinode", kMax},
      {"should when driver does not support volume limits", ebs_one, {running, ebs_two}, {}, 2, {kEbs},
       "csinode-with-no-limit", ""},
      {"count pending PVCs towards volume limit <= pods CSI volume", ebs_one, {pending, ebs_two}, {}, 2, {kEbs},
       "csinode", kMax},
      {"count multiple pending pvcs towards volume limit >= pods CSI volume", ebs_one, {pending, pending2, ebs_two},
       {}, 4, {kEbs}, "csinode", ""},
      {"should count PVCs with invalid PV name but valid SC", ebs_one, {missing_pv, ebs_two}, {}, 2, {kEbs}, "csinode",
       kMax},
      {"don't count pvcs with missing SC towards volume limit", ebs_one, {running, no_sc}, {}, 2, {kEbs}, "csinode", ""},
      {"count pvcs with the same type towards volume limit", ebs_one, {gce_two, ebs_two}, {}, 2, {kEbs, kGce},
       "csinode", kMax},
      {"don't count pvcs with different type towards volume limit", gce_two, {ebs_two, running}, {}, 2, {kEbs, kGce},
       "csinode", ""},
      // Two migration cases whose answer needs no translation.
      {"nil csi node", in_tree_inline, {in_tree_two}, {}, 0, {kInTreeEbs, kEbs}, "", ""},
      {"should not limit pod if volume used does not report limits", in_tree_one, {in_tree_two}, {}, 2,
       {kInTreeEbs, kEbs}, "csinode-with-no-limit", ""},
      {"should not count non-migratable in-tree volumes", hostpath_one, {ebs_two}, {}, 2, {kHostPath, kEbs},
       "csinode", ""},
      {"ephemeral volume missing", ephemeral, {}, {}, 0, {kEbs}, "csinode-with-no-limit",
       "error: looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found"},
      {"ephemeral volume not owned", ephemeral, {}, {conflicting}, 0, {kEbs}, "csinode-with-no-limit",
       "error: PVC test/abc-xyz was not created for pod test/abc (pod is not owner)"},
      {"ephemeral volume unbound", ephemeral, {}, {eph_claim}, 0, {kEbs}, "csinode-with-no-limit", ""},
      {"ephemeral doesn't when node volume limit <= pods CSI volume", ephemeral, {running, ebs_two}, {eph_claim}, 2,
       {kEbs}, "csinode", kMax},
      {"ephemeral doesn't when node volume limit <= pods ephemeral CSI volume", ebs_one, {running, ephemeral_two},
       {claim_x, claim_y}, 2, {kEbs}, "csinode", kMax},
      {"persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume, ephemeral "
       "disabled",
       ebs_one, {running, ephemeral, ebs_two}, {eph_claim}, 3, {kEbs}, "csinode", kMax},
      {"persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume", ebs_one,
       {running, ephemeral, ebs_two}, {eph_claim}, 3, {kEbs}, "csinode", kMax},
      {"persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume", ebs_one,
       {running, ephemeral, ebs_two}, {eph_claim}, 5, {kEbs}, "csinode", ""},
      {"skip Filter when the pod only uses secrets and configmaps", only_config, {}, {}, 2, {kEbs}, "csinode", "skip"},
      {"don't skip Filter when the pod has pvcs", ebs_one, {}, {}, 2, {kEbs}, "csinode", ""},
      {"don't skip Filter when the pod has ephemeral volumes", ephemeral, {}, {}, 0, {kEbs}, "csinode-with-no-limit",
       "error: looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found"},
  };
  for (const Case& c : cases) RunCase(c);
}

}  // namespace
}  // namespace gpusched

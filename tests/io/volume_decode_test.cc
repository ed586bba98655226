// Tests for src/io/volume_decode.cc through the manifest loader:
// PersistentVolumes, PersistentVolumeClaims, StorageClasses and CSINodes are
// decoded, defaulted and validated as the API server does, kept for the
// volume plugins, and hand-written objects get what the PV controller gives
// them.
#include <gtest/gtest.h>

#include <string>

#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

const char* kDump =
    "apiVersion: v1\nkind: List\nitems:\n"
    "- apiVersion: v1\n  kind: PersistentVolume\n"
    "  metadata: {name: local-a, annotations: {pv.kubernetes.io/bound-by-controller: 'yes'}}\n"
    "  spec:\n    capacity: {storage: 100Gi}\n    accessModes: [ReadWriteOnce]\n"
    "    storageClassName: local\n    local: {path: /mnt/disks/ssd0}\n"
    "    claimRef: {namespace: ml, name: ckpt, uid: u-1}\n"
    "    nodeAffinity:\n      required:\n        nodeSelectorTerms:\n"
    "        - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [a]}]\n"
    "  status: {phase: Bound}\n"
    "- apiVersion: v1\n  kind: PersistentVolumeClaim\n"
    "  metadata: {name: ckpt, namespace: ml, uid: u-1, annotations: {pv.kubernetes.io/bind-completed: 'yes'}}\n"
    "  spec:\n    accessModes: [ReadWriteOnce]\n    resources: {requests: {storage: 50Gi}}\n"
    "    storageClassName: local\n    volumeName: local-a\n"
    "  status: {phase: Bound}\n"
    "- apiVersion: storage.k8s.io/v1\n  kind: StorageClass\n  metadata: {name: local}\n"
    "  provisioner: kubernetes.io/no-provisioner\n  volumeBindingMode: WaitForFirstConsumer\n"
    "- apiVersion: storage.k8s.io/v1\n  kind: StorageClass\n  metadata: {name: fast}\n  provisioner: ebs.csi.aws.com\n"
    "  allowedTopologies:\n  - matchLabelExpressions: [{key: topology.ebs.csi.aws.com/zone, values: [us-east-1a]}]\n"
    "- apiVersion: storage.k8s.io/v1\n  kind: CSINode\n  metadata: {name: a}\n"
    "  spec:\n    drivers:\n    - {name: ebs.csi.aws.com, nodeID: i-1, topologyKeys: [topology.ebs.csi.aws.com/zone], "
    "allocatable: {count: 25}}\n";

TEST(VolumeDecodeTest, DumpedObjectsAreKept) {
  Manifests m = Load(kDump);
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(Join(m.warnings), "");
  const VolumeObjects& v = m.api_objects.volumes;
  const PersistentVolume* pv = v.FindPv("local-a");
  ASSERT_NE(pv, nullptr);
  EXPECT_EQ(pv->storage_class, "local");
  EXPECT_EQ(pv->capacity->String(), "100Gi");
  EXPECT_EQ(pv->phase, "Bound");
  EXPECT_EQ(pv->source.kind, "local");
  EXPECT_TRUE(pv->has_claim_ref);
  EXPECT_EQ(pv->claim_uid, "u-1");
  ASSERT_EQ(pv->node_affinity.size(), 1u);
  EXPECT_EQ(pv->node_affinity[0].match_expressions[0].values, std::vector<std::string>{"a"});
  const PersistentVolumeClaim* pvc = v.FindPvc("ml", "ckpt");
  ASSERT_NE(pvc, nullptr);
  EXPECT_TRUE(pvc->FullyBound());
  EXPECT_EQ(pvc->Class(), "local");
  EXPECT_EQ(pvc->request->String(), "50Gi");
  EXPECT_EQ(pvc->volume_mode, "Filesystem");
  const StorageClass* local = v.FindClass("local");
  ASSERT_NE(local, nullptr);
  EXPECT_TRUE(local->WaitForFirstConsumer());
  const StorageClass* fast = v.FindClass("fast");
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(fast->volume_binding_mode, "Immediate");  // defaulted
  ASSERT_EQ(fast->allowed_topologies.size(), 1u);
  const CSINode* csi = v.FindCsiNode("a");
  ASSERT_NE(csi, nullptr);
  ASSERT_EQ(csi->drivers.size(), 1u);
  EXPECT_EQ(csi->drivers[0].allocatable_count, 25);
}

TEST(VolumeDecodeTest, HandWrittenObjectsAreBoundAsThePvControllerWould) {
  Manifests m = Load(
      "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-a}\n"
      "spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}\n---\n"
      "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-free}\n"
      "spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /free}}\n---\n"
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n"
      "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: pv-a}\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  const VolumeObjects& v = m.api_objects.volumes;
  EXPECT_TRUE(v.FindPvc("default", "data")->FullyBound());
  EXPECT_EQ(v.FindPvc("default", "data")->phase, "Bound");
  EXPECT_EQ(v.FindPv("pv-a")->phase, "Bound");
  EXPECT_EQ(v.FindPv("pv-a")->claim_name, "data");
  EXPECT_EQ(v.FindPv("pv-free")->phase, "Available");
}

TEST(VolumeDecodeTest, InvalidObjectsAreRefusedWithTheApiServersMessage) {
  Manifests m = Load(
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteSometimes]}\n"
      "---\n"
      "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: p}\nspec: {accessModes: [ReadWriteOnce]}\n---\n"
      "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: x\n"
      "volumeBindingMode: Later\n---\n"
      "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c2}\nspec: {resources: oops}\n---\n"
      "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: x\n---\n"
      "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: y\n");
  ASSERT_EQ(m.rejected.size(), 5u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:4: The PersistentVolumeClaim \"c\" is invalid: \n"
            "* spec.accessModes: Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", "
            "\"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"\n"
            "* spec.resources[storage]: Required value");
  EXPECT_EQ(m.rejected[1].ToString(),
            "t.yaml:9: The PersistentVolume \"p\" is invalid: \n"
            "* spec.capacity: Required value\n"
            "* spec.capacity: Unsupported value: core.ResourceList(nil): supported values: \"storage\"\n"
            "* spec: Required value: must specify a volume type");
  EXPECT_EQ(m.rejected[2].ToString(),
            "t.yaml:15: The StorageClass \"s\" is invalid: volumeBindingMode: Unsupported value: \"Later\": "
            "supported values: \"Immediate\", \"WaitForFirstConsumer\"");
  EXPECT_EQ(m.rejected[3].ToString(),
            "t.yaml:20: PersistentVolumeClaim in version \"v1\" cannot be handled as a PersistentVolumeClaim: "
            "json: cannot unmarshal string into Go struct field PersistentVolumeClaimSpec.spec.resources of type "
            "v1.VolumeResourceRequirements");
  EXPECT_EQ(m.rejected[4].ToString(), "t.yaml:27: storageclasses.storage.k8s.io \"s\" already exists");
}

TEST(VolumeDecodeTest, PodVolumesAreKeptForThePluginsThatReadThem) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
      "spec:\n  containers: [{name: c, image: i}]\n  volumes:\n"
      "  - {name: cfg, configMap: {name: x}}\n"
      "  - {name: data, persistentVolumeClaim: {claimName: ckpt, readOnly: true}}\n"
      "  - name: scratch\n    ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], "
      "resources: {requests: {storage: 1Gi}}}}}\n"
      "  - {name: disk, gcePersistentDisk: {pdName: pd-1}}\n"
      "  - {name: blk, rbd: {monitors: [m1, m2], image: img}}\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.pods.size(), 1u);
  const Pod& p = m.pods[0].pod;
  ASSERT_TRUE(p.HasVolumes());
  const auto& v = p.extras->volumes;
  ASSERT_EQ(v.size(), 4u);  // the configMap takes no part in scheduling
  EXPECT_EQ(v[0].kind, PodVolume::Kind::kClaim);
  EXPECT_EQ(v[0].claim_name, "ckpt");
  EXPECT_TRUE(v[0].read_only);
  EXPECT_EQ(v[1].kind, PodVolume::Kind::kEphemeral);
  EXPECT_EQ(v[1].ClaimName(p.name()), "p-scratch");
  EXPECT_EQ(v[2].source.kind, "gcePersistentDisk");
  EXPECT_EQ(v[2].source.id, "pd-1");
  EXPECT_EQ(v[3].source.rbd_pool, "rbd");
  EXPECT_EQ(v[3].source.rbd_monitors, (std::vector<std::string>{"m1", "m2"}));
}

TEST(VolumeDecodeTest, PodsWithClaimsInAnInputWithoutClaimsAreSaidOnce) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
      "spec: {containers: [{name: c, image: i}], volumes: [{name: d, persistentVolumeClaim: {claimName: x}}]}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: b, uid: u-b}\n"
      "spec:\n  containers: [{name: c, image: i}]\n"
      "  volumes: [{name: d, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], "
      "resources: {requests: {storage: 1Gi}}}}}}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(Join(m.warnings),
            "2 pods (the first default/a) mount PersistentVolumeClaims, but the input holds none: kube-scheduler "
            "keeps such pods pending (\"persistentvolumeclaim ... not found\"); add pv,pvc,storageclasses,csinodes "
            "to `kubectl get`\n");
}

// pkg/controller/ephemeral/controller.go handleVolume: a pod not created
// yet (no uid) gets the claim "<pod>-<volume>" from its template, owned by
// it; a claim of that name in the input is left as it is, and a dumped pod
// (with a uid) gets none.
TEST(VolumeDecodeTest, EphemeralVolumeClaimsAreCreatedForNewPods) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: train, namespace: ml}\n"
      "spec:\n  containers: [{name: c, image: i}]\n  volumes:\n"
      "  - name: scratch\n    ephemeral:\n      volumeClaimTemplate:\n"
      "        metadata: {labels: {team: r}, annotations: {a: b}}\n"
      "        spec: {accessModes: [ReadWriteOnce], storageClassName: ssd, resources: {requests: {storage: 200Gi}}}\n"
      "  - name: cache\n    ephemeral:\n      volumeClaimTemplate:\n"
      "        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
      "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: train-cache, namespace: ml}\n"
      "spec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 5Gi}}}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: old, namespace: ml, uid: u-old}\n"
      "spec:\n  containers: [{name: c, image: i}]\n  volumes:\n"
      "  - name: scratch\n    ephemeral:\n      volumeClaimTemplate:\n"
      "        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  const VolumeObjects& v = m.api_objects.volumes;
  const PersistentVolumeClaim* scratch = v.FindPvc("ml", "train-scratch");
  ASSERT_NE(scratch, nullptr);
  EXPECT_EQ(scratch->meta.labels.at("team"), "r");
  EXPECT_EQ(scratch->meta.annotations.at("a"), "b");
  EXPECT_EQ(scratch->storage_class_name, std::optional<std::string>("ssd"));
  EXPECT_EQ(scratch->access_modes, (std::vector<std::string>{"ReadWriteOnce"}));
  EXPECT_EQ(scratch->request->String(), "200Gi");
  EXPECT_TRUE(scratch->has_controller);
  EXPECT_EQ(scratch->phase, "Pending");
  const PersistentVolumeClaim* cache = v.FindPvc("ml", "train-cache");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->access_modes, (std::vector<std::string>{"ReadWriteMany"}));  // the input's, not made anew
  EXPECT_FALSE(cache->has_controller);
  EXPECT_EQ(v.FindPvc("ml", "old-scratch"), nullptr);
}

// The DefaultStorageClass admission plugin: a claim created without a class
// (here from an ephemeral volume's template) gets the default class, the
// newest of those marked default (creationTimestamp read from the input).
TEST(VolumeDecodeTest, ClaimsWithoutAClassGetTheDefaultClass) {
  Manifests m = Load(
      "apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
      "metadata: {name: gp2, creationTimestamp: '2023-01-01T00:00:00Z', "
      "annotations: {storageclass.kubernetes.io/is-default-class: 'true'}}\nprovisioner: ebs.csi.aws.com\n"
      "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
      "metadata: {name: gp3, creationTimestamp: '2025-01-01T00:00:00Z', "
      "annotations: {storageclass.kubernetes.io/is-default-class: 'true'}}\nprovisioner: ebs.csi.aws.com\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: train}\n"
      "spec:\n  containers: [{name: c, image: i}]\n  volumes:\n"
      "  - name: scratch\n    ephemeral:\n      volumeClaimTemplate:\n"
      "        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  const PersistentVolumeClaim* c = m.api_objects.volumes.FindPvc("default", "train-scratch");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->storage_class_name, std::optional<std::string>("gp3"));
}

TEST(VolumeDecodeTest, PodVolumeErrorsNameTheirIndex) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
      "spec:\n  containers: [{name: c, image: i}]\n  volumes:\n"
      "  - {name: cfg, configMap: {name: x}}\n"
      "  - {name: data, persistentVolumeClaim: {claimName: ''}}\n");
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:8: The Pod \"p\" is invalid: spec.volumes[1].persistentVolumeClaim.claimName: Required value");
}

}  // namespace
}  // namespace gpusched

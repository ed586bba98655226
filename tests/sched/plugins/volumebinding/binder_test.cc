// The binder's matching (binder.cc): volume.FindMatchingVolume in the
// scheduler's path, after component-helpers/storage/volume/pv_helpers.go and
// upstream's binder_test.go TestFindPodVolumesWithoutProvisioning cases
// (prebound PV, smallest fit, two claims that cannot share one PV,
// selected-node fast path).
#include "gpusched/sched/plugins/volumebinding/binder.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpusched {
namespace {

PersistentVolume Pv(const std::string& name, const std::string& cap, const std::string& node = "") {
  PersistentVolume v;
  v.meta.name = name;
  v.storage_class = "wait";
  v.phase = "Available";
  v.capacity = *Quantity::Parse(cap);
  v.access_modes = {"ReadWriteOnce"};
  if (!node.empty()) {
    v.has_node_affinity = true;
    v.node_affinity.push_back(NodeSelectorTerm{{{"kubernetes.io/hostname", "In", {node}}}, {}});
  }
  return v;
}

PersistentVolumeClaim Claim(const std::string& name, const std::string& req) {
  PersistentVolumeClaim c;
  c.meta.name = name;
  c.meta.namespace_ = "default";
  c.storage_class_name = "wait";
  c.access_modes = {"ReadWriteOnce"};
  c.request = *Quantity::Parse(req);
  return c;
}

Node NodeNamed(const std::string& name) {
  Node n;
  n.meta.name = name;
  n.meta.labels["kubernetes.io/hostname"] = name;
  return n;
}

TEST(BinderTest, FindMatchingVolumeTakesTheSmallestThatFits) {
  PersistentVolume small = Pv("small", "1Gi", "a"), mid = Pv("mid", "5Gi", "a"), big = Pv("big", "10Gi", "a");
  std::vector<const PersistentVolume*> pvs = {&big, &small, &mid};
  const PersistentVolumeClaim c = Claim("c", "2Gi");
  EXPECT_EQ(FindMatchingVolume(c, pvs, NodeNamed("a"), {}), &mid);
  EXPECT_EQ(FindMatchingVolume(c, pvs, NodeNamed("a"), {&mid}), &big);  // excluded: chosen for another claim
  EXPECT_EQ(FindMatchingVolume(c, pvs, NodeNamed("b"), {}), nullptr);   // node affinity
  // Not Available, another class, other access modes, Block mode, deleting,
  // a claimRef for another claim: none is taken.
  PersistentVolume pending = Pv("pending", "5Gi"), other = Pv("other", "5Gi"), rox = Pv("rox", "5Gi"),
                   block = Pv("block", "5Gi"), gone = Pv("gone", "5Gi"), held = Pv("held", "5Gi");
  pending.phase = "Pending";
  other.storage_class = "else";
  rox.access_modes = {"ReadOnlyMany"};
  block.volume_mode = "Block";
  gone.deleting = true;
  held.has_claim_ref = true;
  held.claim_namespace = "default";
  held.claim_name = "someone";
  EXPECT_EQ(FindMatchingVolume(c, {&pending, &other, &rox, &block, &gone, &held}, NodeNamed("a"), {}), nullptr);
  // Prebound to this claim: taken whatever its phase, unless its node
  // affinity fails (then no match at all, even with others available).
  PersistentVolume pre = Pv("pre", "5Gi", "a");
  pre.phase = "Pending";
  pre.has_claim_ref = true;
  pre.claim_namespace = "default";
  pre.claim_name = "c";
  EXPECT_EQ(FindMatchingVolume(c, {&small, &pre, &big}, NodeNamed("a"), {}), &pre);
  PersistentVolume free_b = Pv("free-b", "5Gi", "b");
  EXPECT_EQ(FindMatchingVolume(c, {&pre, &free_b}, NodeNamed("b"), {}), nullptr);
  // A selector on the claim.
  PersistentVolumeClaim sel = Claim("c", "1Gi");
  sel.selector = LabelSelector{{{"tier", "ssd"}}, {}};
  PersistentVolume ssd = Pv("ssd", "8Gi");
  ssd.meta.labels["tier"] = "ssd";
  EXPECT_EQ(FindMatchingVolume(sel, {&small, &ssd}, NodeNamed("a"), {}), &ssd);
}

TEST(BinderTest, FindPodVolumesTwoClaimsCannotShareOnePv) {
  VolumeObjects objects;
  StorageClass sc;
  sc.meta.name = "wait";
  sc.volume_binding_mode = "WaitForFirstConsumer";
  objects.Add(sc);
  objects.Add(Pv("only", "10Gi", "a"));
  PersistentVolumeClaim c1 = Claim("c1", "1Gi"), c2 = Claim("c2", "1Gi");
  objects.Add(c1);
  objects.Add(c2);
  Pod pod;
  pod.meta.name = "p";
  pod.meta.namespace_ = "default";
  auto extras = std::make_shared<PodSpecExtras>();
  for (const char* n : {"c1", "c2"}) {
    PodVolume v;
    v.name = n;
    v.kind = PodVolume::Kind::kClaim;
    v.claim_name = n;
    extras->volumes.push_back(v);
  }
  pod.extras = extras;
  PodVolumeClaims claims;
  bool has = false;
  ASSERT_EQ(GetPodVolumeClaims(pod, objects, claims, has), "");
  EXPECT_TRUE(has);
  ASSERT_EQ(claims.unbound_delay_binding.size(), 2u);
  FindResult r = FindPodVolumes(claims, objects, NodeNamed("a"));
  EXPECT_FALSE(r.unbound_satisfied);  // one PV for two claims, and no provisioner
  EXPECT_TRUE(r.bound_satisfied);
  // A claim whose provisioning already picked node b passes only there.
  PodVolumeClaims selected;
  PersistentVolumeClaim on_b = Claim("on-b", "1Gi");
  on_b.meta.annotations[kAnnSelectedNode] = "b";
  selected.unbound_delay_binding = {&on_b};
  selected.delay_binding_pvs = {{}};
  EXPECT_FALSE(FindPodVolumes(selected, objects, NodeNamed("a")).unbound_satisfied);
  EXPECT_FALSE(FindPodVolumes(selected, objects, NodeNamed("b")).unbound_satisfied);  // no provisioner either
  objects = VolumeObjects();
  sc.provisioner = "csi.example.com";
  objects.Add(sc);
  EXPECT_TRUE(FindPodVolumes(selected, objects, NodeNamed("b")).ok());
}

// What the diagnosis adds to "pod has unbound immediate PersistentVolumeClaims":
// why the pod's first such claim waits, by what the input holds of it.
TEST(BinderTest, ExplainUnboundImmediateClaim) {
  struct Case {
    std::string name;
    PersistentVolumeClaim claim;
    std::vector<StorageClass> classes;
    std::string want;
  };
  auto claim = [](std::optional<std::string> cls, std::string volume = "") {
    PersistentVolumeClaim c = Claim("data", "1Gi");
    c.storage_class_name = std::move(cls);
    c.volume_name = std::move(volume);
    return c;
  };
  auto cls = [](std::string name, std::string mode) {
    StorageClass sc;
    sc.meta.name = std::move(name);
    sc.volume_binding_mode = std::move(mode);
    return sc;
  };
  const std::vector<Case> cases = {
      {"class not in the input", claim("fast"), {},
       "claim default/data asks for StorageClass fast, which is not in the input: kube-scheduler then waits for the "
       "claim to be bound before placing the pod; add storageclasses to `kubectl get`, or create the class"},
      {"no class", claim(std::nullopt), {},
       "claim default/data has no StorageClass and none is marked default, so it waits for the PV controller to "
       "bind it to a PersistentVolume: create one that matches it, or give the claim a class"},
      {"Immediate class", claim("fast"), {cls("fast", "Immediate")},
       "claim default/data has StorageClass fast (volumeBindingMode Immediate): its volume is bound or provisioned "
       "before the pod is placed, and it is not yet"},
      {"prebound to a volume not bound yet", claim("fast", "pv-1"), {cls("fast", "WaitForFirstConsumer")},
       "claim default/data names PersistentVolume pv-1, which it is not bound to yet (the PV controller binds it; is "
       "the PV in the input?)"},
      {"WaitForFirstConsumer: not immediate", claim("fast"), {cls("fast", "WaitForFirstConsumer")}, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    VolumeObjects v;
    ASSERT_TRUE(v.Add(c.claim));
    for (const StorageClass& sc : c.classes) ASSERT_TRUE(v.Add(sc));
    Pod pod;
    pod.meta.name = "p";
    pod.meta.namespace_ = "default";
    auto extras = std::make_shared<PodSpecExtras>();
    PodVolume vol;
    vol.name = "d";
    vol.kind = PodVolume::Kind::kClaim;
    vol.claim_name = "data";
    extras->volumes.push_back(vol);
    pod.extras = std::move(extras);
    EXPECT_EQ(ExplainUnboundImmediateClaim(pod, v), c.want);
  }
}

}  // namespace
}  // namespace gpusched

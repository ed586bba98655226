// Reserve's assumptions replayed from the cluster's binds (assume_cache.cc):
// a PV a bound pod's WaitForFirstConsumer claim took is no longer available
// to another claim, and a pod sharing that claim must go where the PV is;
// a claim provisioned for a pod on a node is provisioned there for the next
// pod that shares it (binder.go AssumePodVolumes with upstream's assume
// caches).
#include "gpusched/sched/plugins/volumebinding/assume_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/volumebinding/volume_binding.h"

namespace gpusched {
namespace {

Node NodeNamed(const std::string& name) {
  Node n;
  n.meta.name = name;
  n.meta.labels["kubernetes.io/hostname"] = name;
  return n;
}

Pod PodWithClaim(const std::string& name, const std::string& claim) {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "default";
  auto extras = std::make_shared<PodSpecExtras>();
  PodVolume v;
  v.name = "data";
  v.kind = PodVolume::Kind::kClaim;
  v.claim_name = claim;
  extras->volumes.push_back(v);
  p.extras = extras;
  return p;
}

PersistentVolumeClaim Claim(const std::string& name) {
  PersistentVolumeClaim c;
  c.meta.name = name;
  c.meta.namespace_ = "default";
  c.storage_class_name = "local";
  return c;
}

// The verdict of `pod` on each node, "" for a pass.
std::vector<std::string> Verdicts(const VolumeBinding& plugin, const Pod& pod, const ClusterState& cluster) {
  PodInfo info = PodInfo::Make(pod, 99);
  SchedStatus reject = SchedStatus::Success();
  auto data = plugin.PreFilter(info, cluster, reject);
  EXPECT_TRUE(reject.IsSuccess());
  CycleState cycle;
  if (data) cycle.Put(&plugin, std::move(data));
  info.cycle = &cycle;
  std::vector<std::string> out;
  for (size_t i = 0; i < cluster.size(); ++i) {
    SchedStatus s = plugin.Filter(info, cluster.node(i), cluster.state(i));
    out.push_back(s.IsSuccess() ? "" : s.reasons()[0]);
  }
  return out;
}

const std::string kBind = "node(s) didn't find available persistent volumes to bind";

TEST(AssumeCacheTest, APvTakenByABoundPodsClaimIsNotAvailableAnyMore) {
  auto objects = std::make_shared<ApiObjects>();
  StorageClass sc;
  sc.meta.name = "local";
  sc.provisioner = "kubernetes.io/no-provisioner";
  sc.volume_binding_mode = "WaitForFirstConsumer";
  objects->volumes.Add(sc);
  for (const char* node : {"a", "b"}) {
    PersistentVolume pv;
    pv.meta.name = std::string("pv-") + node;
    pv.storage_class = "local";
    pv.phase = "Available";
    pv.capacity = *Quantity::Parse("10Gi");
    pv.has_node_affinity = true;
    pv.node_affinity.push_back(NodeSelectorTerm{{{"kubernetes.io/hostname", "In", {node}}}, {}});
    objects->volumes.Add(pv);
  }
  for (const char* c : {"c0", "c1", "c2"}) objects->volumes.Add(Claim(c));
  ClusterState cluster(std::vector<Node>{NodeNamed("a"), NodeNamed("b")});
  cluster.set_objects(objects);
  VolumeBinding plugin;
  const Pod p0 = PodWithClaim("p0", "c0"), p1 = PodWithClaim("p1", "c1"), p2 = PodWithClaim("p2", "c2");
  EXPECT_EQ(Verdicts(plugin, p0, cluster), (std::vector<std::string>{"", ""}));
  cluster.Bind(0, {}, {}, 0, 0, {}, {}, &p0);  // p0 on a: c0 takes pv-a
  EXPECT_EQ(Verdicts(plugin, p1, cluster), (std::vector<std::string>{kBind, ""}));
  cluster.Bind(1, {}, {}, 1, 0, {}, {}, &p1);  // p1 on b: c1 takes pv-b
  EXPECT_EQ(Verdicts(plugin, p2, cluster), (std::vector<std::string>{kBind, kBind}));
  // A second pod on claim c0 goes where c0's PV is.
  const Pod again = PodWithClaim("again", "c0");
  EXPECT_EQ(Verdicts(plugin, again, cluster), (std::vector<std::string>{"", kBind}));
  // Once assumed, a binding stays when the pod goes (the PV controller has bound it).
  cluster.Unbind(0, 0);
  EXPECT_EQ(Verdicts(plugin, again, cluster), (std::vector<std::string>{"", kBind}));
}

TEST(AssumeCacheTest, AProvisionedClaimStaysOnItsNode) {
  auto objects = std::make_shared<ApiObjects>();
  StorageClass sc;
  sc.meta.name = "local";
  sc.provisioner = "csi.example.com";
  sc.volume_binding_mode = "WaitForFirstConsumer";
  objects->volumes.Add(sc);
  objects->volumes.Add(Claim("shared"));
  ClusterState cluster(std::vector<Node>{NodeNamed("a"), NodeNamed("b")});
  cluster.set_objects(objects);
  VolumeBinding plugin;
  const Pod first = PodWithClaim("first", "shared"), second = PodWithClaim("second", "shared");
  EXPECT_EQ(Verdicts(plugin, first, cluster), (std::vector<std::string>{"", ""}));
  cluster.Bind(1, {}, {}, 0, 0, {}, {}, &first);
  EXPECT_EQ(Verdicts(plugin, second, cluster), (std::vector<std::string>{kBind, ""}));
}

}  // namespace
}  // namespace gpusched

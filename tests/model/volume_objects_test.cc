// The component-helpers rules of model/volume_objects.h: CheckNodeAffinity,
// MatchTopologySelectorTerms, IsVolumeBoundToClaim, CheckAccessModes,
// GetPersistentVolumeClaimClass, and the PV controller's completion of
// hand-written objects.
#include "gpusched/model/volume_objects.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(VolumeObjectsTest, PvNodeAffinityMatchesLabelsOnly) {
  PersistentVolume pv;
  EXPECT_TRUE(PvNodeAffinityMatches(pv, {}));  // no nodeAffinity: any node
  pv.has_node_affinity = true;
  pv.node_affinity.push_back(NodeSelectorTerm{{{"zone", "In", {"a"}}}, {}});
  EXPECT_TRUE(PvNodeAffinityMatches(pv, {{"zone", "a"}}));
  EXPECT_FALSE(PvNodeAffinityMatches(pv, {{"zone", "b"}}));
  // CheckNodeAffinity builds a node of labels only, which has no fields
  // (nodeaffinity's extractNodeFields sets metadata.name only for a name),
  // and nodeSelectorTerm.match compares the matchFields only when there are
  // fields: a matchFields term passes every node, In or NotIn.
  PersistentVolume by_name;
  by_name.has_node_affinity = true;
  by_name.node_affinity.push_back(NodeSelectorTerm{{}, {{"metadata.name", "In", {"a"}}}});
  EXPECT_TRUE(PvNodeAffinityMatches(by_name, {{"kubernetes.io/hostname", "b"}}));
  by_name.node_affinity[0].match_fields[0].op = "NotIn";
  EXPECT_TRUE(PvNodeAffinityMatches(by_name, {}));
  // Its labels still count, and a term that fails to parse matches nothing.
  by_name.node_affinity[0].match_expressions.push_back({"zone", "In", {"a"}});
  EXPECT_FALSE(PvNodeAffinityMatches(by_name, {{"zone", "b"}}));
  by_name.node_affinity[0].match_fields[0].values.push_back("c");
  EXPECT_FALSE(PvNodeAffinityMatches(by_name, {{"zone", "a"}}));
}

TEST(VolumeObjectsTest, MatchTopologySelectorTerms) {
  // pkg/apis/core/v1/helper/helpers_test.go TestMatchTopologySelectorTerms.
  using T = std::vector<TopologySelectorTerm>;
  EXPECT_TRUE(MatchTopologySelectorTerms(T{}, {{"k", "v"}}));           // nil term list
  EXPECT_FALSE(MatchTopologySelectorTerms(T{TopologySelectorTerm{}}, {{"k", "v"}}));  // nil term
  T one = {TopologySelectorTerm{{{"label_1", {"label_1_val"}}}}};
  EXPECT_TRUE(MatchTopologySelectorTerms(one, {{"label_1", "label_1_val"}}));
  EXPECT_FALSE(MatchTopologySelectorTerms(one, {{"label_1", "label_1_val_x"}}));
  EXPECT_FALSE(MatchTopologySelectorTerms(one, {{"label_2", "label_1_val"}}));
  T and_ = {TopologySelectorTerm{{{"label_1", {"label_1_val"}}, {"label_2", {"label_2_val"}}}}};
  EXPECT_TRUE(MatchTopologySelectorTerms(and_, {{"label_1", "label_1_val"}, {"label_2", "label_2_val"}}));
  EXPECT_FALSE(MatchTopologySelectorTerms(and_, {{"label_1", "label_1_val"}}));
  T or_ = {TopologySelectorTerm{{{"label_1", {"label_1_val"}}}}, TopologySelectorTerm{{{"label_2", {"label_2_val"}}}}};
  EXPECT_TRUE(MatchTopologySelectorTerms(or_, {{"label_2", "label_2_val"}}));
  EXPECT_FALSE(MatchTopologySelectorTerms(or_, {{"label_3", "label_3_val"}}));
}

TEST(VolumeObjectsTest, BindingHelpers) {
  PersistentVolumeClaim c;
  c.meta.name = "c";
  c.meta.namespace_ = "ns";
  c.meta.uid = "u1";
  PersistentVolume pv;
  EXPECT_FALSE(IsVolumeBoundToClaim(pv, c));
  pv.has_claim_ref = true;
  pv.claim_namespace = "ns";
  pv.claim_name = "c";
  EXPECT_TRUE(IsVolumeBoundToClaim(pv, c));  // no uid in the claimRef
  pv.claim_uid = "u2";
  EXPECT_FALSE(IsVolumeBoundToClaim(pv, c));
  c.access_modes = {"ReadWriteOnce"};
  pv.access_modes = {"ReadWriteOnce", "ReadOnlyMany"};
  EXPECT_TRUE(CheckAccessModes(c, pv));
  c.access_modes.push_back("ReadWriteMany");
  EXPECT_FALSE(CheckAccessModes(c, pv));
  EXPECT_EQ(c.Class(), "");
  c.storage_class_name = "fast";
  EXPECT_EQ(c.Class(), "fast");
  c.meta.annotations[kAnnBetaStorageClass] = "beta";
  EXPECT_EQ(c.Class(), "beta");
}

TEST(VolumeObjectsTest, CompleteHandWrittenLeavesDumpsAlone) {
  VolumeObjects v;
  PersistentVolume bound_elsewhere;
  bound_elsewhere.meta.name = "taken";
  bound_elsewhere.has_claim_ref = true;
  bound_elsewhere.claim_namespace = "default";
  bound_elsewhere.claim_name = "other";
  v.Add(bound_elsewhere);
  PersistentVolume dumped;
  dumped.meta.name = "released";
  dumped.phase = "Released";
  dumped.has_status = true;
  v.Add(dumped);
  PersistentVolumeClaim want;
  want.meta.name = "c";
  want.meta.namespace_ = "default";
  want.volume_name = "taken";  // held by another claim: not bound
  v.Add(want);
  v.CompleteHandWritten();
  EXPECT_FALSE(v.FindPvc("default", "c")->FullyBound());
  EXPECT_EQ(v.FindPv("taken")->phase, "Pending");
  EXPECT_EQ(v.FindPv("released")->phase, "Released");
  EXPECT_EQ(v.PvsOfClass("").size(), 2u);
}

}  // namespace
}  // namespace gpusched

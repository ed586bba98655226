// The component-helpers rules of model/volume_objects.h: CheckNodeAffinity,
// MatchTopologySelectorTerms, IsVolumeBoundToClaim, CheckAccessModes,
// GetPersistentVolumeClaimClass, and the PV controller's completion of
// hand-written objects.
#include "gpusched/model/volume_objects.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

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

// GetDefaultClass: only "true" marks a default (either annotation); of
// several, the newest, then the first by name. AssignDefaultClass: an
// unbound claim without a class gets it; "" (no class, asked for), the beta
// annotation and a claim naming its volume are left as they are.
TEST(VolumeObjectsTest, DefaultStorageClass) {
  auto cls = [](std::string name, std::string ann, std::string value, std::string created) {
    StorageClass sc;
    sc.meta.name = std::move(name);
    if (!ann.empty()) sc.meta.annotations[ann] = std::move(value);
    sc.creation_timestamp = std::move(created);
    return sc;
  };
  struct Case {
    std::string name;
    std::vector<StorageClass> classes;
    std::string want;  // "" : none
  };
  const std::vector<Case> cases = {
      {"none marked", {cls("a", "", "", "")}, ""},
      {"\"false\" is not default", {cls("a", kAnnDefaultStorageClass, "false", "")}, ""},
      {"GA annotation", {cls("a", ""  , "", ""), cls("b", kAnnDefaultStorageClass, "true", "")}, "b"},
      {"beta annotation", {cls("a", kAnnBetaDefaultStorageClass, "true", "")}, "a"},
      {"the newest of two",
       {cls("old", kAnnDefaultStorageClass, "true", "2024-01-01T00:00:00Z"),
        cls("new", kAnnDefaultStorageClass, "true", "2025-06-01T00:00:00Z")},
       "new"},
      {"same time: the first by name",
       {cls("zeta", kAnnDefaultStorageClass, "true", "2025-06-01T00:00:00Z"),
        cls("alpha", kAnnDefaultStorageClass, "true", "2025-06-01T00:00:00Z")},
       "alpha"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    VolumeObjects v;
    for (const StorageClass& sc : c.classes) ASSERT_TRUE(v.Add(sc));
    const StorageClass* d = v.DefaultClass();
    EXPECT_EQ(d ? d->name() : std::string(), c.want);
  }

  VolumeObjects v;
  ASSERT_TRUE(v.Add(cls("fast", kAnnDefaultStorageClass, "true", "")));
  auto claim = [](std::string name) {
    PersistentVolumeClaim pvc;
    pvc.meta.name = std::move(name);
    pvc.meta.namespace_ = "ml";
    return pvc;
  };
  PersistentVolumeClaim none = claim("none"), empty = claim("empty"), beta = claim("beta"), named = claim("named"),
                        other = claim("other");
  empty.storage_class_name = "";
  beta.meta.annotations[kAnnBetaStorageClass] = "slow";
  named.volume_name = "pv-1";
  other.storage_class_name = "slow";
  for (const PersistentVolumeClaim& p : {none, empty, beta, named, other}) ASSERT_TRUE(v.Add(p));
  v.AssignDefaultClass();
  EXPECT_EQ(v.FindPvc("ml", "none")->storage_class_name, std::optional<std::string>("fast"));
  EXPECT_EQ(v.FindPvc("ml", "empty")->storage_class_name, std::optional<std::string>(""));
  EXPECT_EQ(v.FindPvc("ml", "beta")->storage_class_name, std::nullopt);
  EXPECT_EQ(v.FindPvc("ml", "beta")->Class(), "slow");
  EXPECT_EQ(v.FindPvc("ml", "named")->storage_class_name, std::nullopt);
  EXPECT_EQ(v.FindPvc("ml", "other")->storage_class_name, std::optional<std::string>("slow"));
}

}  // namespace
}  // namespace gpusched

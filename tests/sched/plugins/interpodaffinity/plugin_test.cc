// InterPodAffinity's queueing hints (plugin.go isSchedulableAfterPodChange
// for an added and a deleted assigned pod, isSchedulableAfterNodeChange for
// an added node), in the shape of upstream's plugin_test.go tables, and
// its explain text for each kind of rejection.
#include <gtest/gtest.h>

#include "affinity_test_util.h"

namespace gpusched {
namespace {

using testing::LabeledNode;
using testing::MakePod;
using testing::Snapshot;

TEST(InterPodAffinityHintsTest, AssignedPodAddedAndDeleted) {
  const InterPodAffinity pl;
  const Pod target = MakePod().Name("t").AffinityIn("service", "region", {"securityscan", "value2"})
                         .AntiIn("aaa", "region", {"a"});
  const PodInfo info = PodInfo::Make(target, 0);
  const Node node = LabeledNode("n", {{"region", "r1"}});
  struct Case {
    const char* name;
    Pod pod;
    bool added, deleted;  // Queue on add, on delete
  } cases[] = {
      {"a pod matching the affinity", MakePod().Label("service", "securityscan"), true, false},
      {"a pod matching neither", MakePod().Label("service", "other"), false, false},
      {"a pod matching the anti-affinity", MakePod().Label("aaa", "a"), false, true},
      {"another namespace", MakePod().Namespace("other").Label("service", "securityscan").Label("aaa", "a"), false,
       false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(pl.QueueOnAssignedPodAdded(info, c.pod, node), c.added);
    EXPECT_EQ(pl.QueueOnPodDeleted(info, c.pod), c.deleted);
  }
  // A pod without terms: nothing added or deleted helps it by this plugin's
  // account (a deleted pod whose anti-affinity kept it away is not looked at).
  const Pod plain_pod = MakePod().Label("aaa", "a");
  const PodInfo plain = PodInfo::Make(plain_pod, 1);
  EXPECT_FALSE(pl.QueueOnAssignedPodAdded(plain, MakePod().AntiExists("aaa", "region"), node));
  EXPECT_FALSE(pl.QueueOnPodDeleted(plain, MakePod().AntiExists("aaa", "region")));
}

TEST(InterPodAffinityHintsTest, NodeAdded) {
  const InterPodAffinity pl;
  // PodInfo points at its Pod: the pods outlive them.
  const Pod aff_pod = MakePod().AffinityIn("service", "zone", {"s"});
  const Pod anti_pod = MakePod().AntiIn("service", "zone", {"s"});
  const Pod none_pod = MakePod();
  const PodInfo aff = PodInfo::Make(aff_pod, 0);
  const PodInfo anti = PodInfo::Make(anti_pod, 1);
  const NodeState empty;
  EXPECT_TRUE(pl.QueueOnNodeAdded(aff, LabeledNode("n", {{"zone", "z1"}}), empty));
  EXPECT_TRUE(pl.QueueOnNodeAdded(anti, LabeledNode("n", {{"zone", "z1"}}), empty));
  EXPECT_FALSE(pl.QueueOnNodeAdded(aff, LabeledNode("n", {{"region", "r1"}}), empty));
  EXPECT_FALSE(pl.QueueOnNodeAdded(PodInfo::Make(none_pod, 2), LabeledNode("n", {{"zone", "z1"}}), empty));
}

TEST(InterPodAffinityExplainTest, SaysWhatRejectsTheNode) {
  const InterPodAffinity pl;
  Snapshot s({LabeledNode("a", {{"zone", "z1"}, {"kubernetes.io/hostname", "a"}}),
              LabeledNode("b", {{"zone", "z1"}, {"kubernetes.io/hostname", "b"}}),
              LabeledNode("c", {{"kubernetes.io/hostname", "c"}})},
             {MakePod().Name("guard").Namespace("ml").Node("a").Label("app", "guard").AntiExists("app", "zone"),
              MakePod().Name("cache").Namespace("ml").Node("a").Label("app", "cache")});
  auto explain = [&](const Pod& pod, size_t node) {
    PodInfo info = PodInfo::Make(pod, 1000);
    SchedStatus reject = SchedStatus::Success();
    CycleState cycle;
    cycle.Put(&pl, pl.PreFilter(info, s.cluster, reject));
    info.cycle = &cycle;
    return pl.ExplainRejection(info, s.cluster.node(node), s.cluster.state(node));
  };
  // Existing pods' anti-affinity, from the other node of the zone.
  EXPECT_EQ(explain(MakePod().Namespace("ml").Label("app", "web"), 1),
            "node a runs ml/guard, whose anti-affinity forbids this pod on the same zone");
  // The pod's anti-affinity.
  EXPECT_EQ(explain(MakePod().Namespace("ml").AntiIn("app", "zone", {"cache"}), 1),
            "node a runs ml/cache, which this pod's anti-affinity forbids on the same zone");
  // The pod's affinity: the node lacks the key, or no pod matches there.
  EXPECT_EQ(explain(MakePod().Namespace("ml").AffinityIn("app", "zone", {"web"}).Label("x", "y"), 2),
            "node c has no label zone, which this pod's affinity needs");
  EXPECT_EQ(explain(MakePod().Namespace("ml").AffinityIn("app", "kubernetes.io/hostname", {"cache"}), 1),
            "no pod matching all of this pod's affinity terms runs in kubernetes.io/hostname=b");
}

}  // namespace
}  // namespace gpusched

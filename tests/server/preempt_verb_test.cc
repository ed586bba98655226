#include "gpusched/server/preempt_verb.h"

#include <gtest/gtest.h>

#include "gpusched/server/cluster_view.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using testing::DecodeNode;
using testing::DecodePod;
using testing::NodeJson;
using testing::PodJson;
using json = nlohmann::json;

json WithPriority(json pod, int priority) {
  pod["spec"]["priority"] = priority;
  return pod;
}

struct Case {
  std::string name;
  std::vector<json> running;  // in bind order (earlier = started earlier)
  json preemptor;
  NodeToMetaVictims proposed;
  NodeToMetaVictims want;
};

TEST(PreemptVerbTest, VictimsPerCandidate) {
  json no_uid = WithPriority(PodJson("ml", "anon", 4, 0, "n8"), 0);
  no_uid["metadata"].erase("uid");
  const std::vector<Case> cases = {
      {"minimal victims: of two equal pods the one started first is reprieved first, so the later one goes",
       {WithPriority(PodJson("ml", "a", 4, 0, "n8"), 0), WithPriority(PodJson("ml", "b", 4, 0, "n8"), 0)},
       WithPriority(PodJson("ml", "urgent", 4), 100),
       {{"n8", {{"uid-ml-a", "uid-ml-b"}, 0}}},
       {{"n8", {{"uid-ml-b"}, 0}}}},
      {"the lower priority goes before the earlier start",
       {WithPriority(PodJson("ml", "a", 4, 0, "n8"), 0), WithPriority(PodJson("ml", "b", 4, 0, "n8"), -5)},
       WithPriority(PodJson("ml", "urgent", 4), 100),
       {{"n8", {{"uid-ml-a"}, 2}}},
       {{"n8", {{"uid-ml-b"}, 2}}}},
      {"shares: kube-scheduler sees no GPU shortage (gpu-milli is ignoredByScheduler) and proposes no victim; "
       "600 milli of one GPU needs the 500-milli pod gone",
       {WithPriority(PodJson("ml", "s1", 0, 500, "n1"), 0), WithPriority(PodJson("ml", "s2", 0, 400, "n1"), 0)},
       WithPriority(PodJson("ml", "share", 0, 600), 100),
       {{"n1", {{}, 0}}},
       {{"n1", {{"uid-ml-s1"}, 0}}}},
      {"a higher-priority pod holds the GPUs: the node is dropped",
       {WithPriority(PodJson("ml", "vip", 8, 0, "n8"), 1000)},
       WithPriority(PodJson("ml", "urgent", 4), 100),
       {{"n8", {{"uid-ml-vip"}, 0}}},
       {}},
      {"nothing to evict (upstream: \"No preemption victims found for incoming pod\"): the node is dropped",
       {},
       WithPriority(PodJson("ml", "urgent", 4), 100),
       {{"n8", {{}, 0}}},
       {}},
      {"a node gpusched does not know is dropped",
       {},
       WithPriority(PodJson("ml", "urgent", 4), 100),
       {{"elsewhere", {{"uid-x"}, 0}}},
       {}},
      {"a victim without a UID cannot be named: the node is dropped",
       {no_uid},
       WithPriority(PodJson("ml", "urgent", 8), 100),
       {{"n8", {{}, 0}}},
       {}},
  };
  for (const Case& c : cases) {
    ClusterView view;
    view.ReplaceNodes({DecodeNode(NodeJson("n8", 8)), DecodeNode(NodeJson("n1", 1))});
    for (const json& p : c.running) view.UpsertPod(DecodePod(p));
    Result<SchedulerSet> set = testing::Factory("kube-default")(view);
    ASSERT_TRUE(set.ok()) << set.status().message();
    const Pod preemptor = DecodePod(c.preemptor);
    const PodInfo info = PodInfo::Make(preemptor, 0);
    const NodeToMetaVictims got = ExtenderPreemptVictims(info, view.cluster(), *set->profiles.front().second,
                                                         c.proposed, [&](uint64_t id) { return view.UidOf(id); });
    EXPECT_EQ(got, c.want) << c.name;
  }
}

// The preemptor's required anti-affinity keeps the pod it forbids among the
// victims, though the GPUs alone would fit beside it: the verb runs the
// preemptor's PreFilter (without it, InterPodAffinity passed every node and
// the node was dropped for want of a victim).
TEST(PreemptVerbTest, VictimsResolveAntiAffinity) {
  json node = NodeJson("n8", 8);
  node["metadata"]["labels"] = {{"kubernetes.io/hostname", "n8"}};
  json infer = WithPriority(PodJson("ml", "infer-0", 2, 0, "n8"), 0);
  infer["metadata"]["labels"] = {{"app", "infer"}};
  json other = WithPriority(PodJson("ml", "batch", 2, 0, "n8"), 0);
  json preemptor = WithPriority(PodJson("ml", "infer-1", 6), 100);
  preemptor["metadata"]["labels"] = {{"app", "infer"}};
  preemptor["spec"]["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] =
      json::array({{{"labelSelector", {{"matchLabels", {{"app", "infer"}}}}},
                    {"topologyKey", "kubernetes.io/hostname"}}});
  ClusterView view;
  view.ReplaceNodes({DecodeNode(node)});
  view.UpsertPod(DecodePod(infer));
  view.UpsertPod(DecodePod(other));
  Result<SchedulerSet> set = testing::Factory("kube-default")(view);
  ASSERT_TRUE(set.ok()) << set.status().message();
  const Pod p = DecodePod(preemptor);
  const PodInfo info = PodInfo::Make(p, 0);
  const NodeToMetaVictims got =
      ExtenderPreemptVictims(info, view.cluster(), *set->profiles.front().second,
                             {{"n8", {{"uid-ml-infer-0", "uid-ml-batch"}, 0}}}, [&](uint64_t id) { return view.UidOf(id); });
  // 6 GPUs need one of the two 2-GPU pods gone; batch is reprieved (its
  // going is not needed once infer-0, which the anti-affinity forbids, is).
  const NodeToMetaVictims want = {{"n8", {{"uid-ml-infer-0"}, 0}}};
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace gpusched

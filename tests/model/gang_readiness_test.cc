// GangReady / GangShortfalls: the minimums Volcano and KAI check, from
// volcano-sh/volcano pkg/scheduler/api/job_info.go (IsReady, CheckTaskReady:
// no task checked when minMember < the sum of minTaskMember) and
// NVIDIA/KAI-Scheduler pkg/scheduler/api/podgroup_info (IsGangSatisfied over
// the PodSets; subgroup_info/factory.go: leaves are PodSets with
// max(minMember, 1), parents have no minimum, the PodGroup's minMember only
// for the "default" PodSet of a PodGroup without subGroups).
#include "gpusched/model/gang_readiness.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace gpusched {
namespace {

Gang MakeGang(GangApi api, int32_t min, std::vector<GangSubgroup> subgroups) {
  Gang g;
  g.api = api;
  g.ns = "ml";
  g.name = "pg";
  g.key = "ml/pg";
  g.min_count = min;
  g.subgroups = std::move(subgroups);
  return g;
}

GangCount Count(const std::vector<std::pair<std::string, int64_t>>& by) {
  GangCount c;
  for (const auto& [s, n] : by) c.Add(s, n);
  return c;
}

std::string Text(const std::vector<GangShortfall>& fs) {
  std::string out;
  for (const GangShortfall& f : fs)
    out += (out.empty() ? "" : " ") + (f.subgroup.empty() ? std::string("<gang>") : f.subgroup) + ":" +
           std::to_string(f.have) + "/" + std::to_string(f.min);
  return out;
}

std::string Text(const std::vector<GangMinimum>& ms) {
  std::string out;
  for (const GangMinimum& m : ms)
    out += (out.empty() ? "" : " ") + (m.subgroup.empty() ? std::string("<gang>") : m.subgroup) + ":" +
           std::to_string(m.min);
  return out;
}

TEST(GangReadinessTest, Shortfalls) {
  struct Case {
    const char* name;
    Gang gang;
    std::vector<std::pair<std::string, int64_t>> placed;
    std::string want;  // shortfalls, "" when ready
  };
  const Gang vol = MakeGang(GangApi::kVolcano, 3, {{"worker", 2, ""}, {"ps", 1, ""}});
  const Gang vol_low = MakeGang(GangApi::kVolcano, 1, {{"worker", 1, ""}, {"ps", 1, ""}});
  const Gang vol_zero = MakeGang(GangApi::kVolcano, 1, {{"worker", 0, ""}, {"ps", 1, ""}});
  const Gang kai = MakeGang(GangApi::kKai, 3, {{"master", 1, ""}, {"worker", 2, ""}});
  const Gang kai_high = MakeGang(GangApi::kKai, 5, {{"master", 1, ""}, {"worker", 2, ""}});
  const Gang kai_nested = MakeGang(GangApi::kKai, 3,
                                   {{"decode", 3, ""},
                                    {"decode-leader", 1, "decode"},
                                    {"decode-workers", 1, "decode"},
                                    {"prefill", 1, ""}});
  const Gang kai_upper = MakeGang(GangApi::kKai, 1, {{"decode", 2, ""}, {"leader", 1, "Decode"}});
  const Gang kai_zero = MakeGang(GangApi::kKai, 1, {{"worker", 0, ""}});
  const Gang kai_plain = MakeGang(GangApi::kKai, 2, {});
  const Gang cos = MakeGang(GangApi::kCoscheduling, 2, {});
  const Case cases[] = {
      {"volcano: 3 workers placed, no ps: minMember met, task ps short", vol, {{"worker", 3}}, "ps:0/1"},
      {"volcano: 2 workers + 1 ps: ready", vol, {{"worker", 2}, {"ps", 1}}, ""},
      {"volcano: 1 worker + 1 ps: minMember and task worker short", vol, {{"worker", 1}, {"ps", 1}},
       "<gang>:2/3 worker:1/2"},
      {"volcano: members of no task count for minMember only", vol, {{"", 1}, {"worker", 2}}, "ps:0/1"},
      {"volcano: minMember 1 below the task minimums' sum 2: no task checked", vol_low, {{"worker", 1}}, ""},
      {"volcano: minMember 1 below the sum, nothing placed: minMember short", vol_low, {}, "<gang>:0/1"},
      {"volcano: a task minimum of 0 asks nothing, ps 1 is checked", vol_zero, {{"worker", 1}}, "ps:0/1"},
      {"kai: master 1 + worker 2: ready", kai, {{"master", 1}, {"worker", 2}}, ""},
      {"kai: 3 workers, no master: subgroup master short", kai, {{"worker", 3}}, "master:0/1"},
      {"kai: master 1 + worker 1", kai, {{"master", 1}, {"worker", 1}}, "worker:1/2"},
      {"kai: PodGroup minMember 5 not checked with subGroups", kai_high, {{"master", 1}, {"worker", 2}}, ""},
      {"kai: members in no leaf count for nothing", kai, {{"", 5}, {"worker", 2}}, "master:0/1"},
      {"kai nested: the leaves met; parent decode's minMember 3 not checked", kai_nested,
       {{"decode-leader", 1}, {"decode-workers", 1}, {"prefill", 1}}, ""},
      {"kai nested: members labelled with the parent count for no leaf", kai_nested, {{"decode", 3}, {"prefill", 1}},
       "decode-leader:0/1 decode-workers:0/1"},
      {"kai nested: parent named in another case is still the parent", kai_upper, {{"leader", 1}}, ""},
      {"kai: leaf minMember 0 is 1", kai_zero, {}, "worker:0/1"},
      {"kai without subGroups: the PodGroup's minMember", kai_plain, {{"", 1}}, "<gang>:1/2"},
      {"kai without subGroups: labels do not matter", kai_plain, {{"a", 1}, {"b", 1}}, ""},
      {"coscheduling: minMember", cos, {{"", 2}}, ""},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Text(GangShortfalls(c.gang, Count(c.placed))), c.want) << c.name;
    EXPECT_EQ(GangReady(c.gang, Count(c.placed)), c.want.empty()) << c.name;
  }
}

TEST(GangReadinessTest, EnforcedMinimumsAndSmallestReadyCount) {
  struct Case {
    const char* name;
    Gang gang;
    std::string want;
    int64_t smallest;
  };
  const Case cases[] = {
      {"volcano: minMember then each task", MakeGang(GangApi::kVolcano, 3, {{"worker", 2, ""}, {"ps", 1, ""}}),
       "<gang>:3 worker:2 ps:1", 3},
      {"volcano: minMember above the tasks' sum", MakeGang(GangApi::kVolcano, 5, {{"worker", 2, ""}, {"ps", 1, ""}}),
       "<gang>:5 worker:2 ps:1", 5},
      {"volcano: minMember below the sum: no task", MakeGang(GangApi::kVolcano, 1, {{"worker", 1, ""}, {"ps", 1, ""}}),
       "<gang>:1", 1},
      {"kai: the leaves only, at least 1",
       MakeGang(GangApi::kKai, 9, {{"decode", 3, ""}, {"l", 0, "decode"}, {"w", 2, "decode"}, {"p", 1, ""}}),
       "l:1 w:2 p:1", 4},
      {"kai: no subGroups", MakeGang(GangApi::kKai, 2, {}), "<gang>:2", 2},
      {"workload API", MakeGang(GangApi::kWorkloadV1alpha1, 4, {}), "<gang>:4", 4},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Text(EnforcedMinimums(c.gang)), c.want) << c.name;
    EXPECT_EQ(SmallestReadyCount(c.gang), c.smallest) << c.name;
  }
}

// HasQuorum: the same rule over the members that exist (Volcano's
// CheckTaskValid / ValidTaskNum, KAI's IsReadyForScheduling).
TEST(GangReadinessTest, HasQuorumCountsEveryMemberBySubgroup) {
  Gang g = MakeGang(GangApi::kVolcano, 2, {{"worker", 1, ""}, {"ps", 1, ""}});
  g.members = {{"ml/w-0", "worker"}, {"ml/w-1", "worker"}};
  EXPECT_FALSE(g.HasQuorum());  // no ps exists
  g.members.push_back({"ml/ps-0", "ps"});
  EXPECT_TRUE(g.HasQuorum());
  Gang plain = MakeGang(GangApi::kCoscheduling, 3, {});
  plain.members = {{"ml/a", ""}, {"ml/b", ""}};
  EXPECT_FALSE(plain.HasQuorum());
  plain.members.push_back({"ml/c", ""});
  EXPECT_TRUE(plain.HasQuorum());
  const GangCount c = CountMembers(g);
  EXPECT_EQ(c.total, 3);
  EXPECT_EQ(c.In("worker"), 2);
  EXPECT_EQ(c.In("ps"), 1);
  EXPECT_EQ(c.In("other"), 0);
}

TEST(GangReadinessTest, SubgroupLabel) {
  Pod p;
  p.meta.annotations[kVolcanoTaskSpecAnnotation] = "ps";
  p.meta.labels[kKaiSubGroupLabel] = "master";
  EXPECT_EQ(SubgroupLabel(p, GangApi::kVolcano), "ps");
  EXPECT_EQ(SubgroupLabel(p, GangApi::kKai), "master");
  EXPECT_EQ(SubgroupLabel(p, GangApi::kCoscheduling), "");
  EXPECT_EQ(SubgroupLabel(Pod{}, GangApi::kKai), "");
}

}  // namespace
}  // namespace gpusched

// BrokenGangs: gangs broken by preemption, the work their evicted members
// lost and the GPUs their remaining members held idle until recovery.
#include "gpusched/sim/broken_gangs.h"

#include <gtest/gtest.h>

#include "../sched/test_util.h"

namespace gpusched {
namespace {

PodGroupDecl BrokenGroup(int32_t min_count, const std::vector<std::string>& members) {
  PodGroupDecl d;
  d.api = GangApi::kOperator;
  d.ns = "default";
  d.name = "g";
  d.min_count = min_count;
  d.implied = true;
  for (const std::string& m : members) d.members.push_back("default/" + m);
  return d;
}

TEST(BrokenGangsTest, BreakIdleAndRecovery) {
  std::vector<Pod> pods = {testing::GpuPod("g-0", 2), testing::GpuPod("g-1", 2), testing::GpuPod("g-2", 2),
                           testing::GpuPod("solo", 2)};
  std::vector<const Pod*> ptrs;
  for (const Pod& p : pods) ptrs.push_back(&p);
  const GangSet set = GroupIntoGangs({BrokenGroup(2, {"g-0", "g-1", "g-2"})}, ptrs);
  PreemptionGangs gangs(set, nullptr, ptrs);
  BrokenGangs b(gangs, pods.size());
  for (size_t id : {0, 1, 2, 3}) b.Started(id, 2000, 0);
  b.Preempted({2}, 10);  // surplus: 2 of minCount 2 left
  b.Preempted({1, 3}, 20);  // broken: g-0 alone, idle from 20
  b.Lost(1, 40);
  b.Lost(2, 500);  // not a broken gang's member
  b.Lost(3, 500);  // a bare pod
  b.Started(1, 2000, 50);  // recovered at 50: 30 s x 2 GPUs idle
  b.Preempted({0}, 100);   // broken again: g-1 idle from 100 to the end
  b.Lost(0, 8);
  BrokenGangs::Metrics m = b.Result(200);
  EXPECT_EQ(m.gangs_broken, 2);
  EXPECT_DOUBLE_EQ(m.gpu_hours_lost, 48.0 / 3600);
  EXPECT_DOUBLE_EQ(m.idle_gpu_hours, (30.0 * 2 + 100.0 * 2) / 3600);
  // Stopping the last member ends the idle time; a second stop does nothing.
  b.Stopped(1, 150);
  b.Stopped(1, 160);
  EXPECT_DOUBLE_EQ(b.Result(200).idle_gpu_hours, (30.0 * 2 + 50.0 * 2) / 3600);
}

// With task minimums (GangReady): a Volcano job of minMember 3, tasks worker
// 2 / ps 1, running 3 workers and a ps, is broken by losing its ps (3
// members still run, but task ps has none) and not by losing one worker; it
// recovers when a ps runs again, not when a fourth worker does.
TEST(BrokenGangsTest, TaskMinimumsBreakAndRecover) {
  std::vector<Pod> pods = {testing::GpuPod("w-0", 2), testing::GpuPod("w-1", 2), testing::GpuPod("w-2", 2),
                           testing::GpuPod("ps-0", 2)};
  for (size_t i = 0; i < pods.size(); ++i) {
    pods[i].meta.annotations[kVolcanoGroupNameAnnotation] = "pg";
    pods[i].meta.annotations[kVolcanoTaskSpecAnnotation] = i < 3 ? "worker" : "ps";
  }
  std::vector<const Pod*> ptrs;
  for (const Pod& p : pods) ptrs.push_back(&p);
  PodGroupDecl d;
  d.api = GangApi::kVolcano;
  d.ns = "default";
  d.name = "pg";
  d.min_count = 3;
  d.subgroups = {{"worker", 2, ""}, {"ps", 1, ""}};
  const GangSet set = GroupIntoGangs({d}, ptrs);
  PreemptionGangs gangs(set, nullptr, ptrs);
  BrokenGangs b(gangs, pods.size());
  for (size_t id : {0, 1, 2, 3}) b.Started(id, 2000, 0);
  b.Preempted({2}, 10);  // a surplus worker: 2 workers + the ps are ready
  EXPECT_EQ(b.Result(10).gangs_broken, 0);
  b.Preempted({3}, 20);  // the ps: broken, 2 workers idle from 20
  EXPECT_EQ(b.Result(20).gangs_broken, 1);
  b.Started(2, 2000, 30);  // a worker back: still no ps, still broken
  b.Started(3, 2000, 50);  // the ps back at 50: recovered
  const BrokenGangs::Metrics m = b.Result(100);
  EXPECT_EQ(m.gangs_broken, 1);
  // 2 workers x 2 GPUs for 10 s, then 3 workers x 2 GPUs for 20 s.
  EXPECT_DOUBLE_EQ(m.idle_gpu_hours, (10.0 * 4 + 20.0 * 6) / 3600);
}

}  // namespace
}  // namespace gpusched

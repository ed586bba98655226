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

}  // namespace
}  // namespace gpusched

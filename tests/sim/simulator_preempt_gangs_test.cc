// --preempt-gangs in `simulate`: upstream evicts DefaultPreemption's victims
// only and a gang keeps its other members running, idle; whole evicts the
// rest of a gang left below minCount with them (sched/framework/
// gang_preemption.h). Either way the summary counts the gangs broken, the
// GPU-hours their evicted members lost and those their remaining members
// held idle (sim/broken_gangs.h).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/model/gang.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sim/simulator.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;
using testing::OperatorGroup;
using State = PodOutcome::State;

WorkloadPod GangPod(const std::string& name, int64_t gpus, double arrival, double duration, int32_t priority,
               const std::string& owner = "") {
  WorkloadPod wp;
  wp.pod = GpuPod(name, gpus);
  wp.pod.priority = priority;
  wp.pod.owner = owner;
  wp.arrival = arrival;
  wp.duration = duration;
  return wp;
}

// A group of `members` (pod names in namespace default) with `min_count`,
// as an operator's pods with no group object (placed one by one).
struct SimRun {
  SimResult result;
  std::vector<SimPreemption> preemptions;  // victims and co-victims only
};

SimRun RunGangSim(const Workload& w, const std::vector<Node>& nodes, const std::vector<PodGroupDecl>& decls,
           PreemptGangs mode) {
  std::vector<const Pod*> pods;
  for (const WorkloadPod& wp : w.pods) pods.push_back(&wp.pod);
  const GangSet gangs = GroupIntoGangs(decls, pods);
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
  SimOptions o;
  o.order = QueueOrder::kPriority;
  o.check_invariants = true;
  o.invariant_failed = [](const std::string& what) { ADD_FAILURE() << what; };
  o.gangs = &gangs;
  o.preempt_gangs = mode;
  SimRun run;
  o.on_preemption = [&run](const SimPreemption& p) {
    SimPreemption copy;
    copy.time = p.time;
    copy.preemptor = p.preemptor;
    copy.node = p.node;
    copy.victims = p.victims;
    copy.co_victims = p.co_victims;
    run.preemptions.push_back(copy);
  };
  run.result = Simulate(w, nodes, s, o);
  return run;
}

// Two 4-GPU nodes, a 2-pod gang (minCount 2) on them, then a high-priority
// 4-GPU pod at t=100. DefaultPreemption picks train-1 (on n2: the latest
// start among equal victims).
Workload TwoMemberGangWorkload() {
  Workload w;
  w.pods = {GangPod("train-0", 4, 0, 1000, 0, "Job/train"), GangPod("train-1", 4, 0, 1000, 0, "Job/train"),
            GangPod("infer", 4, 100, 10, 100)};
  return w;
}

TEST(SimulatorPreemptGangsTest, UpstreamEvictsOneMemberAndTheOtherIdles) {
  SimRun run = RunGangSim(TwoMemberGangWorkload(), {GpuNode("n1", 4), GpuNode("n2", 4)},
                   {OperatorGroup("train", 2, {"train-0", "train-1"})}, PreemptGangs::kUpstream);
  ASSERT_EQ(run.preemptions.size(), 1u);
  EXPECT_EQ(run.preemptions[0].victims, (std::vector<size_t>{1}));
  EXPECT_TRUE(run.preemptions[0].co_victims.empty());
  const SimResult& r = run.result;
  // train-1 leaves at 130 (grace period), infer runs 130..140, train-1
  // comes back at 140 and runs its 1000 s again; train-0 never stopped.
  EXPECT_EQ(r.pods[2].start, 130);
  EXPECT_EQ(r.pods[0].finish, 1000);
  EXPECT_EQ(r.pods[1].finish, 1140);
  const SimSummary& s = r.summary;
  EXPECT_EQ(s.victims, 1);
  EXPECT_EQ(s.gangs_broken, 1);
  EXPECT_DOUBLE_EQ(s.gpu_hours_lost, 130.0 * 4 / 3600);
  EXPECT_DOUBLE_EQ(s.broken_gang_gpu_hours_lost, 130.0 * 4 / 3600);
  // train-0's 4 GPUs from the break (100) to the gang's recovery (140).
  EXPECT_DOUBLE_EQ(s.broken_gang_idle_gpu_hours, 40.0 * 4 / 3600);
}

TEST(SimulatorPreemptGangsTest, WholeEvictsTheGang) {
  SimRun run = RunGangSim(TwoMemberGangWorkload(), {GpuNode("n1", 4), GpuNode("n2", 4)},
                   {OperatorGroup("train", 2, {"train-0", "train-1"})}, PreemptGangs::kWhole);
  ASSERT_EQ(run.preemptions.size(), 1u);
  // Each node's candidate now costs both members: every criterion ties
  // (the latest start looks at the earliest of the highest-priority
  // victims, train-0 on both) and the first candidate, n1, wins.
  EXPECT_EQ(run.preemptions[0].node, 0u);
  EXPECT_EQ(run.preemptions[0].victims, (std::vector<size_t>{0}));
  EXPECT_EQ(run.preemptions[0].co_victims, (std::vector<size_t>{1}));
  const SimResult& r = run.result;
  // Both leave at 130; infer takes n1, train-0 n2 at 130 (requeued first),
  // train-1 waits for infer to finish at 140.
  EXPECT_EQ(r.pods[2].start, 130);
  EXPECT_EQ(r.pods[2].node, "n1");
  EXPECT_EQ(r.pods[0].node, "n2");
  EXPECT_EQ(r.pods[0].finish, 1130);
  EXPECT_EQ(r.pods[1].finish, 1140);
  const SimSummary& s = r.summary;
  EXPECT_EQ(s.preemptions, 1);
  EXPECT_EQ(s.victims, 2);
  EXPECT_EQ(s.victims_by_priority, (std::vector<std::pair<int32_t, int64_t>>{{0, 2}}));
  EXPECT_EQ(s.gangs_broken, 1);
  EXPECT_DOUBLE_EQ(s.gpu_hours_lost, 2 * 130.0 * 4 / 3600);
  EXPECT_DOUBLE_EQ(s.broken_gang_gpu_hours_lost, 2 * 130.0 * 4 / 3600);
  // train-0 runs alone from 130 to 140, its gang still below minCount.
  EXPECT_DOUBLE_EQ(s.broken_gang_idle_gpu_hours, 10.0 * 4 / 3600);
}

// solo on n1, g-0 on n2, g-1 on n3 (bound in that order). Upstream takes
// the latest-started victim, g-1; whole counts g-0/g-1 as costing two pods
// each and takes solo.
TEST(SimulatorPreemptGangsTest, WholeCountsTheGangInTheNodeChoice) {
  Workload w;
  w.pods = {GangPod("solo", 4, 0, 1000, 0), GangPod("g-0", 4, 0, 1000, 0), GangPod("g-1", 4, 0, 1000, 0),
            GangPod("infer", 4, 100, 10, 100)};
  const std::vector<Node> nodes = {GpuNode("n1", 4), GpuNode("n2", 4), GpuNode("n3", 4)};
  const std::vector<PodGroupDecl> decls = {OperatorGroup("g", 2, {"g-0", "g-1"})};
  SimRun up = RunGangSim(w, nodes, decls, PreemptGangs::kUpstream);
  ASSERT_EQ(up.preemptions.size(), 1u);
  EXPECT_EQ(up.preemptions[0].victims, (std::vector<size_t>{2}));
  EXPECT_EQ(up.result.summary.gangs_broken, 1);
  EXPECT_EQ(up.result.pods[2].state, State::kPreempted);  // a bare pod: gone
  SimRun whole = RunGangSim(w, nodes, decls, PreemptGangs::kWhole);
  ASSERT_EQ(whole.preemptions.size(), 1u);
  EXPECT_EQ(whole.preemptions[0].node, 0u);
  EXPECT_EQ(whole.preemptions[0].victims, (std::vector<size_t>{0}));
  EXPECT_TRUE(whole.preemptions[0].co_victims.empty());
  EXPECT_EQ(whole.result.summary.gangs_broken, 0);
  EXPECT_EQ(whole.result.pods[0].state, State::kPreempted);
  EXPECT_DOUBLE_EQ(whole.result.summary.broken_gang_idle_gpu_hours, 0);
}

// A gang of 3 with minCount 2 loses one member (its surplus): not broken,
// and whole evicts that member alone (KAI's elastic GetTasksToEvict).
TEST(SimulatorPreemptGangsTest, SurplusMemberGoesAlone) {
  Workload w;
  w.pods = {GangPod("e-0", 4, 0, 1000, 0, "Job/e"), GangPod("e-1", 4, 0, 1000, 0, "Job/e"), GangPod("e-2", 4, 0, 1000, 0, "Job/e"),
            GangPod("infer", 4, 100, 10, 100)};
  const std::vector<Node> nodes = {GpuNode("n1", 4), GpuNode("n2", 4), GpuNode("n3", 4)};
  for (PreemptGangs mode : {PreemptGangs::kUpstream, PreemptGangs::kWhole}) {
    SimRun run = RunGangSim(w, nodes, {OperatorGroup("e", 2, {"e-0", "e-1", "e-2"})}, mode);
    ASSERT_EQ(run.preemptions.size(), 1u);
    EXPECT_EQ(run.preemptions[0].victims, (std::vector<size_t>{2}));
    EXPECT_TRUE(run.preemptions[0].co_victims.empty());
    EXPECT_EQ(run.result.summary.gangs_broken, 0);
    EXPECT_DOUBLE_EQ(run.result.summary.broken_gang_gpu_hours_lost, 0);
  }
}

// A gang with a member above the preemptor's priority is no victim under
// whole (KAI compares job priorities); upstream evicts its low member.
TEST(SimulatorPreemptGangsTest, WholeSparesAGangWithAMemberOfHigherPriority) {
  Workload w;
  w.pods = {GangPod("m-0", 4, 0, 1000, 0, "Job/m"), GangPod("m-1", 4, 0, 1000, 200, "Job/m"), GangPod("infer", 4, 100, 10, 100)};
  const std::vector<Node> nodes = {GpuNode("n1", 4), GpuNode("n2", 4)};
  const std::vector<PodGroupDecl> decls = {OperatorGroup("m", 2, {"m-0", "m-1"})};
  SimRun up = RunGangSim(w, nodes, decls, PreemptGangs::kUpstream);
  ASSERT_EQ(up.preemptions.size(), 1u);
  EXPECT_EQ(up.preemptions[0].victims, (std::vector<size_t>{0}));
  EXPECT_EQ(up.result.summary.gangs_broken, 1);
  SimRun whole = RunGangSim(w, nodes, decls, PreemptGangs::kWhole);
  EXPECT_TRUE(whole.preemptions.empty());
  EXPECT_EQ(whole.result.pods[2].start, 1000);  // waits for the gang to finish
  EXPECT_EQ(whole.result.summary.gangs_broken, 0);
}

}  // namespace
}  // namespace gpusched

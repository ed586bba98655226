// DefaultPreemption in `simulate`: victims keep their resources for their
// grace period, then leave; a bare pod is gone, a Job's pod comes back and
// runs again from scratch or from its last checkpoint; the metrics.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/model/eviction.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sim/simulator.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;
using State = PodOutcome::State;

WorkloadPod WP(const std::string& name, int64_t gpus, double arrival, double duration, int32_t priority) {
  WorkloadPod wp;
  wp.pod = GpuPod(name, gpus);
  wp.pod.priority = priority;
  wp.arrival = arrival;
  wp.duration = duration;
  return wp;
}

SimOptions Opts() {
  SimOptions o;
  o.order = QueueOrder::kPriority;
  o.check_invariants = true;
  o.invariant_failed = [](const std::string& what) { ADD_FAILURE() << what; };
  return o;
}

SimResult RunSim(const Workload& w, const std::vector<Node>& nodes, bool preemption = true) {
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, preemption);
  return Simulate(w, nodes, s, Opts());
}

TEST(SimulatorPreemptionTest, BarePodGoneAfterGracePeriod) {
  Workload w;
  w.pods = {WP("low", 4, 0, 1000, 0), WP("high", 4, 100, 10, 100)};
  SimResult r = RunSim(w, {GpuNode("n", 4)});
  ASSERT_EQ(r.pods.size(), 2u);
  EXPECT_EQ(r.pods[0].state, State::kPreempted);
  EXPECT_EQ(r.pods[0].reason, "preempted; a bare pod is not recreated");
  // The victim holds the GPUs for the default 30 s grace period.
  EXPECT_EQ(r.pods[1].state, State::kFinished);
  EXPECT_EQ(r.pods[1].start, 130);
  EXPECT_EQ(r.pods[1].finish, 140);
  const SimSummary& s = r.summary;
  EXPECT_EQ(s.preemptions, 1);
  EXPECT_EQ(s.victims, 1);
  EXPECT_EQ(s.preempted, 1);
  EXPECT_EQ(s.victims_by_priority, (std::vector<std::pair<int32_t, int64_t>>{{0, 1}}));
  EXPECT_DOUBLE_EQ(s.gpu_hours_lost, 130.0 * 4 / 3600);  // it ran 130 s, no checkpoint
  EXPECT_EQ(s.finished + s.running + s.pending + s.rejected + s.preempted, s.pods);
}

TEST(SimulatorPreemptionTest, JobPodRequeuedFromItsLastCheckpoint) {
  Workload w;
  w.pods = {WP("train-0", 4, 0, 1000, 0), WP("infer", 4, 100, 10, 100)};
  w.pods[0].pod.owner = "Job/train";
  w.pods[0].pod.meta.annotations[kAnnotationCheckpointInterval] = "30";
  auto extras = std::make_shared<PodSpecExtras>();
  extras->termination_grace_period_seconds = 120;
  w.pods[0].pod.extras = extras;
  SimResult r = RunSim(w, {GpuNode("n", 4)});
  // Gone at 220 after 220 s of work, the last checkpoint at 210: 10 s lost.
  // Back in the queue; infer runs 220..230; train-0 runs the 790 s left.
  EXPECT_EQ(r.pods[1].start, 220);
  EXPECT_EQ(r.pods[1].finish, 230);
  EXPECT_EQ(r.pods[0].state, State::kFinished);
  EXPECT_EQ(r.pods[0].start, 0);
  EXPECT_EQ(r.pods[0].finish, 230 + 790);
  EXPECT_EQ(r.summary.preempted, 0);
  EXPECT_DOUBLE_EQ(r.summary.gpu_hours_lost, 10.0 * 4 / 3600);
}

TEST(SimulatorPreemptionTest, JobPodWithoutCheckpointRestartsFromScratch) {
  Workload w;
  w.pods = {WP("train-0", 4, 0, 1000, 0), WP("infer", 4, 100, 10, 100)};
  w.pods[0].pod.owner = "Job/train";
  SimResult r = RunSim(w, {GpuNode("n", 4)});
  EXPECT_EQ(r.pods[0].state, State::kFinished);
  EXPECT_EQ(r.pods[0].finish, 140 + 1000);
  EXPECT_DOUBLE_EQ(r.summary.gpu_hours_lost, 130.0 * 4 / 3600);
}

TEST(SimulatorPreemptionTest, NoPreemptionWithoutThePostFilterOrByEqualPriority) {
  Workload w;
  w.pods = {WP("low", 4, 0, 1000, 0), WP("high", 4, 100, 10, 100)};
  SimResult off = RunSim(w, {GpuNode("n", 4)}, /*preemption=*/false);
  EXPECT_EQ(off.summary.preemptions, 0);
  EXPECT_EQ(off.pods[1].start, 1000);
  Workload same;
  same.pods = {WP("a", 4, 0, 1000, 50), WP("b", 4, 100, 10, 50)};
  SimResult r = RunSim(same, {GpuNode("n", 4)});
  EXPECT_EQ(r.summary.preemptions, 0);
  EXPECT_EQ(r.pods[1].start, 1000);
}

TEST(SimulatorPreemptionTest, NoSecondPreemptionWhileVictimsTerminate) {
  // Two low pods on two nodes; the high pod preempts one and waits out its
  // grace period without preempting the other (a terminating victim on its
  // nominated node makes it ineligible).
  Workload w;
  w.pods = {WP("low-a", 4, 0, 1000, 0), WP("low-b", 4, 0, 1000, 0), WP("high", 4, 100, 10, 100)};
  SimResult r = RunSim(w, {GpuNode("n1", 4), GpuNode("n2", 4)});
  EXPECT_EQ(r.summary.preemptions, 1);
  EXPECT_EQ(r.summary.victims, 1);
  EXPECT_EQ(r.pods[2].start, 130);
}

// The reproducer of a run that never left one instant: the victim has no
// grace period and its Job recreates it at once; in FIFO order the
// recreated victim was tried before its preemptor, took the room back, was
// preempted again, and so on. The preemptor's nomination now holds the
// node (RunFilterPluginsWithNominatedPods): the recreated victim, of lower
// priority, is filtered there with the preemptor counted and waits.
TEST(SimulatorPreemptionTest, NominationKeepsARecreatedVictimOffTheNode) {
  for (QueueOrder order : {QueueOrder::kFifo, QueueOrder::kPriority, QueueOrder::kSmallestFirst}) {
    for (bool by_class : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "order " << static_cast<int>(order) << " by_class " << by_class);
      Workload w;
      w.pods = {WP("train-0", 4, 0, 1000, 0), WP("infer", 4, 100, 10, 100)};
      w.pods[0].pod.owner = "Job/train";
      auto extras = std::make_shared<PodSpecExtras>();
      extras->termination_grace_period_seconds = 0;
      w.pods[0].pod.extras = extras;
      SimOptions o = Opts();
      o.order = order;
      o.group_by_class = by_class;
      o.max_batches = 1000;  // the loop, were it back, stops here and fails below
      Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
      SimResult r = Simulate(w, {GpuNode("n", 4)}, s, o);
      EXPECT_EQ(r.summary.preemptions, 1);
      EXPECT_EQ(r.summary.victims, 1);
      // infer runs 100..110 on the room freed at once; train-0 starts over.
      EXPECT_EQ(r.pods[1].state, State::kFinished);
      EXPECT_EQ(r.pods[1].start, 100);
      EXPECT_EQ(r.pods[1].finish, 110);
      EXPECT_EQ(r.pods[0].state, State::kFinished);
      EXPECT_EQ(r.pods[0].finish, 110 + 1000);
      EXPECT_DOUBLE_EQ(r.summary.gpu_hours_lost, 100.0 * 4 / 3600);
    }
  }
}

}  // namespace
}  // namespace gpusched

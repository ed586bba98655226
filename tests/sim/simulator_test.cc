#include "gpusched/sim/simulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;
using State = PodOutcome::State;

constexpr const char* kNoGpu2 = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";

Scheduler FirstFit() { return Scheduler(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1); }

struct PodSpec {
  const char* name;
  int64_t gpus;
  double arrival;
  double duration;
  int32_t priority = 0;
};

Workload MakeWorkload(const std::vector<PodSpec>& specs) {
  Workload w;
  for (const PodSpec& s : specs) {
    WorkloadPod wp;
    wp.pod = GpuPod(s.name, s.gpus);
    if (s.priority != 0) wp.pod.priority = s.priority;
    wp.arrival = s.arrival;
    wp.duration = s.duration;
    w.pods.push_back(std::move(wp));
  }
  return w;
}

SimOptions Opts(QueueOrder order = QueueOrder::kFifo, bool gate = true) {
  SimOptions o;
  o.order = order;
  o.pop_from_backoff_q = gate;
  o.check_invariants = true;
  o.invariant_failed = [](const std::string& what) { ADD_FAILURE() << what; };
  return o;
}

// What a test expects of one pod.
struct Want {
  State state;
  double start, finish;
  const char* node;
  int32_t attempts;
  const char* reason = "";
  int32_t evictions = 0;
};

void ExpectPods(const SimResult& r, const std::vector<Want>& want) {
  ASSERT_EQ(r.pods.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(r.pods[i].name);
    EXPECT_EQ(r.pods[i].state, want[i].state);
    EXPECT_EQ(r.pods[i].start, want[i].start);
    EXPECT_EQ(r.pods[i].finish, want[i].finish);
    EXPECT_EQ(r.pods[i].node, want[i].node);
    EXPECT_EQ(r.pods[i].attempts, want[i].attempts);
    EXPECT_EQ(r.pods[i].reason, want[i].reason);
    EXPECT_EQ(r.pods[i].evictions, want[i].evictions);
  }
}

// The seed's two nodes and five pods, spread over time:
//   a 2 GPUs  t=0  runs 10   -> n1 at 0
//   b 1 GPU   t=1  runs 5    -> n1 at 1
//   c 3 GPUs  t=2  runs 4    -> waits: 1 free on n1, 2 on n2
//   d 2 GPUs  t=2  runs 3    -> n2 at 2
//   e 2 GPUs  t=3  forever   -> waits; starts on n2 the moment d finishes (5)
// c fails at 2 (1st failure: 1 s backoff) and is retried on every pod finish:
// at 5 (d's finish; backoff over, straight to activeQ; fails: 2 s) and at 6
// (b's; n1 has 2 free; fails). With SchedulerPopFromBackoffQ the idle
// scheduler takes c from backoffQ at 6 and again at 10, when a's finish
// frees n1: c starts at 10. Without the gate c sits out each backoff: the
// retry of 6 happens at the flush at 7 (fails: 4 s, until 11), and a's
// finish at 10 finds it backing off: it starts at 11.
std::vector<PodSpec> SeedOverTime() {
  return {{"a", 2, 0, 10}, {"b", 1, 1, 5}, {"c", 3, 2, 4}, {"d", 2, 2, 3}, {"e", 2, 3, -1}};
}

TEST(SimulatorTest, SeedClusterOverTime) {
  struct Case {
    bool gate;
    double c_start, c_finish;
    std::vector<double> sample_times;
  } cases[] = {
      {true, 10, 14, {0, 1, 2, 3, 5, 6, 10, 14}},
      {false, 11, 15, {0, 1, 2, 3, 5, 6, 7, 10, 11, 15}},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.gate ? "PopFromBackoffQ" : "no gate");
    Workload w = MakeWorkload(SeedOverTime());
    Scheduler s = FirstFit();
    SimResult r = Simulate(w, {GpuNode("n1", 4), GpuNode("n2", 2)}, s, Opts(QueueOrder::kFifo, k.gate));
    ExpectPods(r, {
                      {State::kFinished, 0, 10, "n1", 1},
                      {State::kFinished, 1, 6, "n1", 1},
                      {State::kFinished, k.c_start, k.c_finish, "n1", 4},
                      {State::kFinished, 2, 5, "n2", 1},
                      {State::kRunning, 5, -1, "n2", 2},
                  });
    EXPECT_EQ(r.pods[0].name, "default/a");
    EXPECT_EQ(r.policy, "first-fit");
    EXPECT_EQ(r.node_names, (std::vector<std::string>{"n1", "n2"}));
    const SimSummary& sum = r.summary;
    EXPECT_EQ(sum.pods, 5);
    EXPECT_EQ(sum.finished, 4);
    EXPECT_EQ(sum.running, 1);
    EXPECT_EQ(sum.pending, 0);
    EXPECT_EQ(sum.rejected, 0);
    EXPECT_EQ(sum.end_time, k.c_finish);
    EXPECT_EQ(sum.scheduling_attempts, 9);
    // Queueing delays 0, 0, c-2, 0, 2; JCTs 10, 5, c_finish-2, 3.
    EXPECT_EQ(sum.queueing_delay.count, 5);
    EXPECT_EQ(sum.queueing_delay.p50, 0);
    EXPECT_EQ(sum.queueing_delay.max, k.c_start - 2);
    EXPECT_DOUBLE_EQ(sum.queueing_delay.mean, (k.c_start - 2 + 2) / 5);
    EXPECT_EQ(sum.jct.count, 4);
    EXPECT_EQ(sum.jct.p50, 5);
    EXPECT_EQ(sum.jct.max, k.c_finish - 2);
    std::vector<double> times;
    for (const SimSample& x : r.series) times.push_back(x.time);
    EXPECT_EQ(times, k.sample_times);
  }
}

TEST(SimulatorTest, SeedSeriesAndMeansWithTheGate) {
  Workload w = MakeWorkload(SeedOverTime());
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n1", 4), GpuNode("n2", 2)}, s, Opts());
  struct Row {
    double time;
    int64_t used, pending, running, arrived;
  } rows[] = {
      {0, 2000, 0, 1, 2000},  {1, 3000, 0, 2, 3000},  {2, 5000, 1, 3, 8000},   {3, 5000, 2, 3, 10000},
      {5, 5000, 1, 3, 10000}, {6, 4000, 1, 2, 10000}, {10, 5000, 0, 2, 10000}, {14, 2000, 0, 1, 10000},
  };
  ASSERT_EQ(r.series.size(), std::size(rows));
  for (size_t i = 0; i < r.series.size(); ++i) {
    const SimSample& x = r.series[i];
    SCOPED_TRACE(x.time);
    EXPECT_EQ(x.time, rows[i].time);
    EXPECT_EQ(x.gpu_milli_total, 6000);
    EXPECT_EQ(x.gpu_milli_used, rows[i].used);
    EXPECT_DOUBLE_EQ(x.gpu_alloc_pct, rows[i].used / 6000.0 * 100);
    EXPECT_EQ(x.pending, rows[i].pending);
    EXPECT_EQ(x.running, rows[i].running);
    EXPECT_EQ(x.arrived_gpu_milli, rows[i].arrived);
  }
  // Used milli-seconds: 2000*1 + 3000*1 + 5000*1 + 5000*2 + 5000*1 + 4000*4 + 5000*4 = 61000.
  EXPECT_NEAR(r.summary.mean_gpu_alloc_pct, 61000.0 / 6000 * 100 / 14, 1e-9);
  EXPECT_EQ(r.summary.mean_frag_pct, 0);
  // Default snapshots: 0, 3.5, 7, 10.5 and the end, 14.
  struct Snap {
    double time;
    std::vector<int32_t> used;
  } snaps[] = {{0, {2000, 0}}, {3.5, {3000, 2000}}, {7, {2000, 2000}}, {10.5, {3000, 2000}}, {14, {0, 2000}}};
  ASSERT_EQ(r.snapshots.size(), std::size(snaps));
  for (size_t i = 0; i < r.snapshots.size(); ++i) {
    EXPECT_EQ(r.snapshots[i].time, snaps[i].time);
    EXPECT_EQ(r.snapshots[i].gpu_used_milli, snaps[i].used) << snaps[i].time;
    EXPECT_EQ(r.snapshots[i].gpu_total_milli, (std::vector<int32_t>{4000, 2000}));
  }
}

TEST(SimulatorTest, BackoffDelaysARetry) {
  // One GPU. x runs [0, 0.5); y fails at 0 (1st attempt: 1 s backoff). x's
  // finish at 0.5 moves y to backoffQ. Without the gate y waits for the
  // flush at 1; with it the idle scheduler pops y from backoffQ at 0.5.
  struct Case {
    bool gate;
    double y_start;
  } cases[] = {{false, 1}, {true, 0.5}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.gate);
    Workload w = MakeWorkload({{"x", 1, 0, 0.5}, {"y", 1, 0, 1}});
    Scheduler s = FirstFit();
    SimResult r = Simulate(w, {GpuNode("n", 1)}, s, Opts(QueueOrder::kFifo, k.gate));
    ExpectPods(r, {
                      {State::kFinished, 0, 0.5, "n", 1},
                      {State::kFinished, k.y_start, k.y_start + 1, "n", 2},
                  });
  }
}

TEST(SimulatorTest, ZeroDurationPodsFinishAtOnce) {
  // z binds and finishes at 0; its finish requeues w, failed at 0 too.
  struct Case {
    bool gate;
    double w_start;
    std::vector<double> sample_times;
  } cases[] = {{true, 0, {0, 1}}, {false, 1, {0, 1, 2}}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.gate);
    Workload w = MakeWorkload({{"z", 1, 0, 0}, {"w", 1, 0, 1}});
    Scheduler s = FirstFit();
    SimResult r = Simulate(w, {GpuNode("n", 1)}, s, Opts(QueueOrder::kFifo, k.gate));
    ExpectPods(r, {{State::kFinished, 0, 0, "n", 1}, {State::kFinished, k.w_start, k.w_start + 1, "n", 2}});
    std::vector<double> times;
    for (const SimSample& x : r.series) times.push_back(x.time);
    EXPECT_EQ(times, k.sample_times);
  }
}

TEST(SimulatorTest, QueueSortDecidesWhoGetsTheFreedGpu) {
  // One GPU held until 5. "low" (priority 0) waits from 1, "high" (100) from
  // 2. PrioritySort gives the GPU to high; FIFO to low, which waited longer.
  struct Case {
    QueueOrder order;
    std::vector<Want> want;
  } cases[] = {
      {QueueOrder::kPriority,
       {{State::kFinished, 0, 5, "n", 1},
        {State::kPending, -1, -1, "", 2, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."},
        {State::kRunning, 5, -1, "n", 2}}},
      {QueueOrder::kFifo,
       {{State::kFinished, 0, 5, "n", 1},
        {State::kRunning, 5, -1, "n", 2},
        {State::kPending, -1, -1, "", 2, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."}}},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(QueueOrderName(k.order));
    Workload w = MakeWorkload({{"holder", 1, 0, 5}, {"low", 1, 1, -1}, {"high", 1, 2, -1, 100}});
    Scheduler s = FirstFit();
    SimResult r = Simulate(w, {GpuNode("n", 1)}, s, Opts(k.order));
    ExpectPods(r, k.want);
    EXPECT_EQ(r.summary.pending, 1);
    EXPECT_EQ(r.summary.end_time, 5);  // nothing can change after 5
  }
}

TEST(SimulatorTest, LeftoverFlushRetriesAndReordersPods) {
  // The GPU is held until 1000. A fails at 0, B at 200. Pods pooled for more
  // than 5 minutes are retried on the 30 s ticks: A at 330, 660, 990; B at
  // 510, 840. Each failure refreshes the Timestamp, so when the GPU frees up
  // B (840) is ahead of A (990) in FIFO order although A came first.
  Workload w = MakeWorkload({{"holder", 1, 0, 1000}, {"A", 1, 0, -1}, {"B", 1, 200, -1}});
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n", 1)}, s, Opts());
  ExpectPods(r, {
                    {State::kFinished, 0, 1000, "n", 1},
                    {State::kPending, -1, -1, "", 5, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."},
                    {State::kRunning, 1000, -1, "n", 4},
                });
  std::vector<double> times;
  for (const SimSample& x : r.series) times.push_back(x.time);
  EXPECT_EQ(times, (std::vector<double>{0, 200, 330, 510, 660, 840, 990, 1000}));
  EXPECT_EQ(r.summary.end_time, 1000);
}

TEST(SimulatorTest, NodeRemovalEvictsAndNodeAddRequeues) {
  // p (2 GPUs, runs 10) starts on n1 at 0; n1 leaves at 3, so p is evicted
  // and waits ("no nodes available"); n2 joins at 5 and p starts over there,
  // running its full 10 s again. q (no GPU) ends at 3, the moment n1 leaves:
  // it finished, it is not evicted.
  Workload w = MakeWorkload({{"p", 2, 0, 10}, {"q", 0, 0, 3}});
  NodeEvent remove;
  remove.time = 3;
  remove.kind = NodeEvent::Kind::kRemove;
  remove.name = "n1";
  NodeEvent add;
  add.time = 5;
  add.kind = NodeEvent::Kind::kAdd;
  add.node = GpuNode("n2", 2);
  w.node_events = {add, remove};  // any order
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n1", 2)}, s, Opts());
  ExpectPods(r, {
                    {State::kFinished, 0, 15, "n2", 3, "", 1},  // tried at 0, 3 and 5
                    {State::kFinished, 0, 3, "n1", 1},
                });
  EXPECT_EQ(r.node_names, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(r.summary.end_time, 15);
  EXPECT_EQ(r.summary.queueing_delay.max, 0);  // start is the first bind
  EXPECT_EQ(r.summary.jct.max, 15);
  struct Row {
    double time;
    int64_t total, used, pending, running;
  } rows[] = {{0, 2000, 2000, 0, 2}, {3, 0, 0, 1, 0}, {5, 2000, 2000, 0, 1}, {15, 2000, 0, 0, 0}};
  ASSERT_EQ(r.series.size(), std::size(rows));
  for (size_t i = 0; i < std::size(rows); ++i) {
    SCOPED_TRACE(rows[i].time);
    EXPECT_EQ(r.series[i].time, rows[i].time);
    EXPECT_EQ(r.series[i].gpu_milli_total, rows[i].total);
    EXPECT_EQ(r.series[i].gpu_milli_used, rows[i].used);
    EXPECT_EQ(r.series[i].pending, rows[i].pending);
    EXPECT_EQ(r.series[i].running, rows[i].running);
  }
  // A snapshot while n1 is gone and n2 not yet there.
  SimOptions o = Opts();
  o.snapshot_times = {4, 1};
  Scheduler s2 = FirstFit();
  SimResult r2 = Simulate(w, {GpuNode("n1", 2)}, s2, o);
  ASSERT_EQ(r2.snapshots.size(), 2u);
  EXPECT_EQ(r2.snapshots[0].time, 1);
  EXPECT_EQ(r2.snapshots[0].gpu_total_milli, (std::vector<int32_t>{2000, 0}));
  EXPECT_EQ(r2.snapshots[0].gpu_used_milli, (std::vector<int32_t>{2000, 0}));
  EXPECT_EQ(r2.snapshots[1].gpu_total_milli, (std::vector<int32_t>{0, 0}));
}

TEST(SimulatorTest, EvictedPodWaitsWithTheMessage) {
  Workload w = MakeWorkload({{"p", 2, 0, 10}});
  NodeEvent remove;
  remove.time = 3;
  remove.kind = NodeEvent::Kind::kRemove;
  remove.name = "n1";
  w.node_events = {remove};
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n1", 2), GpuNode("small", 1)}, s, Opts());
  ExpectPods(r, {{State::kPending, 0, -1, "n1", 2, "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.", 1}});
  EXPECT_EQ(r.summary.end_time, 3);
}

TEST(SimulatorTest, NoNodeAtAllIsAnErrorRetriedByBackoff) {
  // While n1 is gone there is no node: ErrNoNodesAvailable, an error, so p
  // waits in the error backoff queue, which n2's arrival does not flush.
  // p failed at 3 (1 s). With the gate, its expiry 4 is a window that ends
  // at 5: the flush at 5 finds n2 just added. Without it, p is retried at 4
  // (fails again: 2 s, until 6), and n2's arrival at 5 leaves it waiting.
  struct Case {
    bool gate;
    double start;
    int32_t attempts;
  } cases[] = {{true, 5, 3}, {false, 6, 4}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.gate);
    Workload w = MakeWorkload({{"p", 2, 0, 10}});
    NodeEvent remove;
    remove.time = 3;
    remove.kind = NodeEvent::Kind::kRemove;
    remove.name = "n1";
    NodeEvent add;
    add.time = 5;
    add.kind = NodeEvent::Kind::kAdd;
    add.node = GpuNode("n2", 2);
    w.node_events = {remove, add};
    Scheduler s = FirstFit();
    SimResult r = Simulate(w, {GpuNode("n1", 2)}, s, Opts(QueueOrder::kFifo, k.gate));
    ExpectPods(r, {{State::kFinished, 0, k.start + 10, "n2", k.attempts, "", 1}});
  }
  // An empty cluster for good: one attempt, then nothing can change.
  Workload w = MakeWorkload({{"p", 1, 2, 1}});
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {}, s, Opts());
  ExpectPods(r, {{State::kPending, -1, -1, "", 1, "no nodes available to schedule pods"}});
  EXPECT_EQ(r.summary.end_time, 2);
}

TEST(SimulatorTest, EndTimeCutsTheRun) {
  std::vector<PodSpec> specs = SeedOverTime();
  specs.push_back({"late", 1, 100, 1});
  Workload w = MakeWorkload(specs);
  SimOptions o = Opts();
  o.end_time = 4;
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n1", 4), GpuNode("n2", 2)}, s, o);
  ExpectPods(r, {
                    {State::kRunning, 0, -1, "n1", 1},
                    {State::kRunning, 1, -1, "n1", 1},
                    {State::kPending, -1, -1, "", 1, kNoGpu2},
                    {State::kRunning, 2, -1, "n2", 1},
                    {State::kPending, -1, -1, "", 1, kNoGpu2},
                    {State::kPending, -1, -1, "", 0,
                     "not arrived: it arrives at 100 s, after the end of the simulation (4 s)"},
                });
  EXPECT_EQ(r.summary.end_time, 4);
  EXPECT_EQ(r.summary.running, 3);
  EXPECT_EQ(r.summary.pending, 3);
  // A last sample at the end time itself.
  ASSERT_FALSE(r.series.empty());
  EXPECT_EQ(r.series.back().time, 4);
  EXPECT_EQ(r.series.back().pending, 2);
  // [0,1) 2000, [1,2) 3000, [2,4] 5000 of 6000.
  EXPECT_NEAR(r.summary.mean_gpu_alloc_pct, (2000.0 + 3000 + 5000 * 2) / 6000 * 100 / 4, 1e-9);
}

TEST(SimulatorTest, RejectedPodsAreReportedAfterTheWorkload) {
  Workload w = MakeWorkload({{"ok", 1, 0, 1}, {"bad", 0, 2, 1}});
  w.pods[1].pod.meta.annotations["alibabacloud.com/gpu-milli"] = "2000";
  w.rejected.push_back(InputError{"Pod/default/half", "pods.yaml", 7, "The Pod \"half\" is invalid: x"});
  w.rejected.push_back(InputError{"", "trace.csv", 12, "column num_gpu: invalid value \"x\""});
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n", 1)}, s, Opts());
  ASSERT_EQ(r.pods.size(), 4u);
  EXPECT_EQ(r.pods[0].state, State::kFinished);
  EXPECT_EQ(r.pods[1].name, "default/bad");
  EXPECT_EQ(r.pods[1].state, State::kRejected);
  EXPECT_EQ(r.pods[1].arrival, 2);
  EXPECT_EQ(r.pods[1].attempts, 0);
  EXPECT_EQ(r.pods[1].reason,
            "The Pod \"bad\" is invalid: metadata.annotations[alibabacloud.com/gpu-milli]: Invalid value: \"2000\": "
            "must be an integer from 1 to 1000 (milli-GPU per device)");
  EXPECT_EQ(r.pods[2].name, "default/half");
  EXPECT_EQ(r.pods[2].state, State::kRejected);
  EXPECT_EQ(r.pods[2].reason, "The Pod \"half\" is invalid: x");
  EXPECT_EQ(r.pods[3].name, "trace.csv:12");
  EXPECT_EQ(r.pods[3].state, State::kRejected);
  EXPECT_EQ(r.summary.pods, 4);
  EXPECT_EQ(r.summary.rejected, 3);
  EXPECT_EQ(r.summary.finished, 1);
}

TEST(SimulatorTest, SharedGpusAndAFragmentationFunction) {
  // Two 500-milli shares fit one device; a third waits for one to finish.
  Workload w;
  for (const char* name : {"s1", "s2", "s3"}) {
    WorkloadPod wp;
    wp.pod = GpuPod(name, 0);
    wp.pod.meta.annotations["alibabacloud.com/gpu-milli"] = "500";
    wp.pod.meta.annotations["alibabacloud.com/gpu-count"] = "1";
    wp.arrival = 0;
    wp.duration = std::string(name) == "s1" ? 2 : 4;
    w.pods.push_back(std::move(wp));
  }
  SimOptions o = Opts();
  // Frag stand-in: the free milli of partly used devices.
  o.node_frag_milli = [](const ClusterState& c, size_t i) {
    double f = 0;
    for (int32_t free : c.state(i).gpu_free_milli)
      if (free > 0 && free < kGpuMilli) f += free;
    return f;
  };
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n", 1)}, s, o);
  ExpectPods(r, {
                    {State::kFinished, 0, 2, "n", 1},
                    {State::kFinished, 0, 4, "n", 1},
                    {State::kFinished, 2, 6, "n", 2},
                });
  ASSERT_EQ(r.series.size(), 4u);  // 0, 2, 4, 6
  EXPECT_EQ(r.series[0].gpu_milli_used, 1000);
  EXPECT_EQ(r.series[0].frag_pct, 0);
  EXPECT_EQ(r.series[2].time, 4);
  EXPECT_EQ(r.series[2].gpu_milli_used, 500);
  EXPECT_EQ(r.series[2].frag_pct, 50);
  EXPECT_EQ(r.series[2].frag_of_idle_pct, 100);
  EXPECT_EQ(r.series[0].arrived_gpu_milli, 1500);
  // Frag 0 over [0,4), 50% over [4,6), then the end.
  EXPECT_NEAR(r.summary.mean_frag_pct, 50.0 * 2 / 6, 1e-9);
}

TEST(SimulatorTest, ProgressIsRareMonotoneAndEndsAtOne) {
  std::vector<PodSpec> specs;
  std::vector<std::string> names;
  for (int i = 0; i < 500; ++i) names.push_back("p" + std::to_string(i));
  for (int i = 0; i < 500; ++i) specs.push_back({names[static_cast<size_t>(i)].c_str(), 1, i * 1.0, 3});
  Workload w = MakeWorkload(specs);
  std::vector<double> seen;
  SimOptions o = Opts();
  o.progress = [&seen](double f) { seen.push_back(f); };
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n", 2)}, s, o);
  ASSERT_FALSE(seen.empty());
  EXPECT_LE(seen.size(), 101u);
  EXPECT_EQ(seen.back(), 1.0);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GT(seen[i], seen[i - 1]);
  EXPECT_EQ(r.summary.finished + r.summary.pending + r.summary.running, 500);
}

TEST(SimulatorTest, EmptyWorkload) {
  Workload w;
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n", 1)}, s, Opts());
  EXPECT_TRUE(r.pods.empty());
  EXPECT_TRUE(r.series.empty());
  EXPECT_EQ(r.summary.end_time, 0);
  ASSERT_EQ(r.snapshots.size(), 5u);
  EXPECT_EQ(r.snapshots[0].gpu_total_milli, (std::vector<int32_t>{1000}));
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Each pod goes to the profile its schedulerName names; pods of other
// schedulers, gated pods and pods with DRA claims are never attempted and end
// pending with their reason, counted once (the invariants check it after
// every event).
TEST(SimulatorProfilesTest, ProfilesAndHeldPods) {
  Workload w = MakeWorkload({{"plain", 1, 0, 10}, {"kai", 1, 1, 10}, {"volcano", 1, 2, 10}, {"gated", 1, 3, 10},
                             {"dra", 0, 4, 10}});
  w.pods[1].pod.scheduler_name = "kai-scheduler";
  w.pods[2].pod.scheduler_name = "volcano";
  auto gated = std::make_shared<PodSpecExtras>();
  gated->scheduling_gates = {"example.com/gate"};
  w.pods[3].pod.extras = gated;
  auto claims = std::make_shared<PodSpecExtras>();
  claims->resource_claims = {PodResourceClaim{"gpu", "team-gpu", "", "", false}};
  w.pods[4].pod.extras = claims;
  Scheduler default_sched = FirstFit();
  Scheduler kai_sched = FirstFit();
  ProfileSchedulers profiles = {{kDefaultSchedulerName, &default_sched}, {"kai-scheduler", &kai_sched}};
  SimResult r = Simulate(w, {GpuNode("n1", 4)}, profiles, Opts());
  ExpectPods(r, {
                    {State::kFinished, 0, 10, "n1", 1},
                    {State::kFinished, 1, 11, "n1", 1},
                    {State::kPending, -1, -1, "", 0,
                     "not scheduled: spec.schedulerName is \"volcano\" (Volcano's scheduler: queues, gang scheduling), a "
                     "scheduler gpusched does not run (it serves \"default-scheduler\", \"kai-scheduler\"), so the pod "
                     "waits for that scheduler"},
                    {State::kPending, -1, -1, "", 0,
                     "Scheduling is blocked due to non-empty scheduling gates (not attempted (SchedulingGated): waiting "
                     "for scheduling gates: [example.com/gate]; kube-scheduler's SchedulingGates plugin keeps the pod "
                     "out of its queue until whoever added the gates (e.g. a queueing controller such as Kueue) removes "
                     "them (pending is not an error))"},
                    {State::kPending, -1, -1, "", 0,
                     "could not find ResourceClaim \"default/team-gpu\" (not attempted: its resource claim \"gpu\" names "
                     "ResourceClaim \"team-gpu\", which is not in the input; kube-scheduler's DynamicResources plugin "
                     "keeps the pod out of its queue until the claim can be used (add it to the input; one listed under rejected needs fixing first))"},
                });
  EXPECT_EQ(r.pods[2].advice, (Advice{Advice::Kind::kServeSchedulerName, "volcano"}));  // printed after the reason
  EXPECT_EQ(r.summary.pending, 3);
  EXPECT_EQ(r.summary.finished, 2);
  EXPECT_EQ(r.summary.scheduling_attempts, 2);
}

// The one-scheduler form serves default-scheduler only, as kube-scheduler does.
TEST(SimulatorProfilesTest, SingleSchedulerServesDefaultSchedulerOnly) {
  Workload w = MakeWorkload({{"a", 1, 0, 5}, {"b", 1, 0, 5}});
  w.pods[1].pod.scheduler_name = "kai-scheduler";
  Scheduler s = FirstFit();
  SimResult r = Simulate(w, {GpuNode("n1", 2)}, s, Opts());
  EXPECT_EQ(r.pods[0].state, State::kFinished);
  EXPECT_EQ(r.pods[1].state, State::kPending);
  EXPECT_EQ(r.policy, "first-fit");
}

}  // namespace
}  // namespace gpusched

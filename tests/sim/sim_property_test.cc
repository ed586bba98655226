// Property tests of Simulate on random small clusters and workloads (whole
// and shared GPUs, priorities, zero and endless durations, nodes joining and
// leaving, every queue order, with and without SchedulerPopFromBackoffQ):
// the invariants hold after every event batch, every pod comes out
// accounted for, and the same seed gives a byte-identical result.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "sim_test_util.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/policies/policy.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sim/simulator.h"
#include "gpusched/util/random.h"

namespace gpusched {
namespace {

struct Scenario {
  std::vector<Node> nodes;
  Workload workload;
  SimOptions options;
};

int64_t Between(Rng& rng, int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng.Uniform(static_cast<uint64_t>(hi - lo + 1))); }

// Times on a 0.25 s grid, so that equal times (and ties) are frequent.
double GridTime(Rng& rng, int64_t max_quarters) { return static_cast<double>(Between(rng, 0, max_quarters)) / 4; }

Scenario RandomScenario(uint64_t seed) {
  Rng rng(seed);
  Scenario s;
  const int64_t num_nodes = Between(rng, 1, 6);
  for (int64_t i = 0; i < num_nodes; ++i)
    s.nodes.push_back(testing::GpuNode("n" + std::to_string(i), Between(rng, 0, 8), Between(rng, 2, 64) * 1000,
                                       1LL << 37, Between(rng, 2, 20)));
  const int64_t num_pods = Between(rng, 1, 40);
  for (int64_t i = 0; i < num_pods; ++i) {
    WorkloadPod wp;
    const int64_t shape = Between(rng, 0, 9);
    if (shape <= 5) {
      wp.pod = testing::GpuPod("p" + std::to_string(i), Between(rng, 0, 4), Between(rng, 0, 8) * 1000);
    } else {
      // A share of 1 or 2 devices through the Alibaba annotations.
      wp.pod = testing::GpuPod("p" + std::to_string(i), 0, Between(rng, 0, 8) * 1000);
      wp.pod.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(Between(rng, 1, 1000));
      wp.pod.meta.annotations["alibabacloud.com/gpu-count"] = std::to_string(shape == 9 ? 2 : 1);
    }
    if (Between(rng, 0, 3) == 0) wp.pod.priority = static_cast<int32_t>(Between(rng, 0, 2) * 100);
    wp.arrival = GridTime(rng, 400);
    const int64_t d = Between(rng, 0, 19);
    wp.duration = d == 0 ? -1 : d == 1 ? 0 : GridTime(rng, 200);
    s.workload.pods.push_back(std::move(wp));
  }
  // Removals of initial nodes, additions of new ones (and of a removed name).
  for (int64_t i = 0; i < num_nodes; ++i) {
    if (Between(rng, 0, 2) != 0) continue;
    NodeEvent e;
    e.kind = NodeEvent::Kind::kRemove;
    e.time = GridTime(rng, 400);
    e.name = "n" + std::to_string(i);
    s.workload.node_events.push_back(e);
    if (Between(rng, 0, 1) == 0) {
      NodeEvent back;
      back.kind = NodeEvent::Kind::kAdd;
      back.time = e.time + GridTime(rng, 100);
      back.node = testing::GpuNode(e.name, Between(rng, 0, 8));
      s.workload.node_events.push_back(back);
    }
  }
  for (int64_t i = 0, adds = Between(rng, 0, 2); i < adds; ++i) {
    NodeEvent e;
    e.kind = NodeEvent::Kind::kAdd;
    e.time = GridTime(rng, 400);
    e.node = testing::GpuNode("added" + std::to_string(i), Between(rng, 1, 8));
    s.workload.node_events.push_back(e);
  }
  const QueueOrder orders[] = {QueueOrder::kPriority, QueueOrder::kFifo, QueueOrder::kLargestFirst,
                               QueueOrder::kSmallestFirst};
  s.options.order = orders[rng.Uniform(4)];
  s.options.pop_from_backoff_q = rng.Uniform(2) == 0;
  s.options.max_samples = rng.Uniform(2) == 0 ? 0 : static_cast<size_t>(Between(rng, 2, 30));
  if (rng.Uniform(4) == 0) s.options.end_time = GridTime(rng, 500);
  s.options.check_invariants = true;
  return s;
}

// Every policy by name, built as the CLI builds it (FGD's target workload:
// the scenario's own pods).
class SimPropertyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SimPropertyTest, InvariantsHoldAndEveryPodIsAccountedFor) {
  const std::string policy = GetParam();
  // What the 200 scenarios went through, to be sure they cover the cases.
  int64_t evictions = 0, shared_placed = 0, pending = 0, finished = 0, running_total = 0, cut = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE(::testing::Message() << policy << " seed " << seed);
    Scenario sc = RandomScenario(seed);
    int violations = 0;
    sc.options.invariant_failed = [&violations](const std::string& what) {
      if (++violations <= 3) ADD_FAILURE() << what;
    };
    std::vector<PodShape> shapes;
    for (size_t i = 0; i < sc.workload.pods.size(); ++i)
      shapes.push_back(ShapeOf(PodInfo::Make(sc.workload.pods[i].pod, i)));
    const TypicalPods typical = ComputeTypicalPods(shapes);
    PolicyOptions popts;
    popts.typical = &typical;
    Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), policy, seed, popts);
    ASSERT_TRUE(set.ok()) << set.status().message();
    Scheduler& sched = *set.value().owned.front();
    const size_t initial_nodes = sc.nodes.size();
    SimResult r = Simulate(sc.workload, sc.nodes, sched, sc.options);
    EXPECT_EQ(violations, 0);

    const auto& wp = sc.workload.pods;
    ASSERT_EQ(r.pods.size(), wp.size());
    const SimSummary& sum = r.summary;
    EXPECT_EQ(sum.pods, static_cast<int64_t>(wp.size()));
    EXPECT_EQ(sum.finished + sum.running + sum.pending + sum.rejected + sum.preempted, sum.pods);
    EXPECT_GE(r.node_names.size(), initial_nodes);
    int64_t running_milli = 0, running = 0, attempts = 0;
    for (size_t i = 0; i < wp.size(); ++i) {
      const PodOutcome& p = r.pods[i];
      SCOPED_TRACE(p.name);
      EXPECT_EQ(p.name, "default/" + wp[i].pod.name());
      EXPECT_EQ(p.arrival, wp[i].arrival);
      attempts += p.attempts;
      switch (p.state) {
        case PodOutcome::State::kFinished:
          EXPECT_GE(p.start, p.arrival);
          EXPECT_GE(p.finish, p.start);
          EXPECT_GE(wp[i].duration, 0);
          EXPECT_FALSE(p.node.empty());
          if (p.evictions == 0) { EXPECT_EQ(p.finish, p.start + wp[i].duration); }
          EXPECT_TRUE(p.reason.empty());
          break;
        case PodOutcome::State::kRunning:
          EXPECT_GE(p.start, p.arrival);
          EXPECT_EQ(p.finish, -1);
          EXPECT_FALSE(p.node.empty());
          EXPECT_TRUE(p.reason.empty());
          running_milli += PodInfo::Make(wp[i].pod, i).gpu.total_milli();
          ++running;
          break;
        case PodOutcome::State::kPending:
          EXPECT_EQ(p.finish, -1);
          EXPECT_FALSE(p.reason.empty());
          if (p.attempts == 0) {
            ASSERT_TRUE(sc.options.end_time.has_value());
            EXPECT_GT(p.arrival, *sc.options.end_time);
          }
          break;
        case PodOutcome::State::kRejected:
          ADD_FAILURE() << "no pod here is invalid";
          break;
        case PodOutcome::State::kPreempted:  // a bare pod evicted by a higher-priority one
          EXPECT_FALSE(p.reason.empty());
          break;
      }
      if (p.evictions > 0) { EXPECT_FALSE(sc.workload.node_events.empty()); }
      evictions += p.evictions;
      if (p.start >= 0 && wp[i].pod.meta.annotations.count("alibabacloud.com/gpu-milli")) ++shared_placed;
    }
    EXPECT_EQ(running, sum.running);
    EXPECT_EQ(attempts, sum.scheduling_attempts);
    pending += sum.pending;
    finished += sum.finished;
    running_total += sum.running;
    if (sc.options.end_time) ++cut;
    if (sc.options.end_time) {
      EXPECT_EQ(sum.end_time, *sc.options.end_time);
    }
    // The series: increasing times, bounded length, used within total, and
    // the last sample is the final state.
    if (sc.options.max_samples > 0) { EXPECT_LE(r.series.size(), sc.options.max_samples); }
    for (size_t k = 0; k < r.series.size(); ++k) {
      const SimSample& x = r.series[k];
      if (k > 0) { EXPECT_GT(x.time, r.series[k - 1].time); }
      EXPECT_GE(x.gpu_milli_used, 0);
      EXPECT_LE(x.gpu_milli_used, x.gpu_milli_total);
      EXPECT_GE(x.gpu_alloc_pct, 0);
      EXPECT_LE(x.gpu_alloc_pct, 100);
      EXPECT_LE(x.time, sum.end_time);
    }
    if (!r.series.empty()) {
      const SimSample& last = r.series.back();
      EXPECT_EQ(last.gpu_milli_used, running_milli);
      EXPECT_EQ(last.running, sum.running);
      if (!sc.options.end_time) { EXPECT_EQ(last.pending, sum.pending); }
    }
    EXPECT_GE(sum.mean_gpu_alloc_pct, 0);
    EXPECT_LE(sum.mean_gpu_alloc_pct, 100 + 1e-9);
    for (const NodeSnapshot& snap : r.snapshots) {
      ASSERT_EQ(snap.gpu_used_milli.size(), r.node_names.size());
      for (size_t n = 0; n < snap.gpu_used_milli.size(); ++n) {
        EXPECT_GE(snap.gpu_used_milli[n], 0);
        EXPECT_LE(snap.gpu_used_milli[n], snap.gpu_total_milli[n]);
      }
    }
  }
  EXPECT_GT(evictions, 20);
  EXPECT_GT(shared_placed, 100);
  EXPECT_GT(pending, 100);
  EXPECT_GT(finished, 1000);
  EXPECT_GT(running_total, 100);
  EXPECT_GT(cut, 20);
  std::printf("%s, 200 scenarios: %lld finished, %lld running, %lld pending, %lld evictions, %lld shares placed, %lld cut\n",
              policy.c_str(), static_cast<long long>(finished), static_cast<long long>(running_total),
              static_cast<long long>(pending),
              static_cast<long long>(evictions), static_cast<long long>(shared_placed), static_cast<long long>(cut));
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, SimPropertyTest, ::testing::ValuesIn(PolicyNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(SimDeterminismTest, SameSeedSameResult) {
  for (uint64_t seed : {3u, 17u, 42u, 99u, 123u}) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    std::string first;
    for (int run = 0; run < 2; ++run) {
      Scenario sc = RandomScenario(seed);
      // kube-scheduler's scoring, whose ties are broken by the seeded Rng.
      Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", seed);
      ASSERT_TRUE(set.ok());
      Scheduler& sched = *set.value().owned.front();
      const std::string got = testing::Serialize(Simulate(sc.workload, sc.nodes, sched, sc.options));
      if (run == 0) {
        first = got;
        EXPECT_NE(got.find("summary kube-default"), std::string::npos);
      } else {
        EXPECT_EQ(got, first);
      }
    }
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Both queues — QueueingHints (the default, and its class queue) and the
// queue before them (SchedulerQueueingHints=false) — keep the invariants on
// random workloads, and every pod that can never fit (bigger than every
// node; a nodeSelector no node matches) ends pending with the same message.
// With hints the selector pod is tried less often: no finishing pod can
// help it.
TEST(SimQueuesPropertyTest, BothQueuesKeepInvariantsAndNeverFitMessages) {
  int64_t compared = 0, fewer = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    Scenario sc = RandomScenario(seed);
    const bool static_nodes = seed % 2 == 0;
    if (static_nodes) sc.workload.node_events.clear();  // the messages count nodes
    const size_t too_big = sc.workload.pods.size(), nowhere = too_big + 1;
    WorkloadPod big;
    big.pod = testing::GpuPod("too-big", 16);
    big.arrival = 1;
    WorkloadPod picky;
    picky.pod = testing::GpuPod("nowhere", 1);
    picky.pod.node_selector["pool"] = "none";
    picky.arrival = 2;
    sc.workload.pods.push_back(big);
    sc.workload.pods.push_back(picky);
    SimResult r[2];
    for (int hints = 0; hints < 2; ++hints) {
      SimOptions o = sc.options;
      o.end_time.reset();
      o.queueing_hints = hints == 1;
      int violations = 0;
      o.invariant_failed = [&violations](const std::string& what) {
        if (++violations <= 3) ADD_FAILURE() << what;
      };
      Scheduler sched(DefaultFilters(), std::make_unique<FirstFitPolicy>(), seed);
      r[hints] = Simulate(sc.workload, sc.nodes, sched, o);
      EXPECT_EQ(violations, 0) << "hints " << hints;
      const SimSummary& s = r[hints].summary;
      EXPECT_EQ(s.finished + s.running + s.pending + s.rejected, s.pods);
      for (size_t id : {too_big, nowhere}) {
        EXPECT_EQ(r[hints].pods[id].state, PodOutcome::State::kPending);
        const std::string& why = r[hints].pods[id].reason;
        // kube-scheduler's message, or its error once every node is gone.
        EXPECT_TRUE(why.rfind("0/", 0) == 0 || (!static_nodes && why == kNoNodesAvailable)) << why;
      }
    }
    if (!static_nodes) continue;
    for (size_t id : {too_big, nowhere}) {
      EXPECT_EQ(r[1].pods[id].reason, r[0].pods[id].reason);
      ++compared;
    }
    EXPECT_LE(r[1].pods[nowhere].attempts, r[0].pods[nowhere].attempts);
    fewer += r[1].pods[nowhere].attempts < r[0].pods[nowhere].attempts;
  }
  EXPECT_EQ(compared, 200);
  EXPECT_GT(fewer, 50);
}

}  // namespace
}  // namespace gpusched

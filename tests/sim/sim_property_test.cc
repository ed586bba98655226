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
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/filters.h"
#include "gpusched/sched/frag.h"
#include "gpusched/sched/policy.h"
#include "gpusched/sched/policy_registry.h"
#include "gpusched/sched/profile_factory.h"
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

std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Every field of the result, doubles exactly.
std::string Serialize(const SimResult& r) {
  std::string out = "policy " + r.policy + "\nnodes";
  for (const auto& n : r.node_names) out += " " + n;
  out += "\n";
  for (const SimSample& x : r.series)
    out += "sample " + Num(x.time) + " " + Num(x.gpu_alloc_pct) + " " + Num(x.gpu_unalloc_pct) + " " + Num(x.frag_pct) +
           " " + Num(x.frag_of_idle_pct) + " " + std::to_string(x.pending) + " " + std::to_string(x.running) + " " +
           std::to_string(x.arrived_gpu_milli) + " " + std::to_string(x.gpu_milli_total) + " " +
           std::to_string(x.gpu_milli_used) + "\n";
  for (const NodeSnapshot& s : r.snapshots) {
    out += "snapshot " + Num(s.time);
    for (size_t i = 0; i < s.gpu_used_milli.size(); ++i)
      out += " " + std::to_string(s.gpu_used_milli[i]) + "/" + std::to_string(s.gpu_total_milli[i]);
    out += "\n";
  }
  for (const PodOutcome& p : r.pods)
    out += "pod " + p.name + " " + std::to_string(static_cast<int>(p.state)) + " " + Num(p.arrival) + " " +
           Num(p.start) + " " + Num(p.finish) + " " + p.node + " " + std::to_string(p.attempts) + " " +
           std::to_string(p.evictions) + " " + p.reason + "\n";
  const SimSummary& s = r.summary;
  auto pct = [](const Percentiles& p) {
    return std::to_string(p.count) + " " + Num(p.p50) + " " + Num(p.p90) + " " + Num(p.p99) + " " + Num(p.max) + " " +
           Num(p.mean);
  };
  out += "summary " + s.policy + " " + std::to_string(s.pods) + " " + std::to_string(s.finished) + " " +
         std::to_string(s.running) + " " + std::to_string(s.pending) + " " + std::to_string(s.rejected) + " " +
         Num(s.end_time) + " " + Num(s.mean_gpu_alloc_pct) + " " + Num(s.mean_frag_pct) + " " + pct(s.queueing_delay) +
         " " + pct(s.jct) + " " + std::to_string(s.scheduling_attempts) + "\n";
  return out;
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
      const std::string got = Serialize(Simulate(sc.workload, sc.nodes, sched, sc.options));
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

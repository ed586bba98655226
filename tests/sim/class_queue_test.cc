// ClassQueue against the queue driven pod by pod (SimOptions::group_by_class
// false), which it must equal: whole simulations on random clusters and
// workloads where pods of few classes crowd the queue.
#include "gpusched/sim/class_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../sched/test_util.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/eviction.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sim/simulator.h"
#include "gpusched/util/random.h"
#include "sim_test_util.h"

namespace gpusched {
namespace {

using testing::GpuNode;
using testing::GpuPod;

// A hand-worked moment: three pods of one class and one of another, one
// GPU free. The first 1-GPU pod is placed; the other 1-GPU pod and the
// 2-GPU pod fail, each class once, and wait in the pool with the moment's
// Timestamp; the 1-GPU pod not tried is counted as an attempt all the same.
TEST(ClassQueueTest, OneMomentTriesEachClassUntilItFails) {
  ClassQueue q(SchedulingQueueOptions{});
  q.Add(0, /*cls=*/0, 0, 1000, 5);
  q.Add(1, 0, 0, 1000, 5);
  q.Add(2, 1, 0, 2000, 5);
  q.Add(3, 0, 0, 1000, 5);
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(q.active_or_backoff_size(), 4u);
  int free_gpus = 1;
  std::vector<size_t> tried;
  auto failure = std::make_shared<Failure>();
  failure->message = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.";
  failure->fit_error.num_all_nodes = 1;
  failure->rejectors = 1;
  ClassQueue::Hooks hooks;
  hooks.attempt = [&](size_t id) -> std::shared_ptr<const Failure> {
    tried.push_back(id);
    const int want = id == 2 ? 2 : 1;
    if (want > free_gpus) return failure;
    free_gpus -= want;
    return nullptr;
  };
  hooks.failure_now = [&](size_t) { return failure; };
  EXPECT_EQ(q.ScheduleAll(5, hooks), 4);
  EXPECT_EQ(tried, (std::vector<size_t>{0, 1, 2}));  // activeQ order: Timestamp, then id
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.active_or_backoff_size(), 0u);
  for (size_t id : {1u, 2u, 3u}) {
    EXPECT_EQ(q.Attempts(id), 1) << id;
    EXPECT_EQ(q.LastFailure(id)->message, failure->message);
  }
  // The 5-minute leftover flush: the first 30-second tick after 305 s.
  // Backoff 1 s after the first failure: a requeue 0.5 s later goes to
  // backoffQ, popped all the same (SchedulerPopFromBackoffQ).
  EXPECT_EQ(q.NextUnschedulableFlush(), 330);
  q.Requeue(5.5, [](size_t id, const Failure&) { return id != 2; });  // class 1 is not helped
  EXPECT_EQ(q.active_or_backoff_size(), 2u);
  tried.clear();
  free_gpus = 1;
  EXPECT_EQ(q.ScheduleAll(5.5, hooks), 2);
  EXPECT_EQ(tried, (std::vector<size_t>{1, 3}));
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.Attempts(2), 1);
  EXPECT_EQ(q.Attempts(3), 2);
}

// ---------------------------------------------------------------------------
// Whole simulations, class queue against pod by pod.

struct Shape {
  int64_t gpus = 0, milli_cpu = 0, share = 0, share_devices = 1;
  int32_t priority = 0;
  bool selector = false, toleration = false, never = false;
  // For preemption's victims: recreated by a Job (else gone), their grace
  // period (seconds; -1 the default 30) and checkpoints.
  bool job = false, checkpoint = false;
  int64_t grace = -1;
};

Shape RandomShape(Rng& rng) {
  Shape s;
  const uint64_t k = rng.Uniform(10);
  if (k < 6) {
    static const int64_t kGpus[] = {0, 1, 1, 2, 4, 8};
    s.gpus = kGpus[rng.Uniform(6)];
  } else if (k < 8) {
    s.share = 100 * static_cast<int64_t>(1 + rng.Uniform(10));
    s.share_devices = rng.Uniform(4) == 0 ? 2 : 1;
  } else {
    s.gpus = 16;  // bigger than every node
  }
  s.milli_cpu = 1000 * static_cast<int64_t>(rng.Uniform(9));
  // Mixed priorities, so that kube-default's DefaultPreemption evicts.
  if (rng.Uniform(2) == 0) s.priority = static_cast<int32_t>(rng.Uniform(3)) * 100;
  s.job = rng.Uniform(2) == 0;
  s.checkpoint = rng.Uniform(4) == 0;
  // Not 0: a victim recreated by its Job may take the room back before its
  // preemptor in a non-priority queue order, and with no grace period that
  // loop does not advance the clock (see the end_time below).
  static const int64_t kGrace[] = {-1, 5, 120};
  s.grace = kGrace[rng.Uniform(3)];
  s.selector = rng.Uniform(6) == 0;
  s.toleration = rng.Uniform(5) == 0;
  s.never = rng.Uniform(12) == 0;  // a selector no node matches until one joins
  return s;
}

Pod PodOf(const Shape& s, const std::string& name) {
  Pod p = GpuPod(name, s.gpus, s.milli_cpu);
  if (s.share > 0) {
    p.meta.annotations["alibabacloud.com/gpu-milli"] = std::to_string(s.share);
    p.meta.annotations["alibabacloud.com/gpu-count"] = std::to_string(s.share_devices);
  }
  if (s.priority) p.priority = s.priority;
  if (s.selector) p.node_selector["zone"] = "a";
  if (s.never) p.node_selector["pool"] = "late";
  if (s.toleration) p.tolerations.push_back({"dedicated", "Exists", "", ""});
  if (s.job) p.owner = "Job/j";
  if (s.checkpoint) p.meta.annotations[kAnnotationCheckpointInterval] = "60";
  if (s.grace >= 0) {
    auto extras = std::make_shared<PodSpecExtras>();
    extras->termination_grace_period_seconds = s.grace;
    p.extras = extras;
  }
  return p;
}

Node RandomNode(const std::string& name, Rng& rng) {
  Node n = GpuNode(name, static_cast<int64_t>(rng.Uniform(9)), 1000 * static_cast<int64_t>(4 + rng.Uniform(60)),
                   1LL << 37, 2 + static_cast<int64_t>(rng.Uniform(30)));
  n.meta.labels["zone"] = rng.Uniform(2) ? "a" : "b";
  if (rng.Uniform(6) == 0) n.taints.push_back({"dedicated", "x", "NoSchedule"});
  if (rng.Uniform(15) == 0) n.unschedulable = true;
  return n;
}

struct Scenario {
  std::vector<Node> nodes;
  Workload workload;
  SimOptions options;
  std::string policy;
};

Scenario RandomScenario(uint64_t seed) {
  Rng rng(seed);
  Scenario s;
  const size_t num_nodes = rng.Uniform(8) == 0 ? 0 : 1 + rng.Uniform(8);
  for (size_t i = 0; i < num_nodes; ++i) s.nodes.push_back(RandomNode("n" + std::to_string(i), rng));
  std::vector<Shape> shapes;
  for (size_t k = 0, n = 1 + rng.Uniform(6); k < n; ++k) shapes.push_back(RandomShape(rng));
  const size_t num_pods = 10 + rng.Uniform(150);
  // Crowded: arrivals within a few minutes, runs of minutes to hours.
  const double span = 30.0 * static_cast<double>(1 + rng.Uniform(20));
  for (size_t i = 0; i < num_pods; ++i) {
    WorkloadPod wp;
    wp.pod = PodOf(shapes[rng.Uniform(shapes.size())], "p" + std::to_string(i));
    wp.arrival = static_cast<double>(rng.Uniform(static_cast<uint64_t>(span * 4))) / 4;
    const uint64_t d = rng.Uniform(20);
    wp.duration = d == 0 ? -1 : d == 1 ? 0 : static_cast<double>(rng.Uniform(4 * 3600)) / 4;
    s.workload.pods.push_back(std::move(wp));
  }
  for (size_t i = 0, n = rng.Uniform(4); i < n; ++i) {
    NodeEvent e;
    if (num_nodes > 0 && rng.Uniform(2) == 0) {
      e.kind = NodeEvent::Kind::kRemove;
      e.name = "n" + std::to_string(rng.Uniform(num_nodes));
    } else {
      e.kind = NodeEvent::Kind::kAdd;
      e.node = RandomNode("added" + std::to_string(i), rng);
      if (rng.Uniform(2) == 0) e.node.meta.labels["pool"] = "late";
    }
    e.time = static_cast<double>(rng.Uniform(static_cast<uint64_t>(span * 8))) / 4;
    s.workload.node_events.push_back(e);
  }
  const QueueOrder orders[] = {QueueOrder::kPriority, QueueOrder::kFifo, QueueOrder::kLargestFirst,
                               QueueOrder::kSmallestFirst};
  s.options.order = orders[rng.Uniform(4)];
  static const double kBackoff[][2] = {{1, 10}, {1, 10}, {0.5, 3}, {2, 2}, {1, 0}, {0, 0}, {0.25, 60}};
  const auto& b = kBackoff[rng.Uniform(7)];
  s.options.initial_backoff = b[0];
  s.options.max_backoff = b[1];
  s.options.max_samples = 0;
  if (rng.Uniform(5) == 0) s.options.end_time = span * static_cast<double>(1 + rng.Uniform(4));
  static const char* kPolicies[] = {"first-fit", "best-fit", "kube-default", "fgd", "random"};
  s.policy = kPolicies[rng.Uniform(5)];
  // Runs with Jobs stop at an end time (their victims come back and run
  // again, which makes long runs). With preemption possible the simulator
  // uses the pod-by-pod queue for both (Simulation::UseClassQueue).
  bool jobs = false;
  for (const Shape& sh : shapes) jobs = jobs || sh.job;
  if (jobs && !s.options.end_time) s.options.end_time = span * 4;
  return s;
}

std::unique_ptr<Scheduler> MakeScheduler(const Scenario& s, uint64_t seed, const TypicalPods* typical) {
  PolicyOptions po;
  po.typical = typical;
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), s.policy, seed, po);
  return std::move(set->owned.front());
}

TEST(ClassQueueTest, SimulationsEqualThePodByPodQueue) {
  std::map<std::string, int64_t> seen;  // what the scenarios went through
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    Scenario sc = RandomScenario(seed);
    std::vector<PodShape> shapes;
    for (size_t i = 0; i < sc.workload.pods.size(); ++i)
      shapes.push_back(ShapeOf(PodInfo::Make(sc.workload.pods[i].pod, i)));
    const TypicalPods typical = ComputeTypicalPods(shapes);
    std::string got[2];
    for (int by_class = 0; by_class < 2; ++by_class) {
      SimOptions o = sc.options;
      o.group_by_class = by_class == 1;
      o.check_invariants = true;
      int violations = 0;
      o.invariant_failed = [&violations](const std::string& what) {
        if (++violations <= 3) ADD_FAILURE() << what;
      };
      auto sched = MakeScheduler(sc, seed, &typical);
      SimResult r = Simulate(sc.workload, sc.nodes, *sched, o);
      got[by_class] = testing::Serialize(r);
      if (by_class == 0) {
        seen["pending"] += r.summary.pending;
        seen["attempts"] += r.summary.scheduling_attempts;
        seen["preemptions"] += r.summary.preemptions;
        seen["victims"] += r.summary.victims;
        seen["victims gone"] += r.summary.preempted;
        for (const PodOutcome& p : r.pods) {
          seen["evicted"] += p.evictions;
          if (p.reason == "no nodes available to schedule pods") ++seen["no nodes"];
          if (p.reason.find("preemption:") != std::string::npos) ++seen["preemption message"];
          if (p.reason.find("affinity/selector") != std::string::npos) ++seen["selector"];
        }
      }
    }
    ASSERT_EQ(got[1], got[0]) << sc.policy;
  }
  for (const char* what :
       {"pending", "evicted", "no nodes", "preemption message", "selector", "preemptions", "victims", "victims gone"})
    EXPECT_GT(seen[what], 50) << what;
  EXPECT_GT(seen["attempts"], 100000);
}

}  // namespace
}  // namespace gpusched

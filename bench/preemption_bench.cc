#include "preemption_bench.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "bench_cluster.h"
#include "gpusched/sched/framework/batch_preemption.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/scheduler.h"

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

Pod WholeGpuPod(size_t i, int64_t gpus, int32_t priority) {
  Pod p;
  p.meta.name = "pod-" + std::to_string(i);
  p.meta.namespace_ = "default";
  Container c;
  c.name = "main";
  c.requests["cpu"] = Quantity::FromMilli(1000);
  c.requests["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  c.limits["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  p.containers.push_back(c);
  p.priority = priority;
  return p;
}

struct Rate {
  double rate = 0;
  int64_t decisions = 0, victims = 0, placed = 0;
};

// Fills the cluster with priority-0 pods of 1/2/4/8 GPUs, then times
// decisions of pods whose priority rises with each one (so each outranks
// everything running): ScheduleOne, and on failure the PostFilter, the
// evictions and the second attempt.
Rate Measure(size_t n, int32_t percentage, double budget_s) {
  ClusterState cluster(MakeCluster(n));
  Scheduler s(DefaultFilters(), std::make_unique<FirstFitPolicy>(), 1, /*preemption=*/true);
  std::vector<std::unique_ptr<Pod>> pods;
  Rng rng(7);
  const int64_t shapes[] = {1, 2, 4, 8};
  size_t misses = 0;
  while (misses < 64) {
    pods.push_back(std::make_unique<Pod>(WholeGpuPod(pods.size(), shapes[rng.Uniform(4)], 0)));
    PodInfo info = PodInfo::Make(*pods.back(), pods.size() - 1);
    if (!s.ScheduleOne(info, cluster).scheduled) ++misses;
  }
  BatchPreemptionInputs in;
  in.min_candidate_nodes_percentage = percentage;
  Rate r;
  const auto start = Clock::now();
  for (int32_t prio = 1;; ++prio) {
    if ((prio & 15) == 0 && std::chrono::duration<double>(Clock::now() - start).count() > budget_s) break;
    pods.push_back(std::make_unique<Pod>(WholeGpuPod(pods.size(), shapes[rng.Uniform(4)], prio)));
    PodInfo info = PodInfo::Make(*pods.back(), pods.size() - 1);
    ++r.decisions;
    Decision d = s.ScheduleOne(info, cluster);
    if (!d.scheduled) {
      std::optional<PreemptionResult> p = PreemptInBatch(info, cluster, s, in);
      if (p) {
        r.victims += static_cast<int64_t>(p->victims.size());
        d = s.ScheduleOne(info, cluster);
      }
    }
    r.placed += d.scheduled;
  }
  r.rate = static_cast<double>(r.decisions) / std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

}  // namespace

void PreemptionThroughput(const std::vector<size_t>& sizes, double budget_s) {
  std::printf("\npreemption-heavy decisions per second (cluster full of priority-0 pods; each pod outranks all\n"
              "running ones, fails, preempts, is placed; first-fit filters):\n");
  std::printf("  %7s %12s %12s %8s %14s %10s\n", "NODES", "UPSTREAM", "ALL NODES", "RATIO", "VICTIMS/DEC", "PLACED");
  for (size_t n : sizes) {
    const Rate fast = Measure(n, 10, budget_s);
    const Rate plain = Measure(n, 100, budget_s);
    std::printf("  %7zu %12.0f %12.0f %7.1fx %14.2f %9.1f%%\n", n, fast.rate, plain.rate, fast.rate / plain.rate,
                fast.decisions ? static_cast<double>(fast.victims) / static_cast<double>(fast.decisions) : 0.0,
                fast.decisions ? 100.0 * static_cast<double>(fast.placed) / static_cast<double>(fast.decisions) : 0.0);
  }
}

}  // namespace gpusched::bench

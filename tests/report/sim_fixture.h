// A tiny hand-made SimResult shared by the simulation report tests: three
// nodes (the third absent in the snapshot), three samples, four pods (one in
// each state), numbers chosen so every drawn coordinate is round.
#ifndef GPUSCHED_TESTS_REPORT_SIM_FIXTURE_H_
#define GPUSCHED_TESTS_REPORT_SIM_FIXTURE_H_

#include <string>

#include "gpusched/sim/sim_result.h"

namespace gpusched::testing {

inline SimResult TinyRun(std::string policy = "first-fit") {
  using S = PodOutcome::State;
  SimResult r;
  r.policy = policy;
  r.node_names = {"gpu-node-1", "gpu-node-2", "gpu-node-3"};
  r.series = {
      {.time = 0, .gpu_alloc_pct = 0, .gpu_unalloc_pct = 100, .frag_pct = 0, .frag_of_idle_pct = 0, .pending = 2,
       .running = 0, .arrived_gpu_milli = 2000, .gpu_milli_total = 8000, .gpu_milli_used = 0},
      {.time = 50, .gpu_alloc_pct = 50, .gpu_unalloc_pct = 50, .frag_pct = 12.5, .frag_of_idle_pct = 25,
       .pending = 1, .running = 2, .arrived_gpu_milli = 6000, .gpu_milli_total = 8000, .gpu_milli_used = 4000},
      {.time = 100, .gpu_alloc_pct = 100, .gpu_unalloc_pct = 0, .frag_pct = 0, .frag_of_idle_pct = 0, .pending = 0,
       .running = 3, .arrived_gpu_milli = 8000, .gpu_milli_total = 8000, .gpu_milli_used = 8000},
  };
  r.snapshots = {{.time = 50, .gpu_used_milli = {2000, 1500, 0}, .gpu_total_milli = {4000, 4000, 0}}};
  r.pods = {
      {"default/a", S::kFinished, 0, 0, 100, "gpu-node-1", 1, 0, ""},
      {"default/b", S::kRunning, 10, 40, -1, "gpu-node-2", 2, 1, ""},
      {"ml/c,\"x\"", S::kPending, 20, -1, -1, "", 3, 0, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."},
      {"default/d", S::kRejected, 30, -1, -1, "", 0, 0, "line1\nline2"},
  };
  r.summary.policy = policy;
  r.summary.pods = 4;
  r.summary.finished = 1;
  r.summary.running = 1;
  r.summary.pending = 1;
  r.summary.rejected = 1;
  r.summary.end_time = 100;
  r.summary.mean_gpu_alloc_pct = 50;
  r.summary.mean_frag_pct = 6.25;
  r.summary.queueing_delay = {.count = 2, .p50 = 0, .p90 = 30, .p99 = 30, .max = 30, .mean = 15};
  r.summary.jct = {.count = 1, .p50 = 100, .p90 = 100, .p99 = 100, .max = 100, .mean = 100};
  r.summary.scheduling_attempts = 6;
  return r;
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_REPORT_SIM_FIXTURE_H_

// Helpers shared by the simulator's tests.
#ifndef GPUSCHED_TESTS_SIM_SIM_TEST_UTIL_H_
#define GPUSCHED_TESTS_SIM_SIM_TEST_UTIL_H_

#include <cstdio>
#include <string>

#include "gpusched/sim/sim_result.h"

namespace gpusched::testing {

inline std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Every field of the result, doubles exactly.
inline std::string Serialize(const SimResult& r) {
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
  out += "preemption " + std::to_string(s.preempted) + " " + std::to_string(s.preemptions) + " " +
         std::to_string(s.victims) + " " + Num(s.gpu_hours_lost);
  for (const auto& [prio, n] : s.victims_by_priority) out += " " + std::to_string(prio) + "=" + std::to_string(n);
  out += "\n";
  return out;
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SIM_SIM_TEST_UTIL_H_

// SimResult: everything one simulation run (one policy over one workload)
// produces, in plain data: the metric time series, the fate of every pod,
// node-occupancy snapshots for the heatmap, and the summary. The CSV/JSON
// writers and the HTML report read only this.
#ifndef GPUSCHED_SIM_SIM_RESULT_H_
#define GPUSCHED_SIM_SIM_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpusched/sched/diagnosis/advice.h"

namespace gpusched {

// The cluster at one moment (taken after every event batch at a distinct
// simulated time, thinned to at most SimOptions::max_samples).
struct SimSample {
  double time = 0;               // simulated seconds
  double gpu_alloc_pct = 0;      // allocated GPU milli / total GPU milli * 100
  double gpu_unalloc_pct = 0;    // 100 - gpu_alloc_pct (0 when there are no GPUs)
  double frag_pct = 0;           // FGD fragmentation: sum of node frag / total GPU milli * 100
  double frag_of_idle_pct = 0;   // sum of node frag / idle GPU milli * 100 (FGD's frag ratio)
  int64_t pending = 0;           // pods waiting (activeQ + backoffQ + unschedulable)
  int64_t running = 0;
  int64_t arrived_gpu_milli = 0; // GPU milli requested by every pod arrived so far
  int64_t gpu_milli_total = 0;   // of the nodes present
  int64_t gpu_milli_used = 0;
};

// Per-node GPU occupancy at one moment, for the heatmap.
struct NodeSnapshot {
  double time = 0;
  std::vector<int32_t> gpu_used_milli;  // per node (input order), summed over its devices
  std::vector<int32_t> gpu_total_milli; // per node; 0 for nodes absent at that time
};

struct PodOutcome {
  // kPreempted: evicted by DefaultPreemption and not recreated (a bare pod).
  enum class State { kFinished, kRunning, kPending, kRejected, kPreempted };
  std::string name;       // "namespace/name"
  State state = State::kPending;
  double arrival = 0;
  double start = -1;      // first bind time; -1 if never bound
  double finish = -1;     // -1 unless finished
  std::string node;       // last node, "" if never bound
  int32_t attempts = 0;   // scheduling attempts
  int32_t evictions = 0;  // times evicted by a node removal
  std::string reason;     // pending: kube-scheduler's message; rejected: the error
  // Pending before any attempt: the setting its diagnosis recommends, which
  // follows `reason` when printed (report/diagnosis_text.h).
  Advice advice;
};

struct Percentiles {
  int64_t count = 0;
  double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};

// Gangs through a run (sim/gang_permit.h); all zero without gangs.
struct GangSimMetrics {
  int64_t gangs = 0;     // gangs with members in the run (min_count > 1 or not)
  int64_t enforced = 0;  // of them, enforced by their pods' scheduler (Permit or session)
  int64_t started = 0;   // times an enforced gang started (minCount allowed at once)
  // From the first member reserved to the gang's start, per start (retries
  // after a timeout included in the wait).
  Percentiles wait;
  double waiting_gpu_seconds = 0;  // GPU-seconds held by members reserved and waiting on Permit
  int64_t timeouts = 0;            // Permit timeouts (each rejects every waiting member of its gang)
  int64_t gangs_timed_out = 0;     // distinct gangs that timed out at least once
  int64_t retries = 0;             // reservation rounds that followed a timeout
  int64_t session_rejections = 0;  // Volcano/KAI moments that ended with a gang below minMember
  int64_t optimistic_rejections = 0;  // Coscheduling PostFilter rejections of waiting members' groups
  // Groups placed one by one (their scheduler does not gang): those that
  // ever ran members while never having minCount running at once, and the
  // GPU-hours those members held meanwhile.
  int64_t partial_groups = 0;
  double partial_gpu_hours = 0;
};

struct SimSummary {
  std::string policy;
  int64_t pods = 0, finished = 0, running = 0, pending = 0, rejected = 0;
  double end_time = 0;
  double mean_gpu_alloc_pct = 0;  // time-weighted
  double mean_frag_pct = 0;       // time-weighted
  Percentiles queueing_delay;     // start - arrival, over pods that started
  Percentiles jct;                // finish - arrival, over finished pods
  int64_t scheduling_attempts = 0;
  // --- Preemption ---
  int64_t preempted = 0;      // pods in State::kPreempted
  int64_t preemptions = 0;    // PostFilter runs that nominated a node
  int64_t victims = 0;        // pods evicted by them (a pod evicted twice counts twice)
  std::vector<std::pair<int32_t, int64_t>> victims_by_priority;  // ascending priority
  // GPU-hours of work the victims lost: since they started, or since their
  // last checkpoint (gpusched.io/checkpoint-interval; model/eviction.h).
  double gpu_hours_lost = 0;
  // Gangs broken by preemption (sim/broken_gangs.h): left below minCount
  // running by evictions after they had it; the GPU-hours their evicted
  // members lost (part of gpu_hours_lost); the GPU-hours their members still
  // running held meanwhile, idle, until the gang had minCount again.
  int64_t gangs_broken = 0;
  double broken_gang_gpu_hours_lost = 0;
  double broken_gang_idle_gpu_hours = 0;
  // --- end preemption ---
  GangSimMetrics gangs;  // Permit in simulate
};

struct SimResult {
  std::string policy;
  std::vector<std::string> node_names;  // input order (added nodes appended)
  std::vector<SimSample> series;
  std::vector<NodeSnapshot> snapshots;
  std::vector<PodOutcome> pods;          // in workload order
  SimSummary summary;
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_SIM_RESULT_H_

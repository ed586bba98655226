// The FGD paper's experiment protocol (Weng et al., ATC '23, §6; the
// simulator's experiments/README.md and pkg/simulator/core.go), for any of
// gpusched's policies: for each (policy, seed) run, sort the trace's pods by
// name, shuffle them with the seed, "tune" the workload to a target GPU
// demand (append pods drawn with replacement until the request reaches
// tune_ratio x capacity, or remove random pods while it is above), then
// schedule them one by one on an empty cluster with no departures; a pod
// that does not fit is dropped. After every pod the allocated and arrived
// GPU milli are sampled; the merge step buckets the samples by arrived GPU %
// (merge_alloc_discrete.py) and averages them over seeds.
#ifndef GPUSCHED_SIM_EXPERIMENT_H_
#define GPUSCHED_SIM_EXPERIMENT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

struct ExperimentOptions {
  std::vector<std::string> policies;  // registry names (sched/policies/policy_registry.h)
  std::vector<uint64_t> seeds;        // the paper: 42..51
  double tune_ratio = 1.3;            // <= 0: no tuning
  int threads = 0;                    // 0: one per core
  int max_x = 130;                    // arrived GPU % buckets 0..max_x
  // Called after each finished run (from worker threads, serialized).
  std::function<void(size_t done, size_t total)> progress;
};

// One (policy, seed) run. Per bucket x (arrived GPU % rounded), the mean of
// the samples in it; NaN where no sample fell (use Bucketed()).
struct ExperimentRun {
  std::string policy;
  uint64_t seed = 0;
  int64_t pods = 0;    // after tuning
  int64_t placed = 0;
  int64_t failed = 0;
  std::vector<double> alloc_pct;  // index x: allocated GPU % (y of Fig. 9)
  std::vector<double> frag_pct;   // index x: FGD fragmentation, % of GPU capacity
};

// Mean and sample standard deviation over the seeds of one policy.
struct ExperimentCurve {
  std::string policy;
  std::vector<double> unalloc_mean, unalloc_sd;  // 100 - alloc, index x
  std::vector<double> frag_mean;
};

struct ExperimentResult {
  std::vector<ExperimentRun> runs;      // policy-major, seeds in order
  std::vector<ExperimentCurve> curves;  // in policy order
  int64_t gpu_milli_capacity = 0;
};

// `pods` are the trace's pods (their order does not matter: runs sort them
// by name first). Every policy must be a known registry name; the caller
// checks that.
ExperimentResult RunExperiment(const std::vector<Node>& nodes, const std::vector<Pod>& pods,
                               const ExperimentOptions& options);

// merge_alloc_discrete.py's bucketing of (x, y) samples into 0..max_x: the
// mean y of the samples whose rounded x is that bucket; an empty bucket
// takes the mean over x-1..x+1; NaN when that is empty too.
std::vector<double> BucketSamples(const std::vector<std::pair<int, double>>& samples, int max_x);

}  // namespace gpusched

#endif  // GPUSCHED_SIM_EXPERIMENT_H_

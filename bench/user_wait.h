// What users wait for, measured end to end: the real `gpusched` binary run
// as a child process (loading, scheduling, diagnosis and the table output,
// its CPU time and peak memory from wait4), against the seed's own Python
// first-fit (bench/seed_first_fit.py) on the same cluster file in the same
// run, and `gpusched simulate` on an overloaded cluster as the pods double.
#ifndef GPUSCHED_BENCH_USER_WAIT_H_
#define GPUSCHED_BENCH_USER_WAIT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusched::bench {

// A child process's cost.
struct ChildRun {
  bool ok = false;      // exited 0 (or 1, gpusched's "some input rejected")
  int status = 0;       // as wait4 returned it
  double wall = 0;      // seconds
  double cpu = 0;       // user + system seconds
  double peak_mib = 0;  // maximum resident set
};

// Runs argv[0] with argv, stdout to `stdout_path`, stderr discarded, its
// address space limited to `mem_limit_bytes` (0: no limit) so that a run
// that would exhaust a shared machine fails instead.
ChildRun RunChild(const std::vector<std::string>& argv, const std::string& stdout_path, uint64_t mem_limit_bytes);

// The seed's situation at scale, as one JSON List: `nodes` nodes of 1-8
// GPUs (uniform), `pods` pods of 1, 2, 4 or 8 GPUs (uniform) in the default
// namespace, requests as limits only, as the seed writes them. With 10 pods
// per node most pods stay pending.
void WriteSeedShapedCluster(const std::string& path, size_t nodes, size_t pods, uint64_t seed);

struct UserWaitOptions {
  std::string gpusched;  // the binary
  std::string python = "python3";
  std::string seed_script;  // bench/seed_first_fit.py
  std::string dir;          // scratch directory
  int repeats = 3;          // runs per figure; the median is printed
  uint64_t mem_limit = 8ull << 30;
};

// `gpusched schedule --policy first-fit` against the seed's Python at each
// pod count (nodes = pods / 10), with the ratio and a check that both place
// the same pods on the same nodes; then, in process, where gpusched's time
// goes (loading, scheduling with diagnosis, table output).
void ScheduleVsSeed(const UserWaitOptions& o, const std::vector<size_t>& pod_counts);

// One big batch (default 10,000 nodes / 1,000,000 pods): time and peak
// memory of the binary, then the same phases in process, loading included.
void ScheduleBig(const UserWaitOptions& o, size_t nodes, size_t pods);

// `gpusched simulate --policy kube-default` on 300 nodes of 8 GPUs with
// arrivals 9x what they can run, at each pod count, with the growth per
// doubling; with `old_queue_up_to` > 0 also
// `--feature-gates SchedulerQueueingHints=false` up to that many pods.
void OverloadedSimulate(const UserWaitOptions& o, const std::vector<size_t>& pod_counts, size_t old_queue_up_to);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_USER_WAIT_H_

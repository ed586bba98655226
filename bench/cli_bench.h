// The gpusched binary end to end, as a user runs it: `schedule` and
// `explain POD` on a generated cluster of manifests, each in a child process
// so that its time and peak memory (wait4's ru_maxrss) are its own.
// `explain` must cost what `schedule` costs, not what every pod's per-node
// record would.
#ifndef GPUSCHED_BENCH_CLI_BENCH_H_
#define GPUSCHED_BENCH_CLI_BENCH_H_

#include <cstddef>
#include <vector>

namespace gpusched::bench {

// One row per node count (pods: 5 per node), the median of `runs` runs.
void ExplainAgainstSchedule(const std::vector<size_t>& node_counts, int runs);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_CLI_BENCH_H_

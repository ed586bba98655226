// Preemption-heavy scheduling throughput (gpusched_bench --only preemption):
// a cluster filled with low-priority pods, then a stream of pods each of a
// higher priority than everything running, so that every decision fails
// its first attempt, runs DefaultPreemption, evicts and places the pod.
#ifndef GPUSCHED_BENCH_PREEMPTION_BENCH_H_
#define GPUSCHED_BENCH_PREEMPTION_BENCH_H_

#include <cstddef>
#include <vector>

namespace gpusched::bench {

// One row per size: decisions per second with upstream's DefaultPreemption
// args (dry run over max(10% of the nodes, 100) candidates), against the
// plain implementation measured in the same run: the dry run over every
// candidate node (minCandidateNodesPercentage 100), which picks by the same
// criteria among all nodes.
void PreemptionThroughput(const std::vector<size_t>& sizes, double budget_s);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_PREEMPTION_BENCH_H_

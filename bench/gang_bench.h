// Gang-heavy scheduling throughput (gpusched_bench --only gangs): a cluster
// of 8-GPU nodes partly filled with single pods, then a stream of gangs
// (scheduler-plugins Coscheduling PodGroups of 2-16 members x 1, 2, 4 or 8
// GPUs, minMember all of them) decided all or nothing by ScheduleBatch, as
// `gpusched schedule --config` with a Coscheduling profile decides them:
// each member tried on the live cluster, the placed ones unbound again when
// the gang falls short (with the gang diagnosis, which asks whether the gang
// would fit the empty cluster).
#ifndef GPUSCHED_BENCH_GANG_BENCH_H_
#define GPUSCHED_BENCH_GANG_BENCH_H_

#include <cstddef>
#include <vector>

namespace gpusched::bench {

// One row per size: gang decisions and member decisions per second through
// ScheduleBatch (indexed scan), against the plain implementation measured in
// the same run on the same cluster and gangs: each member tried with
// Scheduler::ScheduleOne's plain scan on a copy of the cluster, the copy kept
// when at least minMember members fit and discarded otherwise. Both must
// place the same pods on the same nodes and devices ("same"/"DIFFERENT").
void GangThroughput(const std::vector<size_t>& sizes);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_GANG_BENCH_H_

// Percentiles of a sample (queueing delay, job completion time) by the
// nearest-rank method, so every reported value is one that occurred.
#ifndef GPUSCHED_SIM_PERCENTILES_H_
#define GPUSCHED_SIM_PERCENTILES_H_

#include <vector>

#include "gpusched/sim/sim_result.h"

namespace gpusched {

// `sorted` ascending; p in (0, 100]. 0 for an empty sample.
double NearestRank(const std::vector<double>& sorted, double p);

Percentiles ComputePercentiles(std::vector<double> values);

}  // namespace gpusched

#endif  // GPUSCHED_SIM_PERCENTILES_H_

// Queueing-delay distributions for the report's CDF chart, computed from the
// pods themselves (every delay, not only the summary's percentiles).
#ifndef GPUSCHED_REPORT_DELAY_CDF_H_
#define GPUSCHED_REPORT_DELAY_CDF_H_

#include <vector>

#include "gpusched/report/svg_chart.h"
#include "gpusched/sim/sim_result.h"

namespace gpusched {

// start - arrival for every pod that was ever bound (start >= 0), in pod order.
std::vector<double> QueueingDelays(const SimResult& run);

// The empirical CDF as step-chart vertices: (smallest value, 0), then for each
// distinct value v ascending, (v, % of values <= v). Empty for no values.
std::vector<ChartPoint> EmpiricalCdf(std::vector<double> values);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_DELAY_CDF_H_

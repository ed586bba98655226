#include "gpusched/sim/percentiles.h"

#include <algorithm>
#include <cmath>

namespace gpusched {

double NearestRank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  // Nearest-rank: the smallest value with at least p% of the data at or below it.
  double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(idx, sorted.size() - 1)];
}

Percentiles ComputePercentiles(std::vector<double> values) {
  Percentiles out;
  out.count = static_cast<int64_t>(values.size());
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  out.mean = sum / static_cast<double>(values.size());
  out.p50 = NearestRank(values, 50);
  out.p90 = NearestRank(values, 90);
  out.p99 = NearestRank(values, 99);
  out.max = values.back();
  return out;
}

}  // namespace gpusched

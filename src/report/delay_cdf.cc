#include "gpusched/report/delay_cdf.h"

#include <algorithm>

namespace gpusched {

std::vector<double> QueueingDelays(const SimResult& run) {
  std::vector<double> out;
  for (const auto& p : run.pods) {
    if (p.start >= 0) out.push_back(p.start - p.arrival);
  }
  return out;
}

std::vector<ChartPoint> EmpiricalCdf(std::vector<double> values) {
  std::vector<ChartPoint> out;
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  out.push_back({values.front(), 0});
  for (size_t i = 0; i < values.size(); ++i) {
    if (i + 1 < values.size() && values[i + 1] == values[i]) continue;
    out.push_back({values[i], static_cast<double>(i + 1) / n * 100.0});
  }
  return out;
}

}  // namespace gpusched

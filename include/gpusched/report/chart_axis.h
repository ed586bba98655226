// Axis ranges and tick values for the report's charts: "nice" steps of 1, 2
// or 5 times a power of ten, so a reader gets 0, 20, 40 ... rather than 0,
// 17.3, 34.6 ..., and the time unit (hours or seconds) chosen from the range.
#ifndef GPUSCHED_REPORT_CHART_AXIS_H_
#define GPUSCHED_REPORT_CHART_AXIS_H_

#include <string>
#include <vector>

namespace gpusched {

struct Axis {
  double lo = 0, hi = 1;      // the drawn range: the first and last tick
  std::vector<double> ticks;  // ascending, lo and hi included
  int decimals = 0;           // digits the tick labels need (0 for steps >= 1)
};

// Ticks covering [lo, hi] with about `target` intervals. hi <= lo (an empty or
// constant series) widens the range to [lo, lo + 1]. `integer_steps` keeps the
// step at 1 or more (counts of pods have no fractional ticks).
Axis NiceAxis(double lo, double hi, int target = 5, bool integer_steps = false);

// A tick value as its label: FormatFixed with the axis' decimals.
std::string TickLabel(const Axis& axis, double v);

struct TimeScale {
  double seconds_per_unit = 1;
  std::string unit;  // "s" or "h"
};

// Hours once the range reaches two hours (a 7,200-tick seconds axis reads
// badly), seconds below.
TimeScale ChooseTimeScale(double max_seconds);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_CHART_AXIS_H_

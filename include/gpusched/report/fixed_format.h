// Numbers in every generated file (CSV, SVG, HTML) go through FormatFixed so
// that the same input gives byte-identical output: a fixed number of decimals,
// '.' as the separator whatever the locale, and no "-0.00".
#ifndef GPUSCHED_REPORT_FIXED_FORMAT_H_
#define GPUSCHED_REPORT_FIXED_FORMAT_H_

#include <cstdint>
#include <string>

namespace gpusched {

// `v` with exactly `decimals` digits after the point ("12.50"); values that
// round to zero print without a sign; NaN and infinities print "nan", "inf",
// "-inf".
std::string FormatFixed(double v, int decimals);

// GPU milli as GPUs with at most three decimals and no trailing zeros:
// 2000 -> "2", 500 -> "0.5", 1250 -> "1.25". Integer arithmetic, so exact.
std::string FormatGpus(int64_t milli);

// The unit for a column of durations, chosen once from its largest value so
// every row of the column reads in the same unit: seconds below two minutes,
// minutes below two hours, hours from there on.
struct DurationUnit {
  double seconds = 1;  // seconds per unit
  std::string name = "s";
  int decimals = 1;
};
DurationUnit ChooseDurationUnit(double max_seconds);

// `seconds` in `unit`, without the unit: FormatFixed(seconds / unit.seconds, unit.decimals).
std::string FormatDuration(double seconds, const DurationUnit& unit);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_FIXED_FORMAT_H_

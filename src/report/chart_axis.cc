#include "gpusched/report/chart_axis.h"

#include <cmath>
#include <cstdint>

#include "gpusched/report/fixed_format.h"

namespace gpusched {
namespace {

// 10^k for k >= 0 as an exact double (k is small: axis ranges are sane).
double PowerOfTen(int k) {
  double p = 1;
  for (int i = 0; i < k; ++i) p *= 10;
  return p;
}

}  // namespace

Axis NiceAxis(double lo, double hi, int target, bool integer_steps) {
  if (!std::isfinite(lo)) lo = 0;
  if (!std::isfinite(hi) || hi <= lo) hi = lo + 1;
  if (target < 1) target = 1;
  double raw = (hi - lo) / target;
  int k = static_cast<int>(std::floor(std::log10(raw)));
  double norm = raw / std::pow(10.0, k);
  // The step is mantissa * 10^k with mantissa in {1, 2, 5}; the slack keeps
  // a quotient a rounding error above 2 or 5 from doubling the step.
  constexpr double kSlack = 1e-9;
  int mantissa = norm <= 1 + kSlack ? 1 : norm <= 2 + kSlack ? 2 : norm <= 5 + kSlack ? 5 : 10;
  if (mantissa == 10) {
    mantissa = 1;
    ++k;
  }
  if (integer_steps && k < 0) {
    mantissa = 1;
    k = 0;
  }
  // A tick is (i * mantissa) * 10^k, or (i * mantissa) / 10^-k: an integer
  // times or over an exact power of ten, so every tick is the double nearest
  // its decimal value and labels never show 0.30000000000000004.
  auto tick = [&](int64_t i) {
    double n = static_cast<double>(i * mantissa);
    return k >= 0 ? n * PowerOfTen(k) : n / PowerOfTen(-k);
  };
  double step = tick(1);
  // The small slack keeps a bound that is a tick (100 / 20 = 5) from adding
  // an empty interval through rounding.
  auto first = static_cast<int64_t>(std::floor(lo / step + 1e-9));
  auto last = static_cast<int64_t>(std::ceil(hi / step - 1e-9));
  if (last <= first) last = first + 1;
  Axis axis;
  for (int64_t i = first; i <= last; ++i) axis.ticks.push_back(tick(i));
  axis.lo = axis.ticks.front();
  axis.hi = axis.ticks.back();
  axis.decimals = k < 0 ? -k : 0;
  return axis;
}

std::string TickLabel(const Axis& axis, double v) { return FormatFixed(v, axis.decimals); }

TimeScale ChooseTimeScale(double max_seconds) {
  if (max_seconds >= 7200) return {3600, "h"};
  return {1, "s"};
}

}  // namespace gpusched

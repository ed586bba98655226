#include "gpusched/report/fixed_format.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace gpusched {

std::string FormatFixed(double v, int decimals) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // fmt never consults the locale unless asked to ('L'), unlike printf.
  std::string s = fmt::format("{:.{}f}", v, decimals);
  // -0.001 at two decimals prints "-0.00"; a sign on zero only confuses diffs.
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string FormatGpus(int64_t milli) {
  std::string sign = milli < 0 ? "-" : "";
  uint64_t m = milli < 0 ? 0 - static_cast<uint64_t>(milli) : static_cast<uint64_t>(milli);
  std::string s = sign + std::to_string(m / 1000);
  uint64_t frac = m % 1000;
  if (frac == 0) return s;
  std::string digits = fmt::format("{:03d}", frac);
  while (digits.back() == '0') digits.pop_back();
  return s + "." + digits;
}

DurationUnit ChooseDurationUnit(double max_seconds) {
  if (std::isfinite(max_seconds) && max_seconds >= 7200) return {3600, "h", 2};
  if (std::isfinite(max_seconds) && max_seconds >= 120) return {60, "min", 1};
  return {1, "s", 1};
}

std::string FormatDuration(double seconds, const DurationUnit& unit) {
  return FormatFixed(seconds / unit.seconds, unit.decimals);
}

}  // namespace gpusched

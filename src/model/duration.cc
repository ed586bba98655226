#include "gpusched/model/duration.h"

#include <charconv>
#include <cmath>
#include <cstddef>

namespace gpusched {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// An unsigned decimal number at s[pos...] ("12", "1.5", ".5", "5."), as Go's
// time.ParseDuration reads one; advances pos past it.
bool ReadDecimal(std::string_view s, size_t& pos, double& value) {
  const size_t start = pos;
  bool digits = false;
  while (pos < s.size() && IsDigit(s[pos])) ++pos, digits = true;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && IsDigit(s[pos])) ++pos, digits = true;
  }
  if (!digits) return false;
  auto [ptr, ec] = std::from_chars(s.data() + start, s.data() + pos, value, std::chars_format::fixed);
  return ec == std::errc() && ptr == s.data() + pos;
}

// Seconds per unit of time.ParseDuration's unitMap.
std::optional<double> UnitSeconds(std::string_view unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1e-6;  // us, µs (micro sign), μs (mu)
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1;
  if (unit == "m") return 60;
  if (unit == "h") return 3600;
  return std::nullopt;
}

}  // namespace

std::optional<double> ParseDurationSeconds(std::string_view text) {
  size_t pos = 0;
  double value = 0;
  if (!ReadDecimal(text, pos, value)) return std::nullopt;
  if (pos == text.size()) return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
  // A Go duration: every number has a unit.
  double total = 0;
  while (true) {
    const size_t unit_start = pos;
    while (pos < text.size() && !IsDigit(text[pos]) && text[pos] != '.') ++pos;
    std::optional<double> unit = UnitSeconds(text.substr(unit_start, pos - unit_start));
    if (!unit) return std::nullopt;
    total += value * *unit;
    if (pos == text.size()) break;
    if (!ReadDecimal(text, pos, value)) return std::nullopt;
  }
  if (!std::isfinite(total)) return std::nullopt;
  return total;
}

}  // namespace gpusched

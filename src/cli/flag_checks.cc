#include "gpusched/cli/flag_checks.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace gpusched {
namespace {

std::string Invalid(const std::string& value, const std::string& rule) {
  return "invalid value \"" + value + "\": " + rule;
}

bool ParseWhole(const std::string& s, uint64_t& v) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// Shortest decimal that reads back as `v`: "10", "0.5", "1e+300".
std::string Shortest(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

}  // namespace

CLI::Validator WholeNumber(uint64_t min, uint64_t max) {
  const std::string rule = "must be a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        uint64_t v = 0;
        if (!ParseWhole(s, v) || v < min || v > max) return Invalid(s, rule);
        return "";
      },
      "");
}

CLI::Validator Number(double min, double max, const std::string& what, const std::string& note) {
  const std::string range =
      std::isinf(max) ? ", " + Shortest(min) + " or more" : " from " + Shortest(min) + " to " + Shortest(max);
  const std::string rule = "must be " + what + range + (note.empty() ? "" : " " + note);
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = s.empty() ? NAN : std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || v < min || v > max)
          return Invalid(s, rule);
        return "";
      },
      "");
}

CLI::Validator CountOrAll() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        uint64_t v = 0;
        if (s == "all" || (ParseWhole(s, v) && v >= 1)) return "";
        return Invalid(s, "must be a whole number, 1 or more, or \"all\"");
      },
      "");
}

size_t ParseCountOrAll(const std::string& text) {
  uint64_t v = 0;
  if (text == "all" || !ParseWhole(text, v) || v > std::numeric_limits<size_t>::max())
    return std::numeric_limits<size_t>::max();
  return static_cast<size_t>(v);
}

}  // namespace gpusched

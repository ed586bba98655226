// Go strconv.FormatFloat(f, 'g', -1, 64) (ftoa.go: shortest digits that
// round-trip; %e when the exponent is < -4 or >= 6, else %f) and
// strconv.ParseFloat's accepted syntax, for CEL's double <-> string
// conversions.
#include "gpusched/model/cel/format_double.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gpusched::cel {

std::string FormatDoubleGo(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  bool neg = s[0] == '-';
  if (neg) s.erase(0, 1);
  size_t e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = std::atoi(s.c_str() + e + 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int nd = static_cast<int>(digits.size());
  int dp = exp + 1;
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (nd > 1) out += "." + digits.substr(1);
    int ax = exp < 0 ? -exp : exp;
    out += exp < 0 ? "e-" : "e+";
    if (ax < 10) out += "0";
    out += std::to_string(ax);
    return out;
  }
  if (dp <= 0) return out + "0." + std::string(static_cast<size_t>(-dp), '0') + digits;
  if (dp >= nd) return out + digits + std::string(static_cast<size_t>(dp - nd), '0');
  return out + digits.substr(0, static_cast<size_t>(dp)) + "." + digits.substr(static_cast<size_t>(dp));
}

std::optional<double> ParseDoubleGo(const std::string& s) {
  if (s.empty()) return std::nullopt;
  unsigned char c0 = static_cast<unsigned char>(s[0]);
  if (!(std::isdigit(c0) || c0 == '+' || c0 == '-' || c0 == '.' || c0 == 'i' || c0 == 'I' || c0 == 'n' ||
        c0 == 'N'))
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  if (errno == ERANGE && std::isinf(d)) return std::nullopt;
  return d;
}

}  // namespace gpusched::cel

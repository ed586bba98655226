#include "gpusched/io/yaml_resolve.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>

namespace gpusched {
namespace {

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

// The digits of `s` in `base` as an unsigned magnitude; nullopt when a
// character is not a digit of the base, there is none, or it overflows.
std::optional<uint64_t> Magnitude(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Go's strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) (without
// underscores, which resolve removes first): a sign (ParseInt only), then
// 0x / 0o / 0b prefixes or a leading 0 for octal.
struct GoInt {
  bool negative = false;
  uint64_t magnitude = 0;
};
std::optional<GoInt> ParseGoInteger(std::string_view s, bool allow_sign) {
  GoInt r;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    if (!allow_sign) return std::nullopt;
    r.negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = static_cast<char>(s[1] | 0x20);
    if (p == 'x') {
      base = 16;
      s.remove_prefix(2);
    } else if (p == 'o') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'b') {
      base = 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  if (base == 16) {
    // from_chars takes no sign or prefix; Go's digits are [0-9a-fA-F].
    for (char c : s)
      if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  } else {
    for (char c : s)
      if (c < '0' || c > '9') return std::nullopt;
  }
  std::optional<uint64_t> m = Magnitude(s, base);
  if (!m) return std::nullopt;
  r.magnitude = *m;
  return r;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ (go-yaml's yamlStyleFloat).
bool IsYamlStyleFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t d = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == d) return false;
  } else {
    size_t d = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == d) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && IsDigit(s[i])) ++i;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t d = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == d) return false;
  }
  return i == s.size();
}

// Go's strconv.ParseFloat(s, 64) for the decimal forms resolve passes it:
// nullopt when malformed or out of range (Go's ErrRange on overflow).
std::optional<double> ParseGoFloat(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s[0] == '+' || s[0] == '-') return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (ptr != s.data() + s.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow too; Go rounds it to zero without error.
    size_t e = s.find_first_of("eE");
    if (e == std::string_view::npos || e + 1 >= s.size() || s[e + 1] != '-') return std::nullopt;
    v = 0;
  } else if (ec != std::errc()) {
    return std::nullopt;
  }
  return negative ? -v : v;
}

ResolvedScalar Null() {
  ResolvedScalar r;
  r.type = ResolvedScalar::Type::kNull;
  return r;
}
ResolvedScalar Bool(bool b) {
  ResolvedScalar r;
  r.type = ResolvedScalar::Type::kBool;
  r.text = b ? "true" : "false";
  return r;
}
ResolvedScalar String(std::string_view s) {
  ResolvedScalar r;
  r.type = ResolvedScalar::Type::kString;
  r.text = std::string(s);
  return r;
}
ResolvedScalar Float(double v) {
  ResolvedScalar r;
  r.type = ResolvedScalar::Type::kFloat;
  if (std::isnan(v)) {
    r.text = "NaN";
    r.json_ok = false;
  } else if (std::isinf(v)) {
    r.text = v > 0 ? "+Inf" : "-Inf";
    r.json_ok = false;
  } else {
    r.text = FormatJsonFloat(v);
  }
  return r;
}
ResolvedScalar Int(const GoInt& g) {
  ResolvedScalar r;
  r.type = ResolvedScalar::Type::kInt;
  r.text = (g.negative && g.magnitude != 0 ? "-" : "") + std::to_string(g.magnitude);
  return r;
}

// resolveMap: the words a plain scalar may be.
std::optional<ResolvedScalar> Word(std::string_view s) {
  static constexpr std::string_view kTrue[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static constexpr std::string_view kFalse[] = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  static constexpr std::string_view kNull[] = {"", "~", "null", "Null", "NULL"};
  for (auto w : kTrue)
    if (s == w) return Bool(true);
  for (auto w : kFalse)
    if (s == w) return Bool(false);
  for (auto w : kNull)
    if (s == w) return Null();
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return Float(std::numeric_limits<double>::quiet_NaN());
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF")
    return Float(std::numeric_limits<double>::infinity());
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return Float(-std::numeric_limits<double>::infinity());
  return std::nullopt;
}

// go-yaml's resolve() for a tag it resolves ("" or a core type).
ResolvedScalar Resolve(std::string_view in) {
  const char first = in.empty() ? 'N' : in[0];
  const bool sign = first == '+' || first == '-';
  const bool digit = IsDigit(first);
  const bool in_map = std::string_view("yYnNtTfFoO~").find(first) != std::string_view::npos;
  if (in.empty() || sign || digit || in_map || first == '.') {
    if (std::optional<ResolvedScalar> w = Word(in)) return *w;
    if (first == '.') {
      if (std::optional<double> f = ParseGoFloat(in)) return Float(*f);
    } else if (digit || sign) {
      std::string plain;
      plain.reserve(in.size());
      for (char c : in)
        if (c != '_') plain.push_back(c);
      if (std::optional<GoInt> i = ParseGoInteger(plain, true)) {
        const uint64_t limit = i->negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
        if (i->magnitude <= limit) return Int(*i);
      }
      if (std::optional<GoInt> u = ParseGoInteger(plain, false)) return Int(*u);
      if (IsYamlStyleFloat(plain)) {
        if (std::optional<double> f = ParseGoFloat(plain)) return Float(*f);
      }
    }
  }
  return String(in);
}

const char* ShortTagOf(ResolvedScalar::Type t) {
  switch (t) {
    case ResolvedScalar::Type::kNull: return "!!null";
    case ResolvedScalar::Type::kBool: return "!!bool";
    case ResolvedScalar::Type::kInt: return "!!int";
    case ResolvedScalar::Type::kFloat: return "!!float";
    case ResolvedScalar::Type::kString: return "!!str";
  }
  return "!!str";
}

}  // namespace

ResolvedScalar ResolveYamlScalar(std::string_view value, std::string_view tag, bool plain) {
  if (tag.empty()) return plain ? Resolve(value) : String(value);
  std::string_view short_name;
  if (tag.substr(0, kTagPrefix.size()) == kTagPrefix) {
    short_name = tag.substr(kTagPrefix.size());
  } else if (tag.substr(0, 2) == "!!") {
    short_name = tag.substr(2);
  } else {
    return String(value);  // a local or unknown tag: kept as the string it is
  }
  if (short_name == "str" || short_name == "binary") return String(value);
  ResolvedScalar want;
  if (short_name == "null") want.type = ResolvedScalar::Type::kNull;
  else if (short_name == "bool") want.type = ResolvedScalar::Type::kBool;
  else if (short_name == "int") want.type = ResolvedScalar::Type::kInt;
  else if (short_name == "float") want.type = ResolvedScalar::Type::kFloat;
  else if (short_name == "timestamp") return String(value);
  else return String(value);
  ResolvedScalar r = Resolve(value);
  if (r.type == want.type) return r;
  if (want.type == ResolvedScalar::Type::kFloat && r.type == ResolvedScalar::Type::kInt) {
    double v = 0;
    std::from_chars(r.text.data(), r.text.data() + r.text.size(), v);
    return Float(v);
  }
  ResolvedScalar bad = String(value);
  bad.error = std::string("cannot decode ") + ShortTagOf(r.type) + " `" + std::string(value) + "` as a !!" +
              std::string(short_name);
  return bad;
}

bool YamlKeyToJson(const ResolvedScalar& key, std::string& out, std::string& error) {
  switch (key.type) {
    case ResolvedScalar::Type::kNull:
      error = "unsupported map key of type: <nil>";
      return false;
    case ResolvedScalar::Type::kFloat: {
      if (key.text == "NaN") {
        out = ".nan";
      } else if (key.text == "+Inf") {
        out = ".inf";
      } else if (key.text == "-Inf") {
        out = "-.inf";
      } else {
        double v = 0;
        std::from_chars(key.text.data(), key.text.data() + key.text.size(), v);
        out = FormatFloat32G(v);
      }
      return true;
    }
    default:
      out = key.text;
      return true;
  }
}

namespace {

// The shortest decimal digits that read back as `v` (float or double), with
// the exponent of the first digit: what Go's strconv works from.
template <typename F>
void ShortestDigits(F v, bool& negative, std::string& digits, int& exp) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string sci(buf, ec == std::errc() ? end : buf);
  negative = !sci.empty() && sci[0] == '-';
  const size_t e = sci.find('e');
  digits.clear();
  exp = 0;
  if (e == std::string::npos) {  // inf or nan: callers handle those first
    digits = "0";
    return;
  }
  for (size_t i = negative ? 1 : 0; i < e; ++i)
    if (sci[i] != '.') digits.push_back(sci[i]);
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exp);
}

// Go's %e with the shortest digits: d.ddde+XX (at least two exponent digits).
std::string FormatE(bool negative, const std::string& digits, int exp) {
  std::string out = negative ? "-" : "";
  out += digits[0];
  if (digits.size() > 1) out += "." + digits.substr(1);
  char eb[16];
  std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return out + eb;
}

// Go's %f with the shortest digits: zeros pad the digits, never more digits.
std::string FormatF(bool negative, const std::string& digits, int exp) {
  std::string out = negative ? "-" : "";
  const int dp = exp + 1;  // digits before the decimal point
  if (dp <= 0) {
    out += "0." + std::string(static_cast<size_t>(-dp), '0') + digits;
  } else if (static_cast<size_t>(dp) >= digits.size()) {
    out += digits + std::string(static_cast<size_t>(dp) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<size_t>(dp)) + "." + digits.substr(static_cast<size_t>(dp));
  }
  return out;
}

}  // namespace

std::string FormatJsonFloat(double v) {
  // encoding/json: 'f' unless |v| < 1e-6 or >= 1e21, then 'e' with the
  // exponent's leading zero dropped (e-07 -> e-7).
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  bool negative = false;
  std::string digits;
  int exp = 0;
  ShortestDigits(v, negative, digits, exp);
  const double a = std::fabs(v);
  if (a >= 1e-6 && a < 1e21) return FormatF(negative, digits, exp);
  std::string s = FormatE(negative, digits, exp);
  const size_t n = s.size();
  if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') s.erase(n - 2, 1);
  return s;
}

std::string FormatFloat32G(double v) {
  // Go rounds to float32 first: what does not fit is infinite, and
  // sigs.k8s.io/yaml names infinities and NaN as YAML does.
  if (std::isnan(v)) return ".nan";
  // (A double beyond float's range may not be cast: it is infinite from half
  // an ulp past the largest float on, as Go rounds, and the largest below.)
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  constexpr double kFloatOverflow = 3.4028235677973366e38;  // FLT_MAX + half its ulp
  if (std::fabs(v) >= kFloatOverflow) return v > 0 ? ".inf" : "-.inf";
  const float f = std::fabs(v) > kFloatMax ? static_cast<float>(std::copysign(kFloatMax, v)) : static_cast<float>(v);
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  bool negative = false;
  std::string digits;
  int exp = 0;
  ShortestDigits(f, negative, digits, exp);
  // 'g' with the shortest precision switches to %e from exponent 6 on.
  if (exp < -4 || exp >= 6) return FormatE(negative, digits, exp);
  return FormatF(negative, digits, exp);
}

}  // namespace gpusched

// Quantity: a port of k8s.io/apimachinery/pkg/api/resource (quantity.go,
// suffix.go, amount.go, math.go): ParseQuantity, CanonicalizeBytes/String,
// MilliValue and Value.
//
// Upstream keeps a value either as an int64 mantissa with a base-10 scale or
// as an arbitrary-precision inf.Dec, always rounded to nano precision. Here
// the value is one exact count of nano-units in an __int128; since parsing
// rejects any value whose milli-value would not fit in int64, that count is
// at most (2^63-1) * 10^6 < 10^25 in magnitude, far from the __int128 limit.
//
// The parser never builds a number from an unbounded digit string: it works
// on the digit string itself (strip zeros, read off at most 26 significant
// digits), so a 100,000-digit input or an exponent of 10^18 costs time linear
// in the input and cannot overflow.
//
// Deliberate differences from upstream:
//  - Range: a value with |MilliValue()| > 2^63-1 (about 9.2e15 units: "1E",
//    "9Pi", "10000T") is rejected with "quantity too large". Upstream keeps
//    any size (and silently caps BinarySI at 2^63-1).
//  - String() is always the canonical form. Upstream returns the input text
//    itself when its int64 fast path parsed it and it looked canonical, so
//    there "+1", "01", "1.", "1.k", "1E3", "1e+3" and "1e0" print back as
//    typed; here they print "1", "1", "1", "1k", "1e3", "1e3" and "1".
//  - MilliValue()/Value() round away from zero for every value, as upstream's
//    int64 path does (negativeScaleInt64; it serves every input of at most 18
//    significant digits that needs no rounding, and FromMilli/FromInt).
//    Upstream's inf.Dec path (more digits, sub-nano input, fractional binary,
//    Pi/Ei) uses scaledValue, which for a small negative inexact value gives
//    the truncated quotient plus one: "-1.1Ki".Value() is -1125 there and
//    "-0.0000000001".Value() is +1. We do not copy that.
//  - A decimal exponent is used as the int64 upstream parses, not truncated
//    to int32 as upstream then does ("1e4294967296" is 1 upstream, and an
//    exponent near 2^31 sends it into big-number arithmetic on powers of ten
//    with billions of digits); here both are simply too large.
#include "gpusched/model/quantity.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace gpusched {
namespace {

using i128 = __int128;

// Upstream's error values (quantity.go: ErrFormatWrong, ErrNumeric, ErrSuffix).
constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrNumeric = "unable to parse numeric part of quantity";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";
// Ours: the value would make MilliValue() overflow int64.
constexpr std::string_view kErrTooLarge = "quantity too large";

constexpr int64_t kNanosPerMilli = 1000000;
constexpr int64_t kNanosPerUnit = 1000000000;
// |nanos| <= kMaxNanos  <=>  |MilliValue()| = ceil(|nanos| / 10^6) <= INT64_MAX.
constexpr i128 kMaxNanos = static_cast<i128>(std::numeric_limits<int64_t>::max()) * kNanosPerMilli;

Status Error(std::string_view msg) { return Status::InvalidArgument(std::string(msg)); }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The pieces upstream's parseQuantityString returns.
struct Scanned {
  bool positive = true;
  std::string_view value;   // sign, digits and point, as upstream's `value`
  std::string_view num;     // integer digits without leading zeros ("0" if none)
  std::string_view denom;   // fraction digits (may be empty)
  std::string_view suffix;  // everything after the number
};

// A faithful port of upstream's parseQuantityString scanner: it splits
// <sign><num>.<denom><suffix> and fails (ErrFormatWrong) only when something
// follows the [eEinumkKMGTP]*[-+]?[0-9]* suffix.
bool ScanQuantity(std::string_view str, Scanned& out) {
  static constexpr std::string_view kZero = "0";
  static constexpr std::string_view kSuffixLetters = "eEinumkKMGTP";
  const size_t end = str.size();
  size_t pos = 0;
  out = Scanned{};

  if (pos < end) {
    if (str[0] == '-') {
      out.positive = false;
      ++pos;
    } else if (str[0] == '+') {
      ++pos;
    }
  }

  // Strip leading zeros; a string of nothing but sign and zeros is "0".
  while (pos < end && str[pos] == '0') ++pos;
  if (pos >= end) {
    out.num = kZero;
    out.value = kZero;
    return true;
  }

  // The numerator.
  size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  if (i >= end) {
    out.num = str.substr(pos);
    out.value = str;
    return true;
  }
  out.num = str.substr(pos, i - pos);
  pos = i;
  if (out.num.empty()) out.num = kZero;

  // The denominator (upstream allows an empty one: "1." and "1.G" parse).
  if (str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    if (i >= end) {
      out.denom = str.substr(pos);
      out.value = str;
      return true;
    }
    out.denom = str.substr(pos, i - pos);
    pos = i;
  }
  out.value = str.substr(0, pos);

  // The suffix: letters, an optional sign, digits.
  const size_t suffix_start = pos;
  while (pos < end && kSuffixLetters.find(str[pos]) != std::string_view::npos) ++pos;
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  while (pos < end && IsDigit(str[pos])) ++pos;
  if (pos < end) return false;  // ErrFormatWrong
  out.suffix = str.substr(suffix_start);
  return true;
}

// Go's strconv.ParseInt(s, 10, 64): an optional sign, then one or more
// decimal digits, within [-2^63, 2^63-1].
std::optional<int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return std::nullopt;  // v*10 + d > limit
    v = v * 10 + d;
  }
  if (!negative) return static_cast<int64_t>(v);
  return v == (uint64_t{1} << 63) ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
}

enum class Base { kTen, kTwo };

struct SuffixInfo {
  Base base;
  int64_t exponent;  // power of 10 or of 2
  Quantity::Format format;
};

// Upstream's quantitySuffixer.interpret. The one difference: upstream
// truncates a decimal exponent to int32 (so "1e4294967296" means 1); we keep
// the full int64 exponent and give the mathematically right value.
std::optional<SuffixInfo> InterpretSuffix(std::string_view s) {
  using F = Quantity::Format;
  struct Entry {
    std::string_view text;
    SuffixInfo info;
  };
  static constexpr Entry kTable[] = {
      {"", {Base::kTen, 0, F::kDecimalSI}},    {"n", {Base::kTen, -9, F::kDecimalSI}},
      {"u", {Base::kTen, -6, F::kDecimalSI}},  {"m", {Base::kTen, -3, F::kDecimalSI}},
      {"k", {Base::kTen, 3, F::kDecimalSI}},   {"M", {Base::kTen, 6, F::kDecimalSI}},
      {"G", {Base::kTen, 9, F::kDecimalSI}},   {"T", {Base::kTen, 12, F::kDecimalSI}},
      {"P", {Base::kTen, 15, F::kDecimalSI}},  {"E", {Base::kTen, 18, F::kDecimalSI}},
      {"Ki", {Base::kTwo, 10, F::kBinarySI}},  {"Mi", {Base::kTwo, 20, F::kBinarySI}},
      {"Gi", {Base::kTwo, 30, F::kBinarySI}},  {"Ti", {Base::kTwo, 40, F::kBinarySI}},
      {"Pi", {Base::kTwo, 50, F::kBinarySI}},  {"Ei", {Base::kTwo, 60, F::kBinarySI}},
  };
  for (const Entry& e : kTable) {
    if (e.text == s) return e.info;
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    std::optional<int64_t> exp = ParseInt64(s.substr(1));
    if (!exp) return std::nullopt;
    return SuffixInfo{Base::kTen, *exp, F::kDecimalExponent};
  }
  return std::nullopt;
}

// Multiplies the decimal digit string `digits` by 2^shift (shift <= 60).
std::string MultiplyByPowerOfTwo(std::string_view digits, int shift) {
  std::string out(digits.size() + 20, '0');
  const unsigned __int128 factor = static_cast<unsigned __int128>(1) << shift;
  unsigned __int128 carry = 0;
  size_t w = out.size();
  for (size_t r = digits.size(); r > 0; --r) {
    const unsigned __int128 v = static_cast<unsigned __int128>(digits[r - 1] - '0') * factor + carry;
    out[--w] = static_cast<char>('0' + static_cast<int>(v % 10));
    carry = v / 10;
  }
  while (carry > 0) {
    out[--w] = static_cast<char>('0' + static_cast<int>(carry % 10));
    carry /= 10;
  }
  return out.substr(w);
}

// The magnitude in nano-units of digits * 10^k, rounded up (away from zero)
// to a whole nano-unit, as upstream's inf.RoundUp to scale 9; nullopt when it
// exceeds kMaxNanos. `digits` is non-empty and starts with a non-zero digit.
std::optional<i128> ToNanos(std::string_view digits, i128 k) {
  const i128 n = static_cast<i128>(digits.size());
  // The value is at least 10^(n-1+k); 10^25 > kMaxNanos.
  if (n - 1 + k >= 25) return std::nullopt;
  i128 result = 0;
  if (k >= 0) {
    for (char c : digits) result = result * 10 + (c - '0');
    for (i128 j = 0; j < k; ++j) result *= 10;
  } else {
    const i128 drop = -k;
    if (drop >= n) {
      result = 1;  // 0 < value < 1n rounds up to 1n
    } else {
      const size_t keep = static_cast<size_t>(n - drop);
      for (size_t j = 0; j < keep; ++j) result = result * 10 + (digits[j] - '0');
      if (digits.substr(keep).find_first_not_of('0') != std::string_view::npos) ++result;
    }
  }
  if (result > kMaxNanos) return std::nullopt;
  return result;
}

// ceil(|v| / d) with v's sign: upstream rounds MilliValue()/Value() "up", which
// on its int64 path (negativeScaleInt64) means away from zero.
i128 DivideAwayFromZero(i128 v, int64_t d) {
  i128 q = v / d;
  if (v % d != 0) q += v < 0 ? -1 : 1;
  return q;
}

int64_t SaturateToInt64(i128 v) {
  if (v > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

std::string Int128ToString(i128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  // |v| < 2^127 for every value this file builds, so negation is safe.
  if (negative) v = -v;
  char buf[48];
  size_t i = sizeof(buf);
  while (v > 0) {
    buf[--i] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  if (negative) buf[--i] = '-';
  return std::string(buf + i, sizeof(buf) - i);
}

}  // namespace

Result<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return Error(kErrFormatWrong);

  Scanned s;
  if (!ScanQuantity(text, s)) return Error(kErrFormatWrong);

  std::optional<SuffixInfo> suffix = InterpretSuffix(s.suffix);
  if (!suffix) return Error(kErrSuffix);

  // Upstream fails with ErrNumeric when its inf.Dec slow path is asked to
  // parse a number part with no digit at all ("", "-", ".", "+."). With no
  // digits its int64 fast path handles everything except a decimal exponent
  // below -9 (scale < Nano) and the Pi/Ei suffixes (precision < 0).
  if (s.value.find_first_of("0123456789") == std::string_view::npos) {
    const bool slow_path =
        suffix->base == Base::kTen ? suffix->exponent < -9 : suffix->exponent >= 50;
    if (slow_path) return Error(kErrNumeric);
  }

  // The significant digits of num.denom, as an integer times 10^k nano-units.
  std::string all;
  all.reserve(s.num.size() + s.denom.size());
  all.append(s.num);
  all.append(s.denom);
  std::string_view digits = all;
  i128 k = static_cast<i128>(9) - static_cast<i128>(s.denom.size());
  const size_t first = digits.find_first_not_of('0');

  Quantity q;
  q.format_ = suffix->format;
  if (first == std::string_view::npos) return q;  // zero, in the suffix's format
  digits.remove_prefix(first);
  const size_t last = digits.find_last_not_of('0');
  k += static_cast<i128>(digits.size() - 1 - last);
  digits = digits.substr(0, last + 1);

  std::optional<i128> nanos;
  if (suffix->base == Base::kTen) {
    nanos = ToNanos(digits, k + suffix->exponent);
  } else {
    const std::string scaled = MultiplyByPowerOfTwo(digits, static_cast<int>(suffix->exponent));
    std::string_view sv = scaled;
    sv.remove_prefix(sv.find_first_not_of('0'));
    nanos = ToNanos(sv, k);
  }
  if (!nanos) return Error(kErrTooLarge);

  q.nanos_ = s.positive ? *nanos : -*nanos;
  // Upstream: a BinarySI amount strictly between 0 and 1 becomes DecimalSI.
  if (q.format_ == Format::kBinarySI && *nanos < kNanosPerUnit) q.format_ = Format::kDecimalSI;
  return q;
}

Quantity Quantity::FromMilli(int64_t milli, Format format) {
  Quantity q;
  q.nanos_ = static_cast<i128>(milli) * kNanosPerMilli;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromInt(int64_t value, Format format) {
  Quantity q;
  q.nanos_ = static_cast<i128>(value) * kNanosPerUnit;
  q.format_ = format;
  return q;
}

void Quantity::Add(const Quantity& o) {
  if (nanos_ == 0) format_ = o.format_;
  nanos_ += o.nanos_;
}

void Quantity::Sub(const Quantity& o) {
  if (nanos_ == 0) format_ = o.format_;
  nanos_ -= o.nanos_;
}

// Parsed quantities always fit; FromInt(v) with |v| > INT64_MAX/1000 does
// not, and saturates here rather than wrap.
int64_t Quantity::MilliValue() const { return SaturateToInt64(DivideAwayFromZero(nanos_, kNanosPerMilli)); }

int64_t Quantity::Value() const { return SaturateToInt64(DivideAwayFromZero(nanos_, kNanosPerUnit)); }

// Upstream CanonicalizeBytes + String.
std::string Quantity::String() const {
  if (nanos_ == 0) return "0";

  Format format = format_;
  if (format == Format::kBinarySI) {
    const i128 bound = static_cast<i128>(1024) * kNanosPerUnit;
    // Between -1024 and 1024, or not a whole number: print as DecimalSI.
    if ((nanos_ > -bound && nanos_ < bound) || nanos_ % kNanosPerUnit != 0) format = Format::kDecimalSI;
  }

  if (format == Format::kBinarySI) {
    i128 units = nanos_ / kNanosPerUnit;
    int times = 0;
    while (units % 1024 == 0) {  // units != 0 here
      units /= 1024;
      ++times;
    }
    static constexpr std::string_view kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    return Int128ToString(units) + std::string(kBinary[times]);
  }

  // Base 10: move all factors of ten into the exponent, then lower the
  // exponent to a multiple of three.
  i128 mantissa = nanos_;
  int exponent = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  while (exponent % 3 != 0) {
    mantissa *= 10;
    --exponent;
  }
  std::string out = Int128ToString(mantissa);
  if (format == Format::kDecimalExponent) {
    if (exponent != 0) out += "e" + std::to_string(exponent);
    return out;
  }
  switch (exponent) {
    case -9: return out + "n";
    case -6: return out + "u";
    case -3: return out + "m";
    case 0: return out;
    case 3: return out + "k";
    case 6: return out + "M";
    case 9: return out + "G";
    case 12: return out + "T";
    case 15: return out + "P";
    case 18: return out + "E";
    default:
      // Unreachable within the int64-milli range (at most 9.3e15); newer
      // upstream falls back to exponent notation past "E".
      return out + "e" + std::to_string(exponent);
  }
}

}  // namespace gpusched

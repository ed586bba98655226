// Tests for gpusched::Quantity.
//
// Most tables are ported from upstream Kubernetes,
//   github.com/kubernetes/apimachinery at commit
//   eed236ceee2c19c2753a3d93ac0631dc20750454 (the published copy of
//   kubernetes/kubernetes staging/src/k8s.io/apimachinery):
//     pkg/api/resource/quantity_test.go
//     pkg/api/resource/quantity_example_test.go
//     pkg/api/resource/amount_test.go
//     pkg/api/resource/math_test.go
//     pkg/api/resource/scale_int_test.go
// Each ported case keeps upstream's input and upstream's expected value; the
// function each table comes from is named above it. Where an upstream case
// needs a value beyond our range (|MilliValue()| <= 2^63-1, i.e. at most about
// 9.2e15 units) we expect our "quantity too large" error instead, and say so.
//
// Upstream writes an expected value as decQuantity(i, exponent, format), the
// number i * 10^exponent; Dec() below builds the same value.
//
// Tests marked "ours" are not from upstream: their expectations were derived
// by reading upstream's quantity.go / suffix.go / amount.go / math.go.
#include "gpusched/model/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gpusched {
namespace {

using Format = Quantity::Format;
constexpr Format kDecimalSI = Format::kDecimalSI;
constexpr Format kBinarySI = Format::kBinarySI;
constexpr Format kDecimalExponent = Format::kDecimalExponent;

const char kErrFormatWrong[] =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const char kErrSuffix[] = "unable to parse quantity's suffix";
const char kErrNumeric[] = "unable to parse numeric part of quantity";
const char kErrTooLarge[] = "quantity too large";

const char* FormatName(Format f) {
  switch (f) {
    case Format::kDecimalSI: return "DecimalSI";
    case Format::kBinarySI: return "BinarySI";
    case Format::kDecimalExponent: return "DecimalExponent";
  }
  return "?";
}

Quantity MustParse(const std::string& s) {
  Result<Quantity> r = Quantity::Parse(s);
  EXPECT_TRUE(r.ok()) << "Parse(\"" << s << "\"): " << r.status().ToString();
  return r.ok() ? *r : Quantity();
}

// Upstream's decQuantity(i, exponent, format): the value i * 10^exponent.
// Whole milli-values are built with FromMilli; finer ones by parsing a whole
// number of nano-units ("<N>n", or "<N>e-9" for DecimalExponent).
Quantity Dec(int64_t i, int exponent, Format format) {
  if (exponent >= -3) {
    __int128 milli = i;
    for (int e = -3; e < exponent; ++e) milli *= 10;
    EXPECT_LE(milli, std::numeric_limits<int64_t>::max()) << "Dec(" << i << ", " << exponent << ") out of range";
    EXPECT_GE(milli, std::numeric_limits<int64_t>::min()) << "Dec(" << i << ", " << exponent << ") out of range";
    return Quantity::FromMilli(static_cast<int64_t>(milli), format);
  }
  int64_t nanos = i;
  for (int e = exponent; e < -9; ++e) {
    EXPECT_EQ(nanos % 10, 0) << "Dec(" << i << ", " << exponent << ") is finer than nano";
    nanos /= 10;
  }
  for (int e = -9; e < exponent; ++e) nanos *= 10;
  EXPECT_NE(format, kBinarySI) << "no sub-milli BinarySI helper";
  return MustParse(std::to_string(nanos) + (format == kDecimalExponent ? "e-9" : "n"));
}

void ExpectError(const std::string& input, const char* message) {
  SCOPED_TRACE("input: \"" + input + "\"");
  Result<Quantity> r = Quantity::Parse(input);
  ASSERT_FALSE(r.ok()) << "parsed as " << r->String();
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(), message);
}

// --- quantity_test.go: TestQuantityParse ------------------------------------

struct ParseCase {
  const char* input;
  int64_t i;  // expected value: i * 10^exponent, as upstream's decQuantity
  int exponent;
  Format format;
  bool too_large;  // beyond our range: upstream parses it, we reject it
};

constexpr bool kTooLarge = true;

const ParseCase kParseCases[] = {
    {"0", 0, 0, kDecimalSI, false},
    {"0n", 0, 0, kDecimalSI, false},
    {"0u", 0, 0, kDecimalSI, false},
    {"0m", 0, 0, kDecimalSI, false},
    {"0Ki", 0, 0, kBinarySI, false},
    {"0k", 0, 0, kDecimalSI, false},
    {"0Mi", 0, 0, kBinarySI, false},
    {"0M", 0, 0, kDecimalSI, false},
    {"0Gi", 0, 0, kBinarySI, false},
    {"0G", 0, 0, kDecimalSI, false},
    {"0Ti", 0, 0, kBinarySI, false},
    {"0T", 0, 0, kDecimalSI, false},

    // Quantity less numbers are allowed
    {"1", 1, 0, kDecimalSI, false},

    // Binary suffixes
    {"1Ki", 1024, 0, kBinarySI, false},
    {"8Ki", 8 * 1024, 0, kBinarySI, false},
    {"7Mi", 7 * 1024 * 1024, 0, kBinarySI, false},
    {"6Gi", 6LL * 1024 * 1024 * 1024, 0, kBinarySI, false},
    {"5Ti", 5LL * 1024 * 1024 * 1024 * 1024, 0, kBinarySI, false},
    {"4Pi", 4LL * 1024 * 1024 * 1024 * 1024 * 1024, 0, kBinarySI, false},
    {"3Ei", 3LL * 1024 * 1024 * 1024 * 1024 * 1024 * 1024, 0, kBinarySI, kTooLarge},

    {"10Ti", 10LL * 1024 * 1024 * 1024 * 1024, 0, kBinarySI, false},
    {"100Ti", 100LL * 1024 * 1024 * 1024 * 1024, 0, kBinarySI, false},

    // Decimal suffixes
    {"5n", 5, -9, kDecimalSI, false},
    {"4u", 4, -6, kDecimalSI, false},
    {"3m", 3, -3, kDecimalSI, false},
    {"9", 9, 0, kDecimalSI, false},
    {"8k", 8, 3, kDecimalSI, false},
    {"50k", 5, 4, kDecimalSI, false},
    {"7M", 7, 6, kDecimalSI, false},
    {"6G", 6, 9, kDecimalSI, false},
    {"5T", 5, 12, kDecimalSI, false},
    {"40T", 4, 13, kDecimalSI, false},
    {"300T", 3, 14, kDecimalSI, false},
    {"2P", 2, 15, kDecimalSI, false},
    {"1E", 1, 18, kDecimalSI, kTooLarge},

    // Decimal exponents
    {"1E-3", 1, -3, kDecimalExponent, false},
    {"1e3", 1, 3, kDecimalExponent, false},
    {"1E6", 1, 6, kDecimalExponent, false},
    {"1e9", 1, 9, kDecimalExponent, false},
    {"1E12", 1, 12, kDecimalExponent, false},
    {"1e15", 1, 15, kDecimalExponent, false},
    {"1E18", 1, 18, kDecimalExponent, kTooLarge},

    // Nonstandard but still parsable
    {"1e14", 1, 14, kDecimalExponent, false},
    {"1e13", 1, 13, kDecimalExponent, false},
    {"1e3", 1, 3, kDecimalExponent, false},
    {"100.035k", 100035, 0, kDecimalSI, false},

    // Things that look like floating point
    {"0.001", 1, -3, kDecimalSI, false},
    {"0.0005k", 5, -1, kDecimalSI, false},
    {"0.005", 5, -3, kDecimalSI, false},
    {"0.05", 5, -2, kDecimalSI, false},
    {"0.5", 5, -1, kDecimalSI, false},
    {"0.00050k", 5, -1, kDecimalSI, false},
    {"0.00500", 5, -3, kDecimalSI, false},
    {"0.05000", 5, -2, kDecimalSI, false},
    {"0.50000", 5, -1, kDecimalSI, false},
    {"0.5e0", 5, -1, kDecimalExponent, false},
    {"0.5e-1", 5, -2, kDecimalExponent, false},
    {"0.5e-2", 5, -3, kDecimalExponent, false},
    {"0.5e0", 5, -1, kDecimalExponent, false},
    {"10.035M", 10035, 3, kDecimalSI, false},

    {"1.2e3", 12, 2, kDecimalExponent, false},
    {"1.3E+6", 13, 5, kDecimalExponent, false},
    {"1.40e9", 14, 8, kDecimalExponent, false},
    {"1.53E12", 153, 10, kDecimalExponent, false},
    {"1.6e15", 16, 14, kDecimalExponent, false},
    {"1.7E18", 17, 17, kDecimalExponent, kTooLarge},

    {"9.01", 901, -2, kDecimalSI, false},
    {"8.1k", 81, 2, kDecimalSI, false},
    {"7.123456M", 7123456, 0, kDecimalSI, false},
    {"6.987654321G", 6987654321, 0, kDecimalSI, false},
    {"5.444T", 5444, 9, kDecimalSI, false},
    {"40.1T", 401, 11, kDecimalSI, false},
    {"300.2T", 3002, 11, kDecimalSI, false},
    {"2.5P", 25, 14, kDecimalSI, false},
    {"1.01E", 101, 16, kDecimalSI, kTooLarge},

    // Things that saturate/round
    {"3.001n", 4, -9, kDecimalSI, false},
    {"1.1E-9", 2, -9, kDecimalExponent, false},
    {"0.0000000001", 1, -9, kDecimalSI, false},
    {"0.0000000005", 1, -9, kDecimalSI, false},
    {"0.00000000050", 1, -9, kDecimalSI, false},
    {"0.5e-9", 1, -9, kDecimalExponent, false},
    {"0.9n", 1, -9, kDecimalSI, false},
    {"0.00000012345", 124, -9, kDecimalSI, false},
    {"0.00000012354", 124, -9, kDecimalSI, false},
    // Upstream caps these two at 2^63-1 (maxAllowed), BinarySI.
    {"9Ei", 0, 0, kBinarySI, kTooLarge},
    {"9223372036854775807Ki", 0, 0, kBinarySI, kTooLarge},
    {"12E", 12, 18, kDecimalSI, kTooLarge},

    // We'll accept fractional binary stuff, too.
    {"100.035Ki", 10243584, -2, kBinarySI, false},
    {"0.5Mi", 512 * 1024, 0, kBinarySI, false},
    {"0.05Gi", 536870912, -1, kBinarySI, false},
    {"0.025Ti", 274877906944, -1, kBinarySI, false},

    // Things written by trolls
    {"0.000000000001Ki", 2, -9, kDecimalSI, false},  // rounds up, changes format
    {".001", 1, -3, kDecimalSI, false},
    {".0001k", 100, -3, kDecimalSI, false},
    {"1.", 1, 0, kDecimalSI, false},
    {"1.G", 1, 9, kDecimalSI, false},
};

TEST(QuantityUpstreamTest, QuantityParse) {
  // Upstream: ParseQuantity("") must fail.
  ExpectError("", kErrFormatWrong);

  for (const ParseCase& c : kParseCases) {
    // Upstream parses each input as is, with "-" and with "+" in front.
    for (const char* sign : {"", "-", "+"}) {
      const std::string input = std::string(sign) + c.input;
      SCOPED_TRACE("input: \"" + input + "\"");
      if (c.too_large) {
        ExpectError(input, kErrTooLarge);
        continue;
      }
      Result<Quantity> got = Quantity::Parse(input);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      const int64_t i = std::string(sign) == "-" ? -c.i : c.i;
      const Quantity want = Dec(i, c.exponent, c.format);
      EXPECT_EQ(*got, want) << "got " << got->String() << ", want " << want.String();
      EXPECT_EQ(FormatName(got->format()), std::string(FormatName(c.format)));
      EXPECT_EQ(got->Sign(), i > 0 ? 1 : (i < 0 ? -1 : 0));
    }
  }
}

TEST(QuantityUpstreamTest, QuantityParseInvalid) {
  // Upstream's `invalid` list only asserts that parsing fails; the message
  // each one gets is ours, read off upstream's parseQuantityString and
  // suffixer.interpret.
  struct {
    const char* input;
    const char* message;
  } cases[] = {
      {"1.1.M", kErrFormatWrong},
      {"1+1.0M", kErrFormatWrong},
      {"0.1mi", kErrSuffix},
      {"0.1am", kErrFormatWrong},
      {"aoeu", kErrFormatWrong},
      {".5i", kErrSuffix},
      {"1i", kErrSuffix},
      {"-3.01i", kErrSuffix},
      {"-3.01e-", kErrSuffix},
      // trailing whitespace is forbidden
      {" 1", kErrFormatWrong},
      {"1 ", kErrFormatWrong},
  };
  for (const auto& c : cases) ExpectError(c.input, c.message);
}

// --- quantity_test.go: TestParseQuantityString (inputs only) ----------------

TEST(QuantityUpstreamTest, ParseQuantityStringInputsParse) {
  // Upstream checks how its scanner splits these; we check they parse, and the
  // values that follow from the split.
  struct {
    const char* input;
    Quantity want;
  } cases[] = {
      {"0.025Ti", Dec(274877906944, -1, kBinarySI)},
      {"1.025Ti", Dec(11269994184704, -1, kBinarySI)},
      {"-1.025Ti", Dec(-11269994184704, -1, kBinarySI)},
      {".", Quantity()},
      {"-.", Quantity()},
      {"1E-3", Dec(1, -3, kDecimalExponent)},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(MustParse(c.input), c.want);
  }
}

// --- quantity_test.go: TestQuantityString -----------------------------------

TEST(QuantityUpstreamTest, QuantityString) {
  struct {
    int64_t i;  // upstream's decQuantity(i, exponent, format)
    int exponent;
    Format format;
    const char* expect;
    const char* alternate;
  } table[] = {
      {1024 * 1024 * 1024, 0, kBinarySI, "1Gi", "1024Mi"},
      {300 * 1024 * 1024, 0, kBinarySI, "300Mi", "307200Ki"},
      {6 * 1024, 0, kBinarySI, "6Ki", ""},
      {1001LL * 1024 * 1024 * 1024, 0, kBinarySI, "1001Gi", "1025024Mi"},
      {1024LL * 1024 * 1024 * 1024, 0, kBinarySI, "1Ti", "1024Gi"},
      {5, 0, kBinarySI, "5", "5000m"},
      {500, -3, kBinarySI, "500m", "0.5"},
      {1, 9, kDecimalSI, "1G", "1000M"},
      {1000, 6, kDecimalSI, "1G", "0.001T"},
      {1000000, 3, kDecimalSI, "1G", ""},
      {1000000000, 0, kDecimalSI, "1G", ""},
      {1, -3, kDecimalSI, "1m", "1000u"},
      {80, -3, kDecimalSI, "80m", ""},
      {1080, -3, kDecimalSI, "1080m", "1.08"},
      {108, -2, kDecimalSI, "1080m", "1080000000n"},
      {10800, -4, kDecimalSI, "1080m", ""},
      {300, 6, kDecimalSI, "300M", ""},
      {1, 12, kDecimalSI, "1T", ""},
      {1234567, 6, kDecimalSI, "1234567M", ""},
      {1234567, -3, kBinarySI, "1234567m", ""},
      {3, 3, kDecimalSI, "3k", ""},
      {1025, 0, kBinarySI, "1025", ""},
      {0, 0, kDecimalSI, "0", ""},
      {0, 0, kBinarySI, "0", ""},
      {1, 9, kDecimalExponent, "1e9", ".001e12"},
      {1, -3, kDecimalExponent, "1e-3", "0.001e0"},
      {1, -9, kDecimalExponent, "1e-9", "1000e-12"},
      {80, -3, kDecimalExponent, "80e-3", ""},
      {300, 6, kDecimalExponent, "300e6", ""},
      {1, 12, kDecimalExponent, "1e12", ""},
      {1, 3, kDecimalExponent, "1e3", ""},
      {3, 3, kDecimalExponent, "3e3", ""},
      {3, 3, kDecimalSI, "3k", ""},
      {0, 0, kDecimalExponent, "0", "00"},
      {1, -9, kDecimalSI, "1n", ""},
      {80, -9, kDecimalSI, "80n", ""},
      {1080, -9, kDecimalSI, "1080n", ""},
      {108, -8, kDecimalSI, "1080n", ""},
      {10800, -10, kDecimalSI, "1080n", ""},
      {1, -6, kDecimalSI, "1u", ""},
      {80, -6, kDecimalSI, "80u", ""},
      {1080, -6, kDecimalSI, "1080u", ""},
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.expect);
    const Quantity in = Dec(item.i, item.exponent, item.format);
    EXPECT_EQ(in.String(), item.expect);
    // The canonical string parses back to itself.
    Quantity q = MustParse(item.expect);
    EXPECT_EQ(q, in);
    EXPECT_EQ(q.String(), item.expect);
    if (*item.alternate != '\0') {
      SCOPED_TRACE(std::string("alternate: ") + item.alternate);
      EXPECT_EQ(MustParse(item.alternate).String(), item.expect);
    }
  }
  // Negated, every non-zero entry prints with a leading "-".
  for (const auto& item : table) {
    if (item.i == 0) continue;  // Don't expect it to print "-0" ever
    SCOPED_TRACE(item.expect);
    EXPECT_EQ(Dec(-item.i, item.exponent, item.format).String(), std::string("-") + item.expect);
  }
}

// --- quantity_test.go: TestQuantityParseEmit --------------------------------

TEST(QuantityUpstreamTest, QuantityParseEmit) {
  struct {
    const char* in;
    const char* expect;
  } table[] = {
      {"1Ki", "1Ki"},
      {"1Mi", "1Mi"},
      {"1Gi", "1Gi"},
      {"1024Mi", "1Gi"},
      {"1000M", "1G"},
      {".001Ki", "1024m"},
      {".000001Ki", "1024u"},
      {".000000001Ki", "1024n"},
      {".000000000001Ki", "2n"},
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.in);
    EXPECT_EQ(MustParse(item.in).String(), item.expect);
    EXPECT_EQ(MustParse(std::string("-") + item.in).String(), std::string("-") + item.expect);
  }
}

// --- quantity_test.go: small tests that only parse and print ----------------

TEST(QuantityUpstreamTest, QuantityParseSmallCases) {
  // TestQuantityParseZero
  EXPECT_EQ(MustParse("0").String(), "0");
  // TestQuantityParseNonNumericPanic: MustParse("Non-Numeric") panics.
  EXPECT_FALSE(Quantity::Parse("Non-Numeric").ok());
  // TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix:
  // these values print back as themselves.
  EXPECT_EQ(MustParse("100m").String(), "100m");
  EXPECT_EQ(MustParse("1Gi").String(), "1Gi");
  // TestQuantityNeg: -decQuantity(901, -2) prints "-9010m".
  EXPECT_EQ(Dec(-901, -2, kDecimalSI).String(), "-9010m");
  // TestJSONWhitespace, the inputs without whitespace (our Parse does not
  // trim; upstream's UnmarshalJSON does).
  EXPECT_EQ(MustParse("1").String(), "1");
  EXPECT_EQ(MustParse("10").String(), "10");
  EXPECT_EQ(MustParse("-1").String(), "-1");
  // TestQuantityValueSet
  EXPECT_FALSE(Quantity::Parse("invalid").ok());
  EXPECT_EQ(MustParse("1Mi").Value(), 1024 * 1024);
  EXPECT_EQ(MustParse("1Mi").String(), "1Mi");
  // TestUninitializedNoCrash
  Quantity zero;
  EXPECT_EQ(zero.Value(), 0);
  EXPECT_EQ(zero.MilliValue(), 0);
  EXPECT_EQ(zero.String(), "0");
}

// --- quantity_test.go: TestQuantityCmp ---------------------------------------

TEST(QuantityUpstreamTest, QuantityCmp) {
  struct {
    const char* x;
    const char* y;
    int expect;
  } table[] = {
      {"0", "0", 0},
      {"100m", "50m", 1},
      {"50m", "100m", -1},
      // Upstream also has {"10000T", "100Gi", 1}; 10000T = 10^16 is beyond
      // our range (checked in QuantityRangeTest).
  };
  for (const auto& c : table) {
    SCOPED_TRACE(std::string(c.x) + " vs " + c.y);
    const auto order = MustParse(c.x) <=> MustParse(c.y);
    const int got = order < 0 ? -1 : (order > 0 ? 1 : 0);
    EXPECT_EQ(got, c.expect);
  }
  ExpectError("10000T", kErrTooLarge);
}

// --- quantity_test.go: TestMilliNewSet, TestNewSet, TestNewScaledSet ---------

TEST(QuantityUpstreamTest, MilliNewSet) {
  struct {
    int64_t value;
    Format format;
    const char* expect;
    bool exact;
  } table[] = {
      {1, kDecimalSI, "1m", true},
      {1000, kDecimalSI, "1", true},
      {1234000, kDecimalSI, "1234", true},
      {1024, kBinarySI, "1024m", false},  // Format changes
      // Upstream passes an invalid format, which prints as DecimalExponent.
      {1000000, kDecimalExponent, "1e3", true},
      {1024 * 1024, kBinarySI, "1048576m", false},  // Format changes
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.expect);
    Quantity q = Quantity::FromMilli(item.value, item.format);
    EXPECT_EQ(q.String(), item.expect);
    EXPECT_EQ(q.MilliValue(), item.value);
    if (item.exact) {
      EXPECT_EQ(MustParse(q.String()).MilliValue(), item.value);
    }
  }
}

TEST(QuantityUpstreamTest, NewSet) {
  struct {
    int64_t value;
    Format format;
    const char* expect;
  } table[] = {
      {1, kDecimalSI, "1"},
      {1000, kDecimalSI, "1k"},
      {1234000, kDecimalSI, "1234k"},
      {1024, kBinarySI, "1Ki"},
      // Upstream passes an invalid format, which prints as DecimalExponent.
      {1000000, kDecimalExponent, "1e6"},
      {1024 * 1024, kBinarySI, "1Mi"},
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.expect);
    Quantity q = Quantity::FromInt(item.value, item.format);
    EXPECT_EQ(q.String(), item.expect);
    EXPECT_EQ(q.Value(), item.value);
    EXPECT_EQ(MustParse(q.String()).Value(), item.value);
  }
}

TEST(QuantityUpstreamTest, NewScaledSet) {
  // NewScaledQuantity(value, scale) is decQuantity(value, scale, DecimalSI).
  // Upstream checks ScaledValue(scale) after a round trip; we have it for the
  // Milli (MilliValue) and 0 (Value) scales.
  struct {
    int64_t value;
    int scale;
    const char* expect;
  } table[] = {
      {1, -9, "1n"},   {1000, -9, "1u"}, {1, -6, "1u"}, {1000, -6, "1m"},
      {1, -3, "1m"},   {1000, -3, "1"},  {1, 0, "1"},   {0, -9, "0"},
      {0, -6, "0"},    {0, -3, "0"},     {0, 0, "0"},
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.expect);
    Quantity q = Dec(item.value, item.scale, kDecimalSI);
    EXPECT_EQ(q.String(), item.expect);
    Quantity q2 = MustParse(q.String());
    EXPECT_EQ(q2, q);
    if (item.scale == -3) {
      EXPECT_EQ(q2.MilliValue(), item.value);
    }
    if (item.scale == 0) {
      EXPECT_EQ(q2.Value(), item.value);
    }
  }
}

// --- quantity_test.go: TestScaledValue (the Milli and 0 target scales) -------

TEST(QuantityUpstreamTest, ScaledValue) {
  // NewScaledQuantity(1, from).ScaledValue(to); to == Milli is MilliValue(),
  // to == 0 is Value(). Upstream's rows with to == Nano or Micro are skipped.
  struct {
    int from;
    bool milli;  // to == Milli, else to == 0
    int64_t expected;
  } table[] = {
      {-9, true, 1},   {-9, false, 1}, {-6, true, 1},   {-6, false, 1},
      {-3, true, 1},   {-3, false, 1}, {0, true, 1000}, {0, false, 1},
  };
  for (const auto& item : table) {
    SCOPED_TRACE("from " + std::to_string(item.from) + (item.milli ? " to milli" : " to 0"));
    Quantity q = Dec(1, item.from, kDecimalSI);
    EXPECT_EQ(item.milli ? q.MilliValue() : q.Value(), item.expected);
  }
}

// --- quantity_test.go: TestQuantityRoundUp (scales 0 and Milli) -------------

TEST(QuantityUpstreamTest, QuantityRoundUp) {
  // RoundUp(scale) and ScaledValue(scale) round with the same helper
  // (negativeScaleInt64) for these values, so the RoundUp(0) and RoundUp(-3)
  // rows give Value() and MilliValue(). Negatives round away from zero.
  struct {
    const char* in;
    bool milli;  // scale -3 (MilliValue), else scale 0 (Value)
    int64_t expect;
  } table[] = {
      {"9.01", true, 9010},   {"9.01", false, 10},
      {"-9.01", true, -9010}, {"-9.01", false, -10},
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.in);
    Quantity q = MustParse(item.in);
    EXPECT_EQ(item.milli ? q.MilliValue() : q.Value(), item.expect);
  }
}

// --- math_test.go: TestNegativeScaleInt64 ------------------------------------

TEST(QuantityUpstreamTest, NegativeScaleInt64) {
  // negativeScaleInt64(base, scale) is what Value() and MilliValue() use to
  // drop digits: base / 10^scale, rounded away from zero. For us that is
  // Value() of "<base>e-<scale>" and MilliValue() of "<base>e-<scale+3>".
  struct {
    int64_t base;
    int scale;
    int64_t result;
  } table[] = {
      {1234567, 0, 1234567},   {1234567, 1, 123457},   {1234567, 2, 12346},
      {1234567, 3, 1235},      {1234567, 4, 124},

      {-1234567, 0, -1234567}, {-1234567, 1, -123457}, {-1234567, 2, -12346},
      {-1234567, 3, -1235},    {-1234567, 4, -124},

      {1000, 0, 1000},         {1000, 1, 100},         {1000, 2, 10},
      {1000, 3, 1},            {1000, 4, 1},

      {-1000, 0, -1000},       {-1000, 1, -100},       {-1000, 2, -10},
      {-1000, 3, -1},          {-1000, 4, -1},

      {0, 0, 0},               {0, 1, 0},              {0, 2, 0},
      // Upstream's {1000, -1, 1000, true} tests undefined behaviour: skipped.
  };
  for (const auto& item : table) {
    const std::string base = std::to_string(item.base);
    SCOPED_TRACE(base + " scale " + std::to_string(item.scale));
    EXPECT_EQ(MustParse(base + "e-" + std::to_string(item.scale)).Value(), item.result);
    EXPECT_EQ(MustParse(base + "e-" + std::to_string(item.scale + 3)).MilliValue(), item.result);
  }
}

// --- amount_test.go: TestInt64AmountAsScaledInt64 ----------------------------

TEST(QuantityUpstreamTest, Int64AmountAsScaledInt64) {
  // int64Amount{value, scale}.AsScaledInt64(scaled) is Value() of
  // value * 10^(scale - scaled), written "<value>e<scale-scaled>".
  struct {
    const char* name;
    int64_t value;
    int scale;
    int scaled;
    int64_t result;
  } table[] = {
      {"test when i.scale < scaled ", 100, 0, 5, 1},
      {"test when i.scale = scaled", 100, 1, 1, 100},
      {"test when i.scale > scaled and result doesn't overflow", 100, 5, 2, 100000},
      // {"... result overflows", 876e30 at scale 4}: too large for us, below.
      {"test when i.scale < 0 and fraction exists", 93, -1, 0, 10},
      {"test when i.scale < 0 and fraction doesn't exist", 100, -1, 0, 10},
      {"test when i.value < 0 and fraction exists", -1932, 2, 4, -20},
      {"test when i.value < 0 and fraction doesn't exists", -1900, 2, 4, -19},
  };
  for (const auto& item : table) {
    SCOPED_TRACE(item.name);
    const std::string in = std::to_string(item.value) + "e" + std::to_string(item.scale - item.scaled);
    EXPECT_EQ(MustParse(in).Value(), item.result);
  }
  ExpectError("876e26", kErrTooLarge);
}

// --- scale_int_test.go: TestScaledValueInternal ------------------------------

TEST(QuantityUpstreamTest, ScaledValueInternal) {
  // scaledValue(unscaled, scale, newScale) = ceil(unscaled * 10^(newScale -
  // scale)); MilliValue() of "<unscaled>e<newScale-scale-3>" is the same.
  struct {
    std::string unscaled;
    int scale;
    int new_scale;
    int64_t want;
  } table[] = {
      // remain scale
      {"1000", 0, 0, 1000},
      // scale down
      {"1000", 0, -3, 1},
      {"1000", 3, 0, 1},
      {"0", 3, 0, 0},
      // always round up
      {"999", 3, 0, 1},
      {"500", 3, 0, 1},
      {"499", 3, 0, 1},
      {"1", 3, 0, 1},
      // large scaled value does not lose precision
      {std::to_string(std::numeric_limits<int64_t>::max() - 1), 1, 0,
       (std::numeric_limits<int64_t>::max() - 1) / 10 + 1},
      // large intermediate result: 10^100 at scale 100.
      {"1" + std::string(100, '0'), 100, 0, 1},
      // scale up
      {"0", 0, 3, 0},
      {"1", 0, 3, 1000},
      {"1", -3, 0, 1000},
      {"1000", -3, 2, 100000000},
      {std::to_string(std::numeric_limits<int64_t>::max() / 1000), 0, 3,
       (std::numeric_limits<int64_t>::max() / 1000) * 1000},
  };
  for (const auto& item : table) {
    const std::string in = item.unscaled + "e" + std::to_string(item.new_scale - item.scale - 3);
    SCOPED_TRACE(in);
    EXPECT_EQ(MustParse(in).MilliValue(), item.want);
  }
}

// --- quantity_example_test.go -------------------------------------------------

TEST(QuantityUpstreamTest, Examples) {
  // ExampleFormat
  EXPECT_EQ(Quantity::FromInt(5LL * 1024 * 1024 * 1024, kBinarySI).String(), "5Gi");
  EXPECT_EQ(Quantity::FromInt(5LL * 1000 * 1000 * 1000, kDecimalSI).String(), "5G");
  EXPECT_EQ(Quantity::FromMilli(5300, kDecimalSI).String(), "5300m");
  // ExampleMustParse
  Quantity memory = MustParse("5Gi");
  EXPECT_EQ(memory.Value(), 5368709120);
  EXPECT_EQ(memory.format(), kBinarySI);
  Quantity disk = MustParse("5G");
  EXPECT_EQ(disk.Value(), 5000000000);
  EXPECT_EQ(disk.format(), kDecimalSI);
  Quantity cores = MustParse("5300m");
  EXPECT_EQ(cores.MilliValue(), 5300);
  EXPECT_EQ(cores.format(), kDecimalSI);
  Quantity cores2 = MustParse("5.4");
  EXPECT_EQ(cores2.MilliValue(), 5400);
  EXPECT_EQ(cores2.format(), kDecimalSI);
}

// --- quantity_test.go: TestParseQuantity --------------------------------------

TEST(QuantityUpstreamTest, ParseQuantityBeyondInt64Milli) {
  // Upstream's table probes 18-, 19- and 20-digit values around 10^18 and
  // 2^63; every one is beyond our range (|value| <= ~9.2e15), so each must be
  // rejected, never wrapped.
  const char* inputs[] = {
      "-999999999999999999", "999999999999999999", "-999999999999999999.0", "999999999999999999.0",
      "-999999999999999999.1", "999999999999999999.1", "-9999999999999999999", "9999999999999999999",
      "-1E", "1E", "-1000000000000000000", "1000000000000000000", "-9999999999999999999.0",
      "9999999999999999999.0", "-1.0E", "1.0E", "-1000000000000000000.0", "1000000000000000000.0",
      "-9999999999999999999000m", "9999999999999999999000m", "-9999999999999999999.1",
      "9999999999999999999.1", "-1.0000000000000000001E", "1.0000000000000000001E",
      "-1000000000000000000.1", "1000000000000000000.1", "-1.000000000000000001E",
      "1.000000000000000001E", "-1000000000000000001", "1000000000000000001", "-10E", "10E",
      "-10000000000000000000", "10000000000000000000", "-10.0E", "10.0E", "-10000000000000000000.0",
      "10000000000000000000.0", "-10000000000000000000000m", "10000000000000000000000m",
      "-10.0000000000000000001E", "10.0000000000000000001E", "-10000000000000000000.1",
      "10000000000000000000.1", "-10.000000000000000001E", "10.000000000000000001E",
      "-10000000000000000001", "10000000000000000001", "-9223372036854775809", "9223372036854775806",
      "-9223372036854775809.0", "9223372036854775806.0", "-9223372036854775809000m",
      "9223372036854775806000m", "-9223372036854775809.1", "9223372036854775806.1",
      "-9223372036854775808", "9223372036854775807", "-9223372036854775808.0", "9223372036854775807.0",
      "-9223372036854775808000m", "9223372036854775807000m", "-9223372036854775808.1",
      "9223372036854775807.1", "-9223372036854775807", "9223372036854775808", "-9223372036854775807.0",
      "9223372036854775808.0", "-9223372036854775807000m", "9223372036854775808000m",
      "-9223372036854775807.1", "9223372036854775808.1",
  };
  for (const char* in : inputs) ExpectError(in, kErrTooLarge);
}

// --- ours: error selection ----------------------------------------------------

TEST(QuantityErrorTest, UpstreamErrorForEachShapeOfBadInput) {
  struct {
    const char* input;
    const char* message;
  } cases[] = {
      {"", kErrFormatWrong},
      {"1.5.5", kErrFormatWrong},
      {"abc", kErrFormatWrong},
      {"1 Gi", kErrFormatWrong},
      {"Non-Numeric", kErrFormatWrong},
      {"invalid", kErrFormatWrong},  // "in" are suffix letters, "v" is not
      {"1e3e3", kErrFormatWrong},
      {"1Ki ", kErrFormatWrong},
      {"\t1", kErrFormatWrong},
      {"1,5", kErrFormatWrong},
      {"1Kii", kErrSuffix},
      {"1e", kErrSuffix},
      {"1E+", kErrSuffix},
      {"1e-", kErrSuffix},
      {"1ki", kErrSuffix},
      {"1K", kErrSuffix},
      {"1mi", kErrSuffix},
      {"1EE", kErrSuffix},
      {"5k3", kErrSuffix},
      {"1-", kErrSuffix},
      {"--1", kErrSuffix},           // the second "-1" is scanned as a suffix
      {"1e1.5", kErrFormatWrong},
      {"1e99999999999999999999", kErrSuffix},  // exponent overflows int64
      {"1e9223372036854775808", kErrSuffix},
      {"1e-9223372036854775809", kErrSuffix},
      // No digit at all takes upstream's inf.Dec path for Pi, Ei and exponents
      // below -9, which then cannot parse the number.
      {"Pi", kErrNumeric},
      {"-Ei", kErrNumeric},
      {".Pi", kErrNumeric},
      {"e-10", kErrNumeric},
      {"+.e-10", kErrNumeric},
  };
  for (const auto& c : cases) ExpectError(c.input, c.message);
}

TEST(QuantityErrorTest, DigitlessNumbersThatUpstreamAccepts) {
  // Upstream's fast path reads a missing number as 0.
  struct {
    const char* input;
    Format format;
  } cases[] = {
      {".", kDecimalSI},  {"-", kDecimalSI},  {"+", kDecimalSI},         {"-.", kDecimalSI},
      {"m", kDecimalSI},  {"k", kDecimalSI},  {"Ki", kBinarySI},         {"-Ti", kBinarySI},
      {"e5", kDecimalExponent},  {".e-9", kDecimalExponent}, {"00", kDecimalSI}, {"-0", kDecimalSI},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    Quantity q = MustParse(c.input);
    EXPECT_TRUE(q.IsZero());
    EXPECT_EQ(q.Sign(), 0);
    EXPECT_EQ(FormatName(q.format()), std::string(FormatName(c.format)));
    EXPECT_EQ(q.String(), "0");
  }
}

// --- ours: range and huge inputs ----------------------------------------------

TEST(QuantityRangeTest, BoundaryOfInt64Milli) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  Quantity top = MustParse("9223372036854775807m");
  EXPECT_EQ(top.MilliValue(), kMax);
  EXPECT_EQ(top.Value(), kMax / 1000 + 1);
  EXPECT_EQ(top.String(), "9223372036854775807m");
  Quantity bottom = MustParse("-9223372036854775807m");
  EXPECT_EQ(bottom.MilliValue(), -kMax);
  EXPECT_EQ(bottom.Value(), -(kMax / 1000 + 1));
  EXPECT_EQ(MustParse("9223372036854775807000000n").MilliValue(), kMax);

  ExpectError("9223372036854775808m", kErrTooLarge);
  ExpectError("-9223372036854775808m", kErrTooLarge);  // |milli| > INT64_MAX
  // One nano past the top: MilliValue() would round up to 2^63.
  ExpectError("9223372036854775807000001n", kErrTooLarge);
  ExpectError("9223372036854775807.000001m", kErrTooLarge);
  ExpectError("-9223372036854775807.000001m", kErrTooLarge);

  EXPECT_EQ(MustParse("9223372036854775").MilliValue(), 9223372036854775000);
  ExpectError("9223372036854776", kErrTooLarge);
  EXPECT_EQ(MustParse("8Pi").Value(), 9007199254740992);
  ExpectError("9Pi", kErrTooLarge);
  EXPECT_EQ(MustParse("8388607Gi").Value(), 8388607LL << 30);
  EXPECT_EQ(MustParse("9007199254740Ki").Value(), 9007199254740LL * 1024);
  ExpectError("9007199254741Ki", kErrTooLarge);  // 9223372036854784 > 9223372036854775.807
  ExpectError("8589934592Gi", kErrTooLarge);     // 2^63 bytes
  ExpectError("1Ei", kErrTooLarge);
  ExpectError("10000T", kErrTooLarge);
}

TEST(QuantityRangeTest, HugeInputsNeverOverflow) {
  const std::string zeros(100000, '0');
  ExpectError("1" + zeros, kErrTooLarge);
  ExpectError("-1" + zeros, kErrTooLarge);
  ExpectError("1" + zeros + "Ki", kErrTooLarge);
  ExpectError("1" + zeros + "n", kErrTooLarge);
  ExpectError("1e400", kErrTooLarge);
  ExpectError("1e9223372036854775807", kErrTooLarge);
  ExpectError("99999999999999999999Ei", kErrTooLarge);
  ExpectError("9" + std::string(100000, '9') + "e-99984", kErrTooLarge);

  // A long number whose value is small is fine and exact (then rounded up).
  EXPECT_EQ(MustParse(zeros + "1").Value(), 1);
  EXPECT_EQ(MustParse("1" + zeros + "e-100000").String(), "1");
  const std::string nines = "9" + std::string(100000, '9');
  EXPECT_EQ(MustParse(nines + "e-99990").Value(), 100000000000);
  EXPECT_EQ(MustParse(nines + "e-99990").MilliValue(), 100000000000000);
  EXPECT_EQ(MustParse("1." + zeros).String(), "1");
  EXPECT_EQ(MustParse("0." + zeros + "1").String(), "1n");
  EXPECT_EQ(MustParse("-0." + zeros + "1").String(), "-1n");
  EXPECT_EQ(MustParse("1." + zeros + "1").String(), "1000000001n");
  EXPECT_EQ(MustParse("1." + zeros + "1Ki").String(), "1024000000001n");
  EXPECT_EQ(MustParse("1." + zeros + "Ki").String(), "1Ki");
  EXPECT_EQ(MustParse("0." + zeros + "1Ei").String(), "1n");

  // Exponents at the ends of int64: too large, or rounded up to one nano.
  Quantity tiny = MustParse("1e-400");
  EXPECT_EQ(tiny.String(), "1e-9");
  EXPECT_EQ(tiny.format(), kDecimalExponent);
  EXPECT_EQ(tiny.MilliValue(), 1);
  EXPECT_EQ(tiny.Value(), 1);
  EXPECT_EQ(MustParse("-1e-400").String(), "-1e-9");
  EXPECT_EQ(MustParse("1e-9223372036854775808").String(), "1e-9");
  EXPECT_EQ(MustParse("5E-4294967296").String(), "1e-9");
  EXPECT_TRUE(MustParse("0e9223372036854775807").IsZero());
  EXPECT_TRUE(MustParse("0" + zeros + "e400").IsZero());
  EXPECT_TRUE(MustParse("-0.0e-9223372036854775808").IsZero());
}

// --- ours: canonical printing -----------------------------------------------

TEST(QuantityStringTest, CanonicalForms) {
  struct {
    const char* in;
    const char* expect;
    Format format;  // of the parsed quantity
  } cases[] = {
      {"0.5", "500m", kDecimalSI},
      {"1000", "1k", kDecimalSI},
      {"1500", "1500", kDecimalSI},
      {"1024", "1024", kDecimalSI},
      {"1.5Gi", "1536Mi", kBinarySI},
      {"1Ki", "1Ki", kBinarySI},
      {"1.5Ki", "1536", kBinarySI},       // whole, but not a multiple of 1024
      {"1.1Ki", "1126400m", kBinarySI},    // not whole: printed as DecimalSI
      {"0.5Ki", "512", kBinarySI},         // below 1024: printed as DecimalSI
      {"0.0001Ki", "102400u", kDecimalSI},  // below 1: parsed as DecimalSI
      {"-0.5Ki", "-512", kBinarySI},
      {"-1024", "-1024", kDecimalSI},
      {"-1Ki", "-1Ki", kBinarySI},
      {"2048Ki", "2Mi", kBinarySI},
      {"1025Ki", "1025Ki", kBinarySI},
      {"1e3", "1e3", kDecimalExponent},
      {"1E3", "1e3", kDecimalExponent},   // upstream echoes "1E3"
      {"1e+3", "1e3", kDecimalExponent},  // upstream echoes "1e+3"
      {"10e2", "1e3", kDecimalExponent},
      {"1e0", "1", kDecimalExponent},  // upstream echoes "1e0"
      {"1e1", "10", kDecimalExponent},
      {"1e-1", "100e-3", kDecimalExponent},
      {"1.5e-7", "150e-9", kDecimalExponent},
      {"100m", "100m", kDecimalSI},
      {"0", "0", kDecimalSI},
      {"-1", "-1", kDecimalSI},
      {"1n", "1n", kDecimalSI},
      {"1000n", "1u", kDecimalSI},
      {"1100n", "1100n", kDecimalSI},
      {"0.1m", "100u", kDecimalSI},
      {"1.5P", "1500T", kDecimalSI},
      {"9P", "9P", kDecimalSI},
      {"+1", "1", kDecimalSI},  // upstream's String() echoes "+1" (see quantity.cc)
      {"01", "1", kDecimalSI},   // upstream echoes "01"
      {"1.k", "1k", kDecimalSI},  // upstream echoes "1.k"
      {"0.9n", "1n", kDecimalSI},
      {"-0.9n", "-1n", kDecimalSI},  // rounded away from zero
      {"-3.001n", "-4n", kDecimalSI},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    Quantity q = MustParse(c.in);
    EXPECT_EQ(q.String(), c.expect);
    EXPECT_EQ(FormatName(q.format()), std::string(FormatName(c.format)));
    // The canonical string parses back to the same value.
    EXPECT_EQ(MustParse(q.String()), q);
  }
}

TEST(QuantityStringTest, FromMilliAndFromIntKeepTheirFormat) {
  EXPECT_EQ(Quantity::FromMilli(1500).String(), "1500m");
  EXPECT_EQ(Quantity::FromMilli(1500).format(), kDecimalSI);
  EXPECT_EQ(Quantity::FromMilli(2000, kDecimalExponent).String(), "2");
  EXPECT_EQ(Quantity::FromMilli(-2500, kDecimalExponent).String(), "-2500e-3");
  EXPECT_EQ(Quantity::FromMilli(1024000, kBinarySI).String(), "1Ki");
  EXPECT_EQ(Quantity::FromMilli(1024000, kBinarySI).format(), kBinarySI);
  EXPECT_EQ(Quantity::FromInt(0, kBinarySI).String(), "0");
  EXPECT_EQ(Quantity::FromInt(-3LL << 40, kBinarySI).String(), "-3Ti");
  EXPECT_EQ(Quantity::FromInt(1023, kBinarySI).String(), "1023");
  // Between -1024 and 1024 BinarySI prints as DecimalSI, so 1000 is "1k".
  EXPECT_EQ(Quantity::FromInt(1000, kBinarySI).String(), "1k");
  EXPECT_EQ(Quantity::FromInt(-1000, kBinarySI).String(), "-1k");
  EXPECT_EQ(MustParse("0.9765625Ki").String(), "1k");
  EXPECT_EQ(MustParse("0.9765625Ki").format(), kBinarySI);
  EXPECT_EQ(Quantity::FromInt(3000, kBinarySI).String(), "3000");  // >= 1024: base 1024
  EXPECT_EQ(Quantity::FromInt(std::numeric_limits<int64_t>::max()).String(), "9223372036854775807");
  EXPECT_EQ(Quantity::FromInt(std::numeric_limits<int64_t>::min(), kBinarySI).String(), "-8Ei");
  EXPECT_EQ(Quantity::FromInt(1000000000000000000).String(), "1E");
}

// --- ours: MilliValue / Value ------------------------------------------------

TEST(QuantityValueTest, RoundsAwayFromZero) {
  struct {
    const char* in;
    int64_t milli;
    int64_t value;
  } cases[] = {
      {"0", 0, 0},
      {"1", 1000, 1},
      {"1.5", 1500, 2},
      {"-1.5", -1500, -2},
      {"1n", 1, 1},
      {"-1n", -1, -1},
      {"0.0001", 1, 1},
      {"-0.0001", -1, -1},
      {"999999n", 1, 1},
      {"1000001n", 2, 1},
      {"-1000001n", -2, -1},
      {"100m", 100, 1},
      {"-100m", -100, -1},
      {"2.5Ki", 2560000, 2560},
      // Upstream keeps the next three in inf.Dec, where its scaledValue gives
      // "-1.1Ki" Value() -1125 and "-0.0001Ki" Value() 1, MilliValue() -101
      // (see the notes in quantity.cc). We round away from zero throughout.
      {"-1.1Ki", -1126400, -1127},
      {"0.0001Ki", 103, 1},
      {"-0.0001Ki", -103, -1},
      {"64Gi", 68719476736000, 68719476736},
      {"1e-3", 1, 1},
      {"1.5e3", 1500000, 1500},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    Quantity q = MustParse(c.in);
    EXPECT_EQ(q.MilliValue(), c.milli);
    EXPECT_EQ(q.Value(), c.value);
  }
}

TEST(QuantityValueTest, FromMilliFromInt) {
  EXPECT_EQ(Quantity::FromMilli(1).MilliValue(), 1);
  EXPECT_EQ(Quantity::FromMilli(1).Value(), 1);
  EXPECT_EQ(Quantity::FromMilli(-1).Value(), -1);
  EXPECT_EQ(Quantity::FromMilli(2001).Value(), 3);
  EXPECT_EQ(Quantity::FromInt(7).MilliValue(), 7000);
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(Quantity::FromMilli(kMax).MilliValue(), kMax);
  EXPECT_EQ(Quantity::FromMilli(kMin).MilliValue(), kMin);
  EXPECT_EQ(Quantity::FromMilli(kMin).Value(), kMin / 1000 - 1);
  EXPECT_EQ(Quantity::FromInt(kMax).Value(), kMax);
  EXPECT_EQ(Quantity::FromInt(kMin).Value(), kMin);
  // A FromInt value beyond the milli range saturates MilliValue().
  EXPECT_EQ(Quantity::FromInt(kMax).MilliValue(), kMax);
  EXPECT_EQ(Quantity::FromInt(kMin).MilliValue(), kMin);
}

// --- ours: comparison, sign ---------------------------------------------------

TEST(QuantityCompareTest, ValueOnlyIgnoringFormat) {
  EXPECT_EQ(MustParse("1Ki"), Quantity::FromInt(1024));
  EXPECT_EQ(MustParse("1k"), MustParse("1e3"));
  EXPECT_EQ(MustParse("0.5"), MustParse("500m"));
  EXPECT_EQ(MustParse("-0"), Quantity());
  EXPECT_LT(MustParse("1k"), MustParse("1Ki"));
  EXPECT_LT(MustParse("-1n"), Quantity());
  EXPECT_GT(MustParse("1.000000001"), MustParse("1"));
  EXPECT_EQ(MustParse("1.0000000001"), MustParse("1.000000001"));  // rounded up to nano
  EXPECT_EQ(MustParse("-5m").Sign(), -1);
  EXPECT_EQ(MustParse("5m").Sign(), 1);
  EXPECT_FALSE(MustParse("1n").IsZero());
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// resource.Quantity.Add: the sum keeps the receiver's format, or takes the
// other's when the receiver is zero (component-helpers addResourceList).
TEST(QuantityAddTest, SumAndFormat) {
  Quantity a = *Quantity::Parse("800Mi");
  a.Add(*Quantity::Parse("400Mi"));
  EXPECT_EQ(a.String(), "1200Mi");
  Quantity b = *Quantity::Parse("500m");
  b.Add(*Quantity::Parse("1"));
  EXPECT_EQ(b.String(), "1500m");
  Quantity zero;
  zero.Add(*Quantity::Parse("1Gi"));
  EXPECT_EQ(zero.String(), "1Gi");
  Quantity c = *Quantity::Parse("1");
  c.Add(*Quantity::Parse("-1"));
  EXPECT_TRUE(c.IsZero());
}

// Sub is exact at nano precision, as upstream's (its int64 path).
TEST(QuantityTest, SubIsExact) {
  auto q = [](const char* t) { return *Quantity::Parse(t); };
  struct Case {
    const char* a;
    const char* b;
    const char* want;
  };
  const Case cases[] = {{"2Gi", "1Gi", "1Gi"}, {"1", "1500m", "-500m"}, {"1", "1n", "999999999n"}, {"0", "1Gi", "-1Gi"}};
  for (const Case& c : cases) {
    Quantity r = q(c.a);
    r.Sub(q(c.b));
    EXPECT_EQ(r, q(c.want)) << c.a << " - " << c.b;
    EXPECT_EQ(r.String(), c.want) << c.a << " - " << c.b;
  }
}

}  // namespace
}  // namespace gpusched

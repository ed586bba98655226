// Tests for CEL values (model/cel/value.cc): heterogeneous equality and
// ordering as cel-go's common/types compare them, map lookup across numeric
// key types, runtime type names and the %v formatting of error texts.
#include "gpusched/model/cel/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

TEST(CelValueTest, EqualityAndOrder) {
  struct Case {
    Value a, b;
    bool equal;
    std::optional<int> order;  // nullopt: not comparable; 2: unordered (NaN)
  };
  const double nan = std::nan("");
  const std::vector<Case> cases = {
      {Value::Int(1), Value::Uint(1), true, 0},
      {Value::Int(-1), Value::Uint(0), false, -1},
      {Value::Uint(UINT64_MAX), Value::Int(INT64_MAX), false, 1},
      {Value::Int(1), Value::Double(1.0), true, 0},
      {Value::Int(1), Value::Double(1.5), false, -1},
      // 2^63 - 1 converts to the double 2^63 (cel-go compareIntDouble).
      {Value::Int(INT64_MAX), Value::Double(9223372036854775808.0), true, 0},
      {Value::Double(1e300), Value::Int(INT64_MAX), false, 1},
      {Value::Double(-1.0), Value::Uint(0), false, -1},
      {Value::Double(nan), Value::Double(nan), false, 2},
      {Value::Double(nan), Value::Int(1), false, 2},
      {Value::String("a"), Value::String("b"), false, -1},
      {Value::BytesOf("b"), Value::BytesOf("a"), false, 1},
      {Value::Bool(false), Value::Bool(true), false, -1},
      {Value::String("1"), Value::Int(1), false, std::nullopt},
      {Value::Null(), Value::Null(), true, std::nullopt},
      {Value::List({Value::Int(1)}), Value::List({Value::Double(1.0)}), true, std::nullopt},
      {Value::List({Value::Int(1)}), Value::List({}), false, std::nullopt},
      {Value::OfQuantity(*Quantity::Parse("1k")), Value::OfQuantity(*Quantity::Parse("1000")), true, std::nullopt},
      {Value::OfSemver(*Semver::Parse("1.0.0+a")), Value::OfSemver(*Semver::Parse("1.0.0+b")), true, std::nullopt},
      {Value::Type("int"), Value::Type("int"), true, std::nullopt},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    const Case& c = cases[i];
    EXPECT_EQ(EqualBool(c.a, c.b), c.equal);
    EXPECT_EQ(EqualBool(c.b, c.a), c.equal);
    EXPECT_EQ(Compare(c.a, c.b), c.order);
  }
  Value err = Value::Error("boom");
  EXPECT_EQ(Equal(err, Value::Int(1)).error(), "boom");
  EXPECT_EQ(Equal(Value::Int(1), err).error(), "boom");
}

TEST(CelValueTest, MapFindAcrossNumbers) {
  auto m = std::make_shared<MapValue>();
  m->entries.emplace_back(Value::Int(1), Value::String("one"));
  m->entries.emplace_back(Value::String("k"), Value::String("v"));
  ASSERT_NE(m->Find(Value::Uint(1)), nullptr);
  EXPECT_EQ(m->Find(Value::Double(1.0))->string_value(), "one");
  EXPECT_EQ(m->Find(Value::Double(1.5)), nullptr);
  EXPECT_EQ(m->Find(Value::String("k"))->string_value(), "v");
  EXPECT_EQ(m->Find(Value::Bool(true)), nullptr);
}

TEST(CelValueTest, NamesAndFormatting) {
  EXPECT_EQ(RuntimeTypeName(Value::Null()), "null_type");
  EXPECT_EQ(RuntimeTypeName(Value::List({})), "list");
  EXPECT_EQ(RuntimeTypeName(Value::OfQuantity(Quantity())), "kubernetes.Quantity");
  EXPECT_EQ(RuntimeTypeName(Value::OfSemver(Semver())), "kubernetes.Semver");
  EXPECT_EQ(FormatForError(Value::String("noSuchAttr")), "noSuchAttr");
  EXPECT_EQ(FormatForError(Value::Int(-3)), "-3");
  EXPECT_EQ(FormatForError(Value::Uint(3)), "3");
  EXPECT_EQ(FormatForError(Value::Bool(true)), "true");
  EXPECT_EQ(FormatForError(Value::List({Value::Int(1), Value::String("a")})), "[1 a]");
}

}  // namespace
}  // namespace gpusched::cel

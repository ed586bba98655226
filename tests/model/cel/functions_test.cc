// Tests for the function registry (model/cel/functions.cc): the overloads
// the DRA environment declares, runtime parameter matching, the regex cache
// and code-point counting.
#include "gpusched/model/cel/functions.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <set>
#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

TEST(CelFunctionsTest, Registry) {
  const FunctionRegistry& r = FunctionRegistry::Get();
  // One function from each library, with overload ids as cel-go and the
  // Kubernetes libraries name them.
  struct Case {
    std::string function;
    std::set<std::string> ids;
  };
  const std::vector<Case> cases = {
      {"size", {"size_string", "size_bytes", "size_list", "size_map", "string_size", "bytes_size", "list_size",
                "map_size"}},
      {"matches", {"matches", "matches_string"}},
      {"quantity", {"string_to_quantity"}},
      {"isGreaterThan", {"quantity_is_greater_than", "semver_is_greater_than"}},
      {"semver", {"string_to_semver", "string_bool_to_semver"}},
      {"split", {"string_split_string", "string_split_string_int"}},
      {"findAll", {"string_find_all_string", "string_find_all_string_int"}},
      {"sets.contains", {"list_sets_contains_list"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.function);
    const std::vector<Overload>* o = r.Find(c.function);
    ASSERT_NE(o, nullptr);
    std::set<std::string> ids;
    for (const Overload& x : *o) ids.insert(x.id);
    EXPECT_EQ(ids, c.ids);
  }
  EXPECT_EQ(r.Find("format"), nullptr);
  EXPECT_EQ(r.Find("includes"), nullptr);  // DRAListTypeAttributes, after 1.35
}

TEST(CelFunctionsTest, ValueMatches) {
  EXPECT_TRUE(ValueMatches(Type::Dyn(), Value::Int(1)));
  EXPECT_TRUE(ValueMatches(Type::Param("A"), Value::String("a")));
  EXPECT_TRUE(ValueMatches(Type::List(Type::Int()), Value::List({})));
  EXPECT_FALSE(ValueMatches(Type::Int(), Value::Uint(1)));
  EXPECT_TRUE(ValueMatches(Type::Quantity(), Value::OfQuantity(Quantity())));
  EXPECT_FALSE(ValueMatches(Type::Semver(), Value::OfQuantity(Quantity())));
}

TEST(CelFunctionsTest, Helpers) {
  EXPECT_EQ(CodePointCount(""), 0);
  EXPECT_EQ(CodePointCount("h\xc3\xa9llo"), 5);
  EXPECT_EQ(CodePointCount("\xf0\x9f\x98\x80"), 1);
  std::shared_ptr<const re2::RE2> a = CachedRegex("^a+$");
  EXPECT_TRUE(a->ok());
  EXPECT_EQ(a.get(), CachedRegex("^a+$").get());  // cached
  EXPECT_FALSE(CachedRegex("(")->ok());
}

}  // namespace
}  // namespace gpusched::cel

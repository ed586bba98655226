// Tests for macro expansion (model/cel/macros.cc) directly: what is and is
// not a macro, and the malformed-macro messages of cel-go parser/macro.go
// and ext/bindings.go. parser_test.cc shows the expanded shapes.
#include "gpusched/model/cel/macros.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

std::vector<ExprPtr> Idents(IdGen& ids, std::vector<std::string> names) {
  std::vector<ExprPtr> out;
  for (std::string& n : names) out.push_back(NewIdent(ids, 0, std::move(n)));
  return out;
}

TEST(CelMacrosTest, Recognition) {
  struct Case {
    std::string fn;
    bool member;
    size_t args;
    bool matched;
  };
  const std::vector<Case> cases = {
      {"has", false, 1, true},       {"has", false, 2, false},     {"all", true, 2, true},
      {"all", false, 2, false},      {"exists", true, 2, true},    {"exists_one", true, 2, true},
      {"map", true, 2, true},        {"map", true, 3, true},       {"map", true, 4, false},
      {"filter", true, 2, true},     {"filter", true, 3, false},   {"bind", true, 3, true},
      {"existsOne", true, 2, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fn + "/" + std::to_string(c.args));
    IdGen ids;
    ExprPtr target = c.member ? NewIdent(ids, 0, c.fn == "bind" ? "cel" : "l") : nullptr;
    std::vector<ExprPtr> args = Idents(ids, std::vector<std::string>(c.args, "x"));
    std::vector<Issue> issues;
    bool matched = false;
    ExpandMacro(ids, 0, c.fn, target, args, &matched, &issues);
    EXPECT_EQ(matched, c.matched);
  }
}

TEST(CelMacrosTest, MalformedArguments) {
  IdGen ids;
  std::vector<Issue> issues;
  bool matched = false;
  ExprPtr target = NewIdent(ids, 0, "l");
  std::vector<ExprPtr> args;
  args.push_back(NewIdent(ids, 7, kAccumulatorName));
  args.push_back(NewConst(ids, 9, Value::Bool(true)));
  EXPECT_EQ(ExpandMacro(ids, 5, "all", target, args, &matched, &issues), nullptr);
  EXPECT_TRUE(matched);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].offset, 7);
  EXPECT_EQ(issues[0].message, "iteration variable overwrites accumulator variable");
  // bind on any receiver other than `cel` is an ordinary call.
  ExprPtr other = NewIdent(ids, 0, "x");
  std::vector<ExprPtr> bind_args = Idents(ids, {"v", "a", "b"});
  EXPECT_EQ(ExpandMacro(ids, 0, "bind", other, bind_args, &matched, &issues), nullptr);
  EXPECT_FALSE(matched);
  EXPECT_NE(other, nullptr);  // left untouched
}

}  // namespace
}  // namespace gpusched::cel

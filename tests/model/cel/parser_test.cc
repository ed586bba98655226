// Tests for the CEL parser (model/cel/parser.cc): the shape of the AST
// (operators as calls, balanced && / || trees as cel-go's helper.go builds
// them, literal signs, member calls), syntax errors with cel-go's display
// (ERROR: <input>:L:C: message + snippet + caret, parser_test.go's texts
// where we match them) and the nesting limits.
#include "gpusched/model/cel/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/model/cel/format_double.h"

namespace gpusched::cel {
namespace {

std::string Print(const Expr& e);

std::string Args(const std::vector<ExprPtr>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + Print(*args[i]);
  return s;
}

// An S-expression-like rendering of the AST.
std::string Print(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kConst: {
      const Value& v = e.constant;
      switch (v.kind()) {
        case Value::Kind::kString: return "\"" + v.string_value() + "\"";
        case Value::Kind::kBytes: return "b\"" + v.bytes_value() + "\"";
        case Value::Kind::kUint: return std::to_string(v.uint_value()) + "u";
        case Value::Kind::kDouble: return FormatDoubleGo(v.double_value()) + "d";
        default: return FormatForError(v);
      }
    }
    case Expr::Kind::kIdent: return e.name;
    case Expr::Kind::kSelect:
      return e.test_only ? "has(" + Print(*e.target) + "." + e.name + ")" : Print(*e.target) + "." + e.name;
    case Expr::Kind::kCall: return (e.target ? Print(*e.target) + "." : "") + e.name + "(" + Args(e.args) + ")";
    case Expr::Kind::kList: return "[" + Args(e.args) + "]";
    case Expr::Kind::kMap: {
      std::string s = "{";
      for (size_t i = 0; i + 1 < e.args.size(); i += 2)
        s += (i ? ", " : "") + Print(*e.args[i]) + ": " + Print(*e.args[i + 1]);
      return s + "}";
    }
    case Expr::Kind::kComprehension:
      return "fold(" + e.iter_var + " in " + Print(*e.iter_range) + ", " + e.accu_var + " = " + Print(*e.accu_init) +
             ", while " + Print(*e.loop_cond) + ", step " + Print(*e.loop_step) + ", result " + Print(*e.result) + ")";
  }
  return "?";
}

TEST(CelParserTest, Shapes) {
  struct Case {
    std::string src;
    std::string ast;
  };
  const std::vector<Case> cases = {
      {"a && b && c && d", "_&&_(_&&_(a, b), _&&_(c, d))"},
      {"a || b || c", "_||_(_||_(a, b), c)"},
      {"a || b && c", "_||_(a, _&&_(b, c))"},
      {"a ? b : c ? d : e", "_?_:_(a, b, _?_:_(c, d, e))"},
      {"1 + 2 * 3 - 4", "_-_(_+_(1, _*_(2, 3)), 4)"},
      {"a < b == c", "_==_(_<_(a, b), c)"},
      {"x in [1, 2]", "@in(x, [1, 2])"},
      {"-1", "-1"},
      {"-x", "-_(x)"},
      {"--x", "x"},
      {"---1", "-1"},
      {"-1u", "-_(1u)"},
      {"!!a", "a"},
      {"!a", "!_(a)"},
      {"-9223372036854775808", "-9223372036854775808"},
      {"0xFFu", "255u"},
      {"1.5e3", "1500d"},
      {"a.b.c", "a.b.c"},
      {"a[0]['k']", "_[_](_[_](a, 0), \"k\")"},
      {"a.f(1, 2)", "a.f(1, 2)"},
      {"f()", "f()"},
      {".a", "a"},
      {"{'a': 1, 2: b}", "{\"a\": 1, 2: b}"},
      {"[1, 2,]", "[1, 2]"},
      {"{'a': 1,}", "{\"a\": 1}"},
      {"has(a.b)", "has(a.b)"},
      {"l.all(x, x > 0)",
       "fold(x in l, @result = true, while @not_strictly_false(@result), step _&&_(@result, _>_(x, 0)), result "
       "@result)"},
      {"l.exists(x, p)",
       "fold(x in l, @result = false, while @not_strictly_false(!_(@result)), step _||_(@result, p), result @result)"},
      {"l.exists_one(x, p)",
       "fold(x in l, @result = 0, while true, step _?_:_(p, _+_(@result, 1), @result), result _==_(@result, 1))"},
      {"l.map(x, x * 2)", "fold(x in l, @result = [], while true, step _+_(@result, [_*_(x, 2)]), result @result)"},
      {"l.map(x, x > 1, x)",
       "fold(x in l, @result = [], while true, step _?_:_(_>_(x, 1), _+_(@result, [x]), @result), result @result)"},
      {"l.filter(x, p)",
       "fold(x in l, @result = [], while true, step _?_:_(p, _+_(@result, [x]), @result), result @result)"},
      {"cel.bind(v, 1, v + 1)", "fold(#unused in [], v = 1, while false, step v, result _+_(v, 1))"},
      {"x.bind(v, 1, v)", "x.bind(v, 1, v)"},
      {"a.while", "a.while"},
      {"l.all(x)", "l.all(x)"},
      {"r'\\d' + b'a'", "_+_(\"\\d\", b\"a\")"},
      {"m.transformMap(k, v, k != 'a', v)",
       "fold(k in m, @result = {}, while true, step _?_:_(_!=_(k, \"a\"), cel.@mapInsert(@result, k, v), @result), "
       "result @result)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    ParseResult r = Parse(c.src);
    ASSERT_TRUE(r.issues.empty()) << FormatIssues(c.src, r.issues);
    EXPECT_EQ(Print(*r.expr), c.ast);
  }
}

TEST(CelParserTest, Errors) {
  struct Case {
    std::string src;
    std::string error;
  };
  const std::string expect_expr =
      "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
      "IDENTIFIER}";
  const std::vector<Case> cases = {
      // cel-go parser_test.go: "*@a | b" reports the '*' first.
      {"*1", "ERROR: <input>:1:1: Syntax error: extraneous input '*' expecting " + expect_expr + "\n | *1\n | ^"},
      {"1 + ", "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting " + expect_expr +
                   "\n | 1 + \n | ....^"},
      {"?!", "ERROR: <input>:1:1: Syntax error: extraneous input '?' expecting " + expect_expr + "\n | ?!\n | ^"},
      // One extra token before the end is deleted ("extraneous"); more are
      // "mismatched" (cel-go parser_test.go: "1 + 2\n3 +").
      {"1 2", "ERROR: <input>:1:3: Syntax error: extraneous input '2' expecting <EOF>\n | 1 2\n | ..^"},
      {"1 + 2\n3 +", "ERROR: <input>:2:1: Syntax error: mismatched input '3' expecting <EOF>\n | 3 +\n | ^"},
      {"TestAllTypes(){}",
       "ERROR: <input>:1:15: Syntax error: mismatched input '{' expecting <EOF>\n | TestAllTypes(){}\n | "
       "..............^"},
      // Lexer errors, then the parser's on what was recognised (cel-go
      // parser_test.go: "1 + $").
      {"1 + $", "ERROR: <input>:1:5: Syntax error: token recognition error at: '$'\n | 1 + $\n | ....^\n"
                "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting " + expect_expr +
                "\n | 1 + $\n | .....^"},
      {"device.driver = 'x'",
       "ERROR: <input>:1:15: Syntax error: token recognition error at: '= '\n | device.driver = 'x'\n | "
       "..............^\nERROR: <input>:1:17: Syntax error: extraneous input ''x'' expecting <EOF>\n | "
       "device.driver = 'x'\n | ................^"},
      {"(1", "ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting ')'\n | (1\n | ..^"},
      {"a.'b'", "ERROR: <input>:1:3: Syntax error: no viable alternative at input '.'b''\n | a.'b'\n | ..^"},
      {"{1 2}", "ERROR: <input>:1:4: Syntax error: mismatched input '2' expecting ':'\n | {1 2}\n | ...^"},
      {"9223372036854775808", "ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808\n | ^"},
      {"18446744073709551616u", "ERROR: <input>:1:1: invalid uint literal\n | 18446744073709551616u\n | ^"},
      {"1e999", "ERROR: <input>:1:1: invalid double literal\n | 1e999\n | ^"},
      {"as", "ERROR: <input>:1:1: reserved identifier: as\n | as\n | ^"},
      {"has(a)", "ERROR: <input>:1:5: invalid argument to has() macro\n | has(a)\n | ....^"},
      {"l.all(1, true)", "ERROR: <input>:1:7: argument must be a simple name\n | l.all(1, true)\n | ......^"},
      {"cel.bind(1, 2, 3)",
       "ERROR: <input>:1:10: cel.bind() variable names must be simple identifiers\n | cel.bind(1, 2, 3)\n | .........^"},
      {"'\xc3\xa9' + #", "ERROR: <input>:1:7: Syntax error: token recognition error at: '#'\n | '\xc3\xa9' + #\n | "
                         ".\xef\xbc\x8e....^\nERROR: <input>:1:8: Syntax error: mismatched input '<EOF>' expecting " +
                         expect_expr + "\n | '\xc3\xa9' + #\n | .\xef\xbc\x8e.....^"},
      {"\t1 +", "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting " + expect_expr +
                    "\n |  1 +\n | ....^"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    ParseResult r = Parse(c.src);
    ASSERT_FALSE(r.issues.empty());
    EXPECT_EQ(r.expr, nullptr);
    EXPECT_EQ(FormatIssues(c.src, r.issues), c.error);
  }
}

TEST(CelParserTest, NestingLimits) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  struct Case {
    std::string name;
    std::string src;
    std::string error;  // "" when it parses
  };
  const std::vector<Case> cases = {
      // The top-level expression is the first level (cel-go parser_test.go:
      // 32 nested lists exceed a limit of 32).
      {"parens-249", repeat("(", 249) + "1" + repeat(")", 249), ""},
      {"parens-250", repeat("(", 250) + "1" + repeat(")", 250),
       "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"},
      {"lists-250", repeat("[", 250) + "1" + repeat("]", 250),
       "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"},
      // Operator, selection and index chains count towards the visitor's
      // depth (33 additions exceed a limit of 32 there).
      {"plus-chain-250", "1" + repeat(" + 1", 250), ""},
      {"plus-chain-251", "1" + repeat(" + 1", 251), "ERROR: <input>:-1:0: max recursion depth exceeded"},
      {"select-chain-250", "a" + repeat(".b", 250), ""},
      {"select-chain-251", "a" + repeat(".b", 251), "ERROR: <input>:-1:0: max recursion depth exceeded"},
      {"index-chain-251", "a" + repeat("[0]", 251), "ERROR: <input>:-1:0: max recursion depth exceeded"},
      // ((1 + 1 ... ) + 1 ...) + 1 ...: 300 additions on one path.
      {"nested-chains", repeat("(", 3) + "1" + repeat(")" + repeat(" + 1", 100), 3),
       "ERROR: <input>:-1:0: max recursion depth exceeded"},
      // && and || chains are one level whatever their length.
      {"and-chain-5000", "a" + repeat(" && a", 5000), ""},
      {"unary-10000", repeat("!", 10000) + "a", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ParseResult r = Parse(c.src);
    EXPECT_EQ(FormatIssues(c.src, r.issues), c.error);
    EXPECT_EQ(r.expr == nullptr, !c.error.empty());
  }
}

}  // namespace
}  // namespace gpusched::cel

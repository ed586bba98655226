// Tests for the CEL checker (model/cel/checker.cc) through
// DeviceSelector::Compile: cel-go's checker messages and locations
// (checker/errors.go), the declared type of `device` (compile.go), the
// literal validators Kubernetes enables, and which outputs compile.go
// accepts ("must evaluate to bool or the unknown type").
#include "gpusched/model/cel/checker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel_test_util.h"
#include "gpusched/model/cel/parser.h"

namespace gpusched::cel {
namespace {

using testing::Outcome;

TEST(CelCheckerTest, CompileErrors) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"x", "compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^"},
      {"device.attributes['a'].b && foo(1)",
       "compile: compilation failed: ERROR: <input>:1:32: undeclared reference to 'foo' (in container '')\n"
       " | device.attributes['a'].b && foo(1)\n | ...............................^"},
      {"device.driver == 1",
       "compile: compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to "
       "'(string, int)'\n | device.driver == 1\n | ..............^"},
      {"device.driver.size(1) == 1",
       "compile: compilation failed: ERROR: <input>:1:19: found no matching overload for 'size' applied to "
       "'string.(int)'\n | device.driver.size(1) == 1\n | ..................^"},
      {"device.nope", "compile: compilation failed: ERROR: <input>:1:7: undefined field 'nope'\n | device.nope\n | ......^"},
      {"device.allowMultipleAllocations",
       "compile: compilation failed: ERROR: <input>:1:7: undefined field 'allowMultipleAllocations'\n"
       " | device.allowMultipleAllocations\n | ......^"},
      {"device.driver.x == 'a'",
       "compile: compilation failed: ERROR: <input>:1:14: type 'string' does not support field selection\n"
       " | device.driver.x == 'a'\n | .............^"},
      {"1.exists(x, x)",
       "compile: compilation failed: ERROR: <input>:1:1: expression of type 'int' cannot be range of a comprehension "
       "(must be list, map, or dynamic)\n | 1.exists(x, x)\n | ^"},
      {"[1, 2].all(x, x)",
       "compile: compilation failed: ERROR: <input>:1:11: found no matching overload for '_&&_' applied to "
       "'(bool, int)'\n | [1, 2].all(x, x)\n | ..........^"},
      // cel.HomogeneousAggregateLiterals (k8s environment/base.go).
      {"[1, 'a'].size() == 2",
       "compile: compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n"
       " | [1, 'a'].size() == 2\n | ....^"},
      {"{'a': 1, 'b': true}.size() == 2",
       "compile: compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'bool'\n"
       " | {'a': 1, 'b': true}.size() == 2\n | ..............^"},
      // cel.ValidateRegexLiterals.
      {"device.driver.matches('(')",
       "compile: compilation failed: ERROR: <input>:1:23: invalid matches argument\n"
       " | device.driver.matches('(')\n | ......................^"},
      // Two errors, sorted by position.
      {"a + b",
       "compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a + b\n | ^\n"
       "ERROR: <input>:1:5: undeclared reference to 'b' (in container '')\n | a + b\n | ....^"},
      // compile.go's output type check.
      {"1", "compile: must evaluate to bool or the unknown type, not int"},
      {"device.driver", "compile: must evaluate to bool or the unknown type, not string"},
      {"[true]", "compile: must evaluate to bool or the unknown type, not list(bool)"},
      {"{'a': 1}", "compile: must evaluate to bool or the unknown type, not map(string, int)"},
      {"null", "compile: must evaluate to bool or the unknown type, not null_type"},
      {"dyn(true)", "compile: must evaluate to bool or the unknown type, not dyn"},
      {"device.capacity['gpu.nvidia.com'].memory",
       "compile: must evaluate to bool or the unknown type, not kubernetes.Quantity"},
      {"type(1)", "compile: must evaluate to bool or the unknown type, not type(int)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

TEST(CelCheckerTest, AcceptedOutputs) {
  // An attribute is declared as the unknown type (apiservercel.AnyType), so a
  // bare attribute compiles; what it holds decides at runtime.
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com'].type"),
            "error: CEL result of type string could not be converted to bool");
  EXPECT_EQ(Outcome("device.attributes['gpu.nvidia.com']['index']"),
            "error: CEL result of type int could not be converted to bool");
  CompileOptions consumable;
  consumable.consumable_capacity = true;
  EXPECT_EQ(Outcome("device.allowMultipleAllocations", testing::A100(), "gpu.nvidia.com", consumable), "false");
}

TEST(CelCheckerTest, OutputTypes) {
  struct Case {
    std::string expr;
    std::string type;  // Type::Format()
  };
  const std::vector<Case> cases = {
      {"device.attributes", "map(string, map(string, any))"},
      {"device.capacity['x']", "map(string, kubernetes.Quantity)"},
      {"device.attributes['x'].y", "any"},
      {"device.attributes['x'].y.z", "dyn"},
      {"[]", "list(dyn)"},
      {"[1, 2].map(x, x * 2)", "list(int)"},
      {"[1, 2].map(x, string(x))", "list(string)"},
      {"{'a': [1]}['a']", "list(int)"},
      {"cel.bind(v, 'a', v + 'b')", "string"},
      {"[[]]", "list(list(dyn))"},
      {"1 == 1 ? [1] : []", "list(int)"},
      {"quantity('1').add(1)", "kubernetes.Quantity"},
      {"semver('1.0.0').major()", "int"},
      {"'a,b'.split(',')", "list(string)"},
      {"[1, 2].max()", "int"},
      {"sets.contains([1], [1])", "bool"},
      {"device.attributes['x'].?y", "optional_type(any)"},
      {"device.attributes.?x.y", "optional_type(any)"},
      {"{'a': 1}[?'a']", "optional_type(int)"},
      {"optional.of('a').orValue('b')", "string"},
  };
  CheckEnv env;
  env.variables["device"] = Type::Struct("kubernetes.DRADevice");
  env.structs["kubernetes.DRADevice"] = {
      {"driver", Type::String()},
      {"attributes", Type::Map(Type::String(), Type::Map(Type::String(), Type::Any()))},
      {"capacity", Type::Map(Type::String(), Type::Map(Type::String(), Type::Quantity()))}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    ParseResult p = Parse(c.expr);
    ASSERT_TRUE(p.issues.empty());
    CheckResult r = Check(*p.expr, env);
    ASSERT_TRUE(r.issues.empty()) << FormatIssues(c.expr, r.issues);
    EXPECT_EQ(r.output.Format(), c.type);
  }
}

}  // namespace
}  // namespace gpusched::cel

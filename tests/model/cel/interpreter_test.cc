// Tests for the CEL interpreter (model/cel/interpreter.cc) through
// DeviceSelector: errors as values and the commutative && / || of cel-go's
// evalAnd / evalOr, DRA's attribute maps (an unknown domain is an empty map,
// an unknown id "no such key: <id>"), has(), comprehensions, runtime error
// texts and the runtime cost limit.
#include "gpusched/model/cel/interpreter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel_test_util.h"
#include "gpusched/model/cel/parser.h"

namespace gpusched::cel {
namespace {

using testing::Outcome;

TEST(CelInterpreterTest, Semantics) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      // && and || absorb an error when the other side decides (cel-spec
      // "logical operators are commutative"); otherwise the error wins.
      {"false && 1 / 0 == 1", "false"},
      {"1 / 0 == 1 && false", "false"},
      {"true || 1 / 0 == 1", "true"},
      {"1 / 0 == 1 || true", "true"},
      {"1 / 0 == 1 && true", "error: division by zero"},
      {"true && 1 / 0 == 1", "error: division by zero"},
      {"1 / 0 == 1 || 2 % 0 == 1", "error: division by zero"},
      {"true ? true : 1 / 0 == 1", "true"},
      {"1 / 0 == 1 ? true : false", "error: division by zero"},
      // DRA attribute maps (compile.go newStringInterfaceMapWithDefault).
      {"device.attributes['no.such.domain'].size() == 0", "true"},
      {"device.attributes['gpu.nvidia.com'].type == 'gpu'", "true"},
      {"device.attributes['gpu.nvidia.com'].noSuchId == 'x'", "error: no such key: noSuchId"},
      {"device.attributes['gpu.nvidia.com']['noSuchId'] == 'x'", "error: no such key: noSuchId"},
      {"device.attributes['resource.kubernetes.io'].pcieRoot == 'pci0000:00'", "true"},
      {"'gpu.nvidia.com' in device.attributes", "true"},
      {"'no.such.domain' in device.attributes", "false"},
      {"'type' in device.attributes['gpu.nvidia.com']", "true"},
      {"has(device.attributes['gpu.nvidia.com'].type)", "true"},
      {"has(device.attributes['gpu.nvidia.com'].nope)", "false"},
      {"has(device.attributes.anything)", "true"},
      {"has(device.driver)", "true"},
      {"device.attributes['gpu.nvidia.com'].index == 0u", "true"},
      {"device.attributes['gpu.nvidia.com'].index == 0.0", "true"},
      {"device.attributes['gpu.nvidia.com'].type > 1", "error: no such overload"},
      {"device.attributes['gpu.nvidia.com'].type.exists(x, true)", "error: got 'types.String', expected iterable type"},
      {"device.attributes['gpu.nvidia.com'].index.exists(x, true)", "error: got 'types.Int', expected iterable type"},
      {"device.attributes['gpu.nvidia.com'].driverVersion.exists(x, true)",
       "error: got 'cel.Semver', expected iterable type"},
      // Comprehensions.
      {"device.attributes['gpu.nvidia.com'].exists(k, k == 'uuid')", "true"},
      {"device.attributes.all(d, device.attributes[d].size() > 0)", "true"},
      {"[1, 2, 3].map(x, x * x) == [1, 4, 9]", "true"},
      {"[1, 2, 3].map(x, x > 1, x) == [2, 3]", "true"},
      {"[1, 2, 3].filter(x, x % 2 == 1) == [1, 3]", "true"},
      {"[1, 2, 3].exists_one(x, x > 2)", "true"},
      {"[0, 1].all(x, 1 / x > 0)", "error: division by zero"},
      {"[0, 1].exists(x, 1 / x > 0)", "true"},
      {"[1, 0].exists(x, 1 / x > 5)", "error: division by zero"},
      {"{'a': 1, 'b': 2}.map(k, k) == ['a', 'b']", "true"},
      {"cel.bind(d, device.attributes['gpu.nvidia.com'], d.type == 'gpu' && d.brand == 'Nvidia')", "true"},
      {"cel.bind(x, 1, cel.bind(y, x + 1, y == 2))", "true"},
      {"[[1, 2], [3]].map(l, l.map(x, x + 1)) == [[2, 3], [4]]", "true"},
      // Two-variable comprehensions (ext.TwoVarComprehensions).
      {"device.attributes['gpu.nvidia.com'].exists(k, v, k == 'type' && v == 'gpu')", "true"},
      {"device.attributes.all(d, ids, ids.size() > 0)", "true"},
      {"['a', 'b'].all(i, v, i < 2 && v != '')", "true"},
      {"['a', 'b', 'a'].existsOne(i, v, v == 'b')", "true"},
      {"[10, 20].transformList(i, v, i * v) == [0, 20]", "true"},
      {"[10, 20].transformList(i, v, i > 0, v) == [20]", "true"},
      {"{'a': 1, 'b': 2}.transformMap(k, v, v * 10) == {'a': 10, 'b': 20}", "true"},
      {"{'a': 1, 'b': 2}.transformMap(k, v, k == 'b', v) == {'b': 2}", "true"},
      {"{'a': 1}.transformMapEntry(k, v, {v: k}) == {1: 'a'}", "true"},
      {"{'a': 1, 'b': 1}.transformMapEntry(k, v, {v: k}).size() == 1", "error: insert failed: key 1 already exists"},
      {"[1].all(x, x, true)",
       "compile: compilation failed: ERROR: <input>:1:12: duplicate variable name: x\n | [1].all(x, x, true)\n | "
       "...........^"},
      // cel.OptionalTypes.
      {"device.attributes['gpu.nvidia.com'].?index.orValue(-1) == 0", "true"},
      {"device.attributes['gpu.nvidia.com'].?profile.orValue('none') == 'none'", "true"},
      {"!device.attributes['gpu.nvidia.com'].?profile.hasValue()", "true"},
      {"device.attributes['no.such.domain'].?x.hasValue() == false", "true"},
      {"device.attributes.?nodomain.hasValue()", "true"},  // the default empty map
      {"device.attributes.?nodomain.x.hasValue() == false", "true"},
      {"[1, 2][?5].orValue(0) == 0 && {'a': 1}[?'a'].value() == 1", "true"},
      {"optional.none().or(optional.of(2)).value() == 2", "true"},
      {"optional.of(1).orValue(1 / 0) == 1", "true"},  // orValue short-circuits
      {"optional.none().value() == 1", "error: optional.none() dereference"},
      {"optional.ofNonZeroValue('').hasValue() == false && optional.ofNonZeroValue(1).hasValue()", "true"},
      {"optional.of(2).optMap(x, x * 2).value() == 4 && !optional.none().optFlatMap(x, optional.of(x)).hasValue()",
       "true"},
      // Runtime errors with cel-go's texts.
      {"[1][3] == 1", "error: index '3' out of range in list size '1'"},
      {"{'a': 1}['b'] == 1", "error: no such key: b"},
      {"{1: 'a'}[2] == 'a'", "error: no such key: 2"},
      {"9223372036854775807 + 1 > 0", "error: integer overflow"},
      {"-9223372036854775808 - 1 < 0", "error: integer overflow"},
      {"18446744073709551615u + 1u > 0u", "error: unsigned integer overflow"},
      {"0u - 1u > 0u", "error: unsigned integer overflow"},
      {"1 % 0 == 0", "error: modulus by zero"},
      {"int('x') == 1", "error: strconv.ParseInt: parsing \"x\": invalid syntax"},
      {"int(1e19) == 1", "error: integer overflow"},
      {"uint(-1) == 1u", "error: unsigned integer overflow"},
      {"dyn(1) + dyn('a') == 2", "error: no such overload"},
      {"{'a': 1, 'a': 2}.size() == 1", "error: insert failed: key a already exists"},
      {"string(b'\\xff') == ''", "error: invalid UTF-8 in bytes, cannot convert to string"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

TEST(CelInterpreterTest, CostLimit) {
  ParseResult p = Parse("[1, 2, 3].map(x, x * 2).size() == 3");
  ASSERT_TRUE(p.issues.empty());
  EvalResult ok = Evaluate(*p.expr, Value(), 1000);
  ASSERT_FALSE(ok.value.is_error()) << ok.value.error();
  EXPECT_TRUE(ok.value.bool_value());
  // Two list literals (10 each), three steps of 13 (x, x * 2, the append
  // and its one-element list), reading @result, size() and ==.
  EXPECT_EQ(ok.actual_cost, 62u);
  EvalResult stopped = Evaluate(*p.expr, Value(), 20);
  ASSERT_TRUE(stopped.value.is_error());
  EXPECT_EQ(stopped.value.error(), "operation cancelled: actual cost limit exceeded");
  // An error the limit produced is not absorbed by || (cel-go cancels the
  // whole evaluation).
  ParseResult q = Parse("[1, 2, 3].all(x, x > 0) || true");
  EvalResult cancelled = Evaluate(*q.expr, Value(), 5);
  ASSERT_TRUE(cancelled.value.is_error());
  EXPECT_EQ(cancelled.value.error(), "operation cancelled: actual cost limit exceeded");
}

}  // namespace
}  // namespace gpusched::cel

// The parsed CEL expression (cel-go common/ast): constants, identifiers,
// field selections (has() is a test-only selection), calls (operators are
// calls of "_+_", "_&&_", "@in", "_[_]", ...), list and map literals, and
// comprehensions, which the macros (all, exists, exists_one, map, filter,
// cel.bind, and ext.TwoVarComprehensions' two-variable forms) expand into
// exactly as cel-go's parser/macro.go and ext/comprehensions.go do.
#ifndef GPUSCHED_MODEL_CEL_AST_H_
#define GPUSCHED_MODEL_CEL_AST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/model/cel/value.h"

namespace gpusched::cel {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind { kConst, kIdent, kSelect, kCall, kList, kMap, kComprehension };
  Kind kind = Kind::kConst;
  int64_t id = 0;
  // Byte offset of the token the expression is reported at (cel-go's
  // location: the operator, '(' of a call, '.' of a selection, ...).
  int32_t offset = 0;

  Value constant;     // kConst
  std::string name;   // kIdent name, kSelect field, kCall function
  bool test_only = false;  // kSelect from has()
  ExprPtr target;     // kSelect operand, member kCall receiver (else null)
  std::vector<ExprPtr> args;  // kCall arguments, kList elements, kMap keys/values interleaved

  // kComprehension (cel-go ast.ComprehensionExpr).
  std::string iter_var;
  std::string iter_var2;  // two-variable comprehensions: the value (lists: iter_var is the index)
  std::string accu_var;
  ExprPtr iter_range, accu_init, loop_cond, loop_step, result;
};

// cel-go's parser.AccumulatorName.
inline constexpr char kAccumulatorName[] = "@result";

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_AST_H_

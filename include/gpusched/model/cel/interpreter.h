// The CEL evaluator: walks a checked AST with errors as values, as cel-go's
// interpreter (interpreter/interpretable.go) evaluates it: && and || are
// commutative over errors (false && error is false, error || true is
// true), the first error among a strict call's arguments wins, and each
// evaluation is charged against a cost limit (interpreter/runtimecost.go),
// past which it stops with "operation cancelled: actual cost limit
// exceeded".
#ifndef GPUSCHED_MODEL_CEL_INTERPRETER_H_
#define GPUSCHED_MODEL_CEL_INTERPRETER_H_

#include <cstdint>
#include <string>

#include "gpusched/model/cel/ast.h"
#include "gpusched/model/cel/value.h"

namespace gpusched::cel {

struct EvalResult {
  Value value;  // an error value when evaluation failed
  uint64_t actual_cost = 0;
};

// Evaluates `root` with the one variable `device` bound to `device`.
EvalResult Evaluate(const Expr& root, const Value& device, uint64_t cost_limit);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_INTERPRETER_H_

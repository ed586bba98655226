// A compiled selector: the checked AST and what Compile learned about it.
// Immutable once built, so one Program is evaluated from many threads.
#ifndef GPUSCHED_MODEL_CEL_PROGRAM_H_
#define GPUSCHED_MODEL_CEL_PROGRAM_H_

#include <cstdint>
#include <string>

#include "gpusched/model/cel/ast.h"

namespace gpusched::cel {

class Program {
 public:
  std::string expression;
  ExprPtr ast;
  uint64_t max_cost = 0;
  bool consumable_capacity = false;
};

// The runtime cost limit of every evaluation: resourceapi
// CELSelectorExpressionMaxCost, which compile.go passes to cel.CostLimit.
inline constexpr uint64_t kRuntimeCostLimit = 1000000;

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_PROGRAM_H_

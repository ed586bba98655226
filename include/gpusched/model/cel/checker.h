// The CEL type checker (cel-go checker/checker.go), enough for device
// selectors: declared variables, field selection on the declared `device`
// object type, overload resolution with type parameters, comprehension
// scopes, and the literal validators Kubernetes enables
// (cel.HomogeneousAggregateLiterals, cel.ValidateRegexLiterals). Errors use
// cel-go's texts: "undeclared reference to 'x' (in container '')", "found
// no matching overload for '_==_' applied to '(string, int)'", "undefined
// field 'x'", "type 'int' does not support field selection", ...
#ifndef GPUSCHED_MODEL_CEL_CHECKER_H_
#define GPUSCHED_MODEL_CEL_CHECKER_H_

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/model/cel/ast.h"
#include "gpusched/model/cel/functions.h"
#include "gpusched/model/cel/issues.h"
#include "gpusched/model/cel/types.h"

namespace gpusched::cel {

// The declarations an expression is checked against.
struct CheckEnv {
  std::map<std::string, Type> variables;
  // Object types: type name -> field name -> field type.
  std::map<std::string, std::map<std::string, Type>> structs;
};

struct CheckResult {
  std::vector<Issue> issues;
  Type output;
  std::unordered_map<int64_t, Type> types;  // by Expr::id
  std::unordered_map<int64_t, std::vector<const Overload*>> overloads;  // by call id
};

// Checks `root`. Calls of namespaced functions written as member calls
// (sets.contains(a, b)) are rewritten in place into global calls.
CheckResult Check(Expr& root, const CheckEnv& env);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_CHECKER_H_

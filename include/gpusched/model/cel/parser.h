// The CEL parser: the expression grammar of cel-spec doc/langdef.md (as
// cel-go parser/gen/CEL.g4 writes it) into the AST of ast.h, with the
// standard macros and cel.bind expanded (macros.h), && / || chains built as
// balanced trees (cel-go parser/helper.go balancer), and cel-go's limits:
// 250 levels of nesting ("expression recursion limit exceeded: 250") and
// AST depth ("max recursion depth exceeded").
#ifndef GPUSCHED_MODEL_CEL_PARSER_H_
#define GPUSCHED_MODEL_CEL_PARSER_H_

#include <string_view>
#include <vector>

#include "gpusched/model/cel/ast.h"
#include "gpusched/model/cel/issues.h"

namespace gpusched::cel {

struct ParseResult {
  ExprPtr expr;  // null when there are issues
  std::vector<Issue> issues;
};

ParseResult Parse(std::string_view source);

// cel-go's default parser limits.
inline constexpr int kMaxRecursionDepth = 250;

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_PARSER_H_

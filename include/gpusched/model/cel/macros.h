// Macro expansion (cel-go parser/macro.go: has, all, exists, exists_one,
// map, filter; ext/bindings.go: cel.bind) into comprehensions.
#ifndef GPUSCHED_MODEL_CEL_MACROS_H_
#define GPUSCHED_MODEL_CEL_MACROS_H_

#include <string>
#include <vector>

#include "gpusched/model/cel/ast.h"
#include "gpusched/model/cel/issues.h"

namespace gpusched::cel {

// Allocates expression ids.
class IdGen {
 public:
  int64_t Next() { return ++last_; }

 private:
  int64_t last_ = 0;
};

ExprPtr NewExpr(IdGen& ids, Expr::Kind kind, int32_t offset);
ExprPtr NewCall(IdGen& ids, int32_t offset, std::string fn, std::vector<ExprPtr> args);
ExprPtr NewIdent(IdGen& ids, int32_t offset, std::string name);
ExprPtr NewConst(IdGen& ids, int32_t offset, Value v);

// If `fn` with `target` (null for a global call) and `args` is a macro,
// returns its expansion (or null with an issue added, when the macro's
// arguments are malformed) and sets *matched. Otherwise leaves target and
// args untouched and sets *matched = false.
ExprPtr ExpandMacro(IdGen& ids, int32_t offset, const std::string& fn, ExprPtr& target, std::vector<ExprPtr>& args,
                    bool* matched, std::vector<Issue>* issues);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_MACROS_H_

// Macro expansion exactly as cel-go parser/macro.go (MakeHas, makeQuantifier,
// MakeMap, MakeFilter) and ext/bindings.go (celBind) build their
// comprehensions, so that the checker and the cost estimator see the same
// shapes as upstream (the cost of exists() is that of its loop condition
// `@not_strictly_false(!@result)` and step `@result || p`).
#include "gpusched/model/cel/macros.h"

#include <utility>

namespace gpusched::cel {

ExprPtr NewExpr(IdGen& ids, Expr::Kind kind, int32_t offset) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->id = ids.Next();
  e->offset = offset;
  return e;
}

ExprPtr NewCall(IdGen& ids, int32_t offset, std::string fn, std::vector<ExprPtr> args) {
  ExprPtr e = NewExpr(ids, Expr::Kind::kCall, offset);
  e->name = std::move(fn);
  e->args = std::move(args);
  return e;
}

ExprPtr NewIdent(IdGen& ids, int32_t offset, std::string name) {
  ExprPtr e = NewExpr(ids, Expr::Kind::kIdent, offset);
  e->name = std::move(name);
  return e;
}

ExprPtr NewConst(IdGen& ids, int32_t offset, Value v) {
  ExprPtr e = NewExpr(ids, Expr::Kind::kConst, offset);
  e->constant = std::move(v);
  return e;
}

namespace {

template <typename... E>
std::vector<ExprPtr> Args(E&&... e) {
  std::vector<ExprPtr> v;
  (v.push_back(std::forward<E>(e)), ...);
  return v;
}

ExprPtr Comprehension(IdGen& ids, int32_t offset, ExprPtr range, std::string iter_var, std::string accu_var,
                      ExprPtr init, ExprPtr cond, ExprPtr step, ExprPtr result) {
  ExprPtr e = NewExpr(ids, Expr::Kind::kComprehension, offset);
  e->iter_range = std::move(range);
  e->iter_var = std::move(iter_var);
  e->accu_var = std::move(accu_var);
  e->accu_init = std::move(init);
  e->loop_cond = std::move(cond);
  e->loop_step = std::move(step);
  e->result = std::move(result);
  return e;
}

ExprPtr NewList(IdGen& ids, int32_t offset, std::vector<ExprPtr> items) {
  ExprPtr e = NewExpr(ids, Expr::Kind::kList, offset);
  e->args = std::move(items);
  return e;
}

// A deep copy with fresh ids (cel-go MacroExprFactory.Copy). The tree is
// at most a few hundred levels deep (the parser's limits).
ExprPtr Clone(IdGen& ids, const Expr& e) {
  auto c = std::make_unique<Expr>();
  c->kind = e.kind;
  c->id = ids.Next();
  c->offset = e.offset;
  c->constant = e.constant;
  c->name = e.name;
  c->test_only = e.test_only;
  c->iter_var = e.iter_var;
  c->iter_var2 = e.iter_var2;
  c->accu_var = e.accu_var;
  auto copy = [&](const ExprPtr& x) { return x ? Clone(ids, *x) : nullptr; };
  c->target = copy(e.target);
  for (const ExprPtr& a : e.args) c->args.push_back(copy(a));
  c->iter_range = copy(e.iter_range);
  c->accu_init = copy(e.accu_init);
  c->loop_cond = copy(e.loop_cond);
  c->loop_step = copy(e.loop_step);
  c->result = copy(e.result);
  return c;
}

// opt.optMap(x, e) / opt.optFlatMap(x, e) (cel-go cel/library.go optMap,
// optFlatMap): opt.hasValue() ? [optional.of](cel.bind(x, opt.value(), e))
// : optional.none().
ExprPtr OptMap(IdGen& ids, int32_t offset, bool flat, ExprPtr& target, std::vector<ExprPtr>& args,
               std::vector<Issue>* issues) {
  if (args[0]->kind != Expr::Kind::kIdent) {
    issues->push_back({args[0]->offset, std::string(flat ? "optFlatMap" : "optMap") +
                                            "() variable name must be a simple identifier"});
    return nullptr;
  }
  // The receiver is copied; chained optMap calls would double the tree at
  // each step, so a large receiver is refused (our limit, not cel-go's).
  constexpr size_t kMaxCopiedNodes = 10000;
  size_t nodes = 0;
  std::vector<const Expr*> stack{target.get()};
  while (!stack.empty() && nodes <= kMaxCopiedNodes) {
    const Expr* x = stack.back();
    stack.pop_back();
    ++nodes;
    for (const ExprPtr* c : {&x->target, &x->iter_range, &x->accu_init, &x->loop_cond, &x->loop_step, &x->result})
      if (*c) stack.push_back(c->get());
    for (const ExprPtr& a : x->args) stack.push_back(a.get());
  }
  if (nodes > kMaxCopiedNodes) {
    issues->push_back({offset, "optMap() receiver too large to copy"});
    return nullptr;
  }
  std::string var = args[0]->name;
  ExprPtr has = NewCall(ids, offset, "hasValue", {});
  has->target = Clone(ids, *target);
  ExprPtr value = NewCall(ids, offset, "value", {});
  value->target = std::move(target);
  ExprPtr bind = Comprehension(ids, offset, NewList(ids, offset, {}), "#unused", var, std::move(value),
                               NewConst(ids, offset, Value::Bool(false)), NewIdent(ids, offset, var),
                               std::move(args[1]));
  if (!flat) bind = NewCall(ids, offset, "optional.of", Args(std::move(bind)));
  return NewCall(ids, offset, "_?_:_", Args(std::move(has), std::move(bind), NewCall(ids, offset, "optional.none", {})));
}

// The iteration variable of all/exists/map/filter; null with an issue.
bool IterVar(const std::vector<ExprPtr>& args, std::string* name, std::vector<Issue>* issues) {
  if (args[0]->kind != Expr::Kind::kIdent) {
    issues->push_back({args[0]->offset, "argument must be a simple name"});
    return false;
  }
  if (args[0]->name == kAccumulatorName) {
    issues->push_back({args[0]->offset, "iteration variable overwrites accumulator variable"});
    return false;
  }
  *name = args[0]->name;
  return true;
}

// cel-go ext/comprehensions.go extractIterVars.
bool IterVars(const std::vector<ExprPtr>& args, std::string* v1, std::string* v2, std::vector<Issue>* issues) {
  for (int i = 0; i < 2; ++i) {
    if (args[static_cast<size_t>(i)]->kind != Expr::Kind::kIdent) {
      issues->push_back({args[static_cast<size_t>(i)]->offset, "argument must be a simple name"});
      return false;
    }
  }
  *v1 = args[0]->name;
  *v2 = args[1]->name;
  if (*v1 == *v2) {
    issues->push_back({args[1]->offset, "duplicate variable name: " + *v1});
    return false;
  }
  for (int i = 0; i < 2; ++i) {
    if (args[static_cast<size_t>(i)]->name == kAccumulatorName) {
      issues->push_back({args[static_cast<size_t>(i)]->offset, "iteration variable overwrites accumulator variable"});
      return false;
    }
  }
  return true;
}

// ext.TwoVarComprehensions (k8s environment/base.go, since 1.32): all,
// exists, existsOne / exists_one with (key or index, value, predicate) and
// transformList, transformMap, transformMapEntry.
ExprPtr ExpandTwoVar(IdGen& ids, int32_t offset, const std::string& fn, ExprPtr& target, std::vector<ExprPtr>& args,
                     bool* matched, std::vector<Issue>* issues) {
  const size_t n = args.size();
  bool quantifier = (fn == "all" || fn == "exists" || fn == "existsOne" || fn == "exists_one") && n == 3;
  bool transform = (fn == "transformList" || fn == "transformMap" || fn == "transformMapEntry") && (n == 3 || n == 4);
  if (!quantifier && !transform) return nullptr;
  *matched = true;
  std::string v1, v2;
  if (!IterVars(args, &v1, &v2, issues)) return nullptr;
  auto accu = [&] { return NewIdent(ids, offset, kAccumulatorName); };
  ExprPtr init, cond, step, result;
  if (fn == "all") {
    init = NewConst(ids, offset, Value::Bool(true));
    cond = NewCall(ids, offset, "@not_strictly_false", Args(accu()));
    step = NewCall(ids, offset, "_&&_", Args(accu(), std::move(args[2])));
    result = accu();
  } else if (fn == "exists") {
    init = NewConst(ids, offset, Value::Bool(false));
    cond = NewCall(ids, offset, "@not_strictly_false", Args(NewCall(ids, offset, "!_", Args(accu()))));
    step = NewCall(ids, offset, "_||_", Args(accu(), std::move(args[2])));
    result = accu();
  } else if (quantifier) {
    init = NewConst(ids, offset, Value::Int(0));
    cond = NewConst(ids, offset, Value::Bool(true));
    step = NewCall(ids, offset, "_?_:_",
                   Args(std::move(args[2]), NewCall(ids, offset, "_+_", Args(accu(), NewConst(ids, offset, Value::Int(1)))),
                        accu()));
    result = NewCall(ids, offset, "_==_", Args(accu(), NewConst(ids, offset, Value::Int(1))));
  } else {
    ExprPtr filter = n == 4 ? std::move(args[2]) : nullptr;
    ExprPtr value = std::move(args[n - 1]);
    if (fn == "transformList") {
      init = NewList(ids, offset, {});
      step = NewCall(ids, offset, "_+_", Args(accu(), NewList(ids, offset, Args(std::move(value)))));
    } else {
      init = NewExpr(ids, Expr::Kind::kMap, offset);
      step = fn == "transformMap"
                 ? NewCall(ids, offset, "cel.@mapInsert", Args(accu(), NewIdent(ids, offset, v1), std::move(value)))
                 : NewCall(ids, offset, "cel.@mapInsert", Args(accu(), std::move(value)));
    }
    if (filter) step = NewCall(ids, offset, "_?_:_", Args(std::move(filter), std::move(step), accu()));
    cond = NewConst(ids, offset, Value::Bool(true));
    result = accu();
  }
  ExprPtr e = Comprehension(ids, offset, std::move(target), v1, kAccumulatorName, std::move(init), std::move(cond),
                            std::move(step), std::move(result));
  e->iter_var2 = v2;
  return e;
}

}  // namespace

ExprPtr ExpandMacro(IdGen& ids, int32_t offset, const std::string& fn, ExprPtr& target, std::vector<ExprPtr>& args,
                    bool* matched, std::vector<Issue>* issues) {
  *matched = false;
  const size_t n = args.size();
  auto accu = [&] { return NewIdent(ids, offset, kAccumulatorName); };
  if (target && n >= 3) {
    ExprPtr two = ExpandTwoVar(ids, offset, fn, target, args, matched, issues);
    if (*matched) return two;
  }
  if (!target) {
    if (fn != "has" || n != 1) return nullptr;
    *matched = true;
    if (args[0]->kind != Expr::Kind::kSelect) {
      issues->push_back({args[0]->offset, "invalid argument to has() macro"});
      return nullptr;
    }
    ExprPtr sel = std::move(args[0]);
    sel->test_only = true;
    return sel;
  }
  // cel.bind(var, init, result): ext/bindings.go, receiver `cel` only.
  if (fn == "bind" && n == 3 && target->kind == Expr::Kind::kIdent && target->name == "cel") {
    *matched = true;
    if (args[0]->kind != Expr::Kind::kIdent) {
      issues->push_back({args[0]->offset, "cel.bind() variable names must be simple identifiers"});
      return nullptr;
    }
    std::string var = args[0]->name;
    return Comprehension(ids, offset, NewList(ids, offset, {}), "#unused", var, std::move(args[1]),
                         NewConst(ids, offset, Value::Bool(false)), NewIdent(ids, offset, var), std::move(args[2]));
  }
  if ((fn == "optMap" || fn == "optFlatMap") && n == 2) {
    *matched = true;
    return OptMap(ids, offset, fn == "optFlatMap", target, args, issues);
  }
  bool quantifier = (fn == "all" || fn == "exists" || fn == "exists_one") && n == 2;
  bool map = fn == "map" && (n == 2 || n == 3);
  bool filter = fn == "filter" && n == 2;
  if (!quantifier && !map && !filter) return nullptr;
  *matched = true;
  std::string v;
  if (!IterVar(args, &v, issues)) return nullptr;
  ExprPtr range = std::move(target);
  if (fn == "all") {
    return Comprehension(ids, offset, std::move(range), v, kAccumulatorName, NewConst(ids, offset, Value::Bool(true)),
                         NewCall(ids, offset, "@not_strictly_false", Args(accu())),
                         NewCall(ids, offset, "_&&_", Args(accu(), std::move(args[1]))), accu());
  }
  if (fn == "exists") {
    return Comprehension(ids, offset, std::move(range), v, kAccumulatorName, NewConst(ids, offset, Value::Bool(false)),
                         NewCall(ids, offset, "@not_strictly_false", Args(NewCall(ids, offset, "!_", Args(accu())))),
                         NewCall(ids, offset, "_||_", Args(accu(), std::move(args[1]))), accu());
  }
  if (fn == "exists_one") {
    ExprPtr step = NewCall(ids, offset, "_?_:_",
                           Args(std::move(args[1]),
                                NewCall(ids, offset, "_+_", Args(accu(), NewConst(ids, offset, Value::Int(1)))), accu()));
    return Comprehension(ids, offset, std::move(range), v, kAccumulatorName, NewConst(ids, offset, Value::Int(0)),
                         NewConst(ids, offset, Value::Bool(true)), std::move(step),
                         NewCall(ids, offset, "_==_", Args(accu(), NewConst(ids, offset, Value::Int(1)))));
  }
  ExprPtr filter_expr;
  ExprPtr element;
  if (filter) {
    filter_expr = std::move(args[1]);
    element = NewIdent(ids, args[0]->offset, v);
  } else if (n == 3) {
    filter_expr = std::move(args[1]);
    element = std::move(args[2]);
  } else {
    element = std::move(args[1]);
  }
  ExprPtr step = NewCall(ids, offset, "_+_", Args(accu(), NewList(ids, offset, Args(std::move(element)))));
  if (filter_expr) step = NewCall(ids, offset, "_?_:_", Args(std::move(filter_expr), std::move(step), accu()));
  return Comprehension(ids, offset, std::move(range), v, kAccumulatorName, NewList(ids, offset, {}),
                       NewConst(ids, offset, Value::Bool(true)), std::move(step), accu());
}

}  // namespace gpusched::cel

// The CEL type checker, after cel-go checker/checker.go: checkIdent,
// checkSelect, checkCall/resolveOverload (with one substitution mapping for
// the whole expression, fresh type parameters per overload), checkCreateList
// / checkCreateMap and checkComprehension, then cel-go's AST validators that
// Kubernetes enables (validator.go: homogeneous aggregate literals, regex
// literals of matches/find/findAll).
#include "gpusched/model/cel/checker.h"

#include <re2/re2.h>

#include <utility>

namespace gpusched::cel {
namespace {

using K = Type::Kind;

Type ConstType(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return Type::Null();
    case Value::Kind::kBool: return Type::Bool();
    case Value::Kind::kInt: return Type::Int();
    case Value::Kind::kUint: return Type::Uint();
    case Value::Kind::kDouble: return Type::Double();
    case Value::Kind::kString: return Type::String();
    case Value::Kind::kBytes: return Type::Bytes();
    default: return Type::Dyn();
  }
}

const std::map<std::string, Type>& TypeIdents() {
  static const auto* m = new std::map<std::string, Type>{
      {"bool", Type::TypeOf(Type::Bool())},     {"int", Type::TypeOf(Type::Int())},
      {"uint", Type::TypeOf(Type::Uint())},     {"double", Type::TypeOf(Type::Double())},
      {"string", Type::TypeOf(Type::String())}, {"bytes", Type::TypeOf(Type::Bytes())},
      {"list", Type::TypeOf(Type::List(Type::Dyn()))},
      {"map", Type::TypeOf(Type::Map(Type::Dyn(), Type::Dyn()))},
      {"null_type", Type::TypeOf(Type::Null())}, {"type", Type::TypeOf(Type::TypeOf(Type::Dyn()))},
      {"optional_type", Type::TypeOf(Type::Optional(Type::Dyn()))}};
  return *m;
}

class Checker {
 public:
  Checker(const CheckEnv& env, CheckResult* out) : env_(env), out_(out) {}

  Type Run(Expr& root) {
    Visit(root);
    // Final types with every free type parameter as dyn.
    for (auto& [id, t] : out_->types) t = m_.Substitute(t, true);
    return out_->types[root.id];
  }

 private:
  void Error(const Expr& e, std::string msg) { out_->issues.push_back({e.offset, std::move(msg)}); }
  Type Set(const Expr& e, Type t) {
    out_->types[e.id] = t;
    return t;
  }
  Type Fresh() { return Type::Param("_var" + std::to_string(next_var_++)); }

  const Type* LookupVar(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (it->first == name) return &it->second;
    auto v = env_.variables.find(name);
    if (v != env_.variables.end()) return &v->second;
    auto t = TypeIdents().find(name);
    if (t != TypeIdents().end()) return &t->second;
    return nullptr;
  }

  Type Visit(Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kConst: return Set(e, ConstType(e.constant));
      case Expr::Kind::kIdent: {
        if (const Type* t = LookupVar(e.name)) return Set(e, *t);
        Error(e, "undeclared reference to '" + e.name + "' (in container '')");
        return Set(e, Type::Error());
      }
      case Expr::Kind::kSelect: return VisitSelect(e);
      case Expr::Kind::kCall: return VisitCall(e);
      case Expr::Kind::kList: return VisitList(e);
      case Expr::Kind::kMap: return VisitMap(e);
      case Expr::Kind::kComprehension: return VisitComprehension(e);
    }
    return Set(e, Type::Error());
  }

  // The type of field `name` of a value of type `t` (cel-go checkSelect).
  Type FieldType(const Expr& e, const Type& t, const std::string& name) {
    switch (t.kind) {
      case K::kStruct: {
        auto s = env_.structs.find(t.name);
        if (s != env_.structs.end()) {
          auto f = s->second.find(name);
          if (f != s->second.end()) return f->second;
        }
        Error(e, "undefined field '" + name + "'");
        return Type::Error();
      }
      case K::kMap: return t.params[1];
      case K::kDyn: case K::kAny: case K::kTypeParam: return Type::Dyn();
      case K::kError: return Type::Error();
      default:
        Error(e, "type '" + t.Format() + "' does not support field selection");
        return Type::Error();
    }
  }

  // a.?f (cel-go checkOptSelect): optional_type of the field's type; the
  // operand may itself be optional.
  Type VisitOptSelect(Expr& e) {
    Type t = m_.Substitute(Visit(*e.args[0]), false);
    Visit(*e.args[1]);
    if (t.IsOptional()) t = t.params[0];
    Type field = FieldType(e, t, e.args[1]->constant.string_value());
    if (const std::vector<Overload>* o = FunctionRegistry::Get().Find("_?._")) out_->overloads[e.id] = {&(*o)[0]};
    return Set(e, field.kind == K::kError ? field : Type::Optional(field));
  }

  Type VisitSelect(Expr& e) {
    Type t = m_.Substitute(Visit(*e.target), false);
    // Selecting on an optional selects on its value and stays optional.
    if (t.IsOptional()) {
      Type field = FieldType(e, t.params[0], e.name);
      if (e.test_only) return Set(e, Type::Bool());
      return Set(e, field.kind == K::kError ? field : Type::Optional(field));
    }
    Type result = Type::Error();
    switch (t.kind) {
      case K::kStruct: {
        auto s = env_.structs.find(t.name);
        const Type* field = nullptr;
        if (s != env_.structs.end()) {
          auto f = s->second.find(e.name);
          if (f != s->second.end()) field = &f->second;
        }
        if (!field) {
          Error(e, "undefined field '" + e.name + "'");
        } else {
          result = *field;
        }
        break;
      }
      case K::kMap: result = t.params[1]; break;
      case K::kDyn: case K::kAny: case K::kTypeParam: result = Type::Dyn(); break;
      case K::kError: break;
      default: Error(e, "type '" + t.Format() + "' does not support field selection"); break;
    }
    if (e.test_only) return Set(e, Type::Bool());
    return Set(e, result);
  }

  // `a.b.c` as the qualified name "a.b.c", when it is one.
  static bool QualifiedName(const Expr& e, std::string* out) {
    if (e.kind == Expr::Kind::kIdent) {
      *out = e.name;
      return true;
    }
    if (e.kind == Expr::Kind::kSelect && !e.test_only && QualifiedName(*e.target, out)) {
      *out += "." + e.name;
      return true;
    }
    return false;
  }

  // Renames the type parameters of a declaration apart from all others.
  Type Instantiate(const Type& t, std::map<std::string, std::string>& renames) {
    if (t.kind == K::kTypeParam) {
      auto it = renames.find(t.name);
      if (it == renames.end()) it = renames.emplace(t.name, Fresh().name).first;
      return Type::Param(it->second);
    }
    Type out = t;
    for (Type& p : out.params) p = Instantiate(p, renames);
    return out;
  }

  Type VisitCall(Expr& e) {
    const FunctionRegistry& reg = FunctionRegistry::Get();
    if (e.name == "_?._" && !e.target && e.args.size() == 2 && e.args[1]->kind == Expr::Kind::kConst &&
        e.args[1]->constant.kind() == Value::Kind::kString)
      return VisitOptSelect(e);
    // Namespaced functions (sets.contains): the receiver is a name, not a value.
    if (e.target) {
      std::string qualified;
      if (QualifiedName(*e.target, &qualified)) {
        std::string root = qualified.substr(0, qualified.find('.'));
        if (!LookupVar(root) && reg.Find(qualified + "." + e.name)) {
          e.name = qualified + "." + e.name;
          e.target.reset();
        }
      }
    }
    std::vector<Type> arg_types;
    if (e.target) arg_types.push_back(Visit(*e.target));
    for (ExprPtr& a : e.args) arg_types.push_back(Visit(*a));
    const std::vector<Overload>* overloads = reg.Find(e.name);
    if (!overloads) {
      Error(e, "undeclared reference to '" + e.name + "' (in container '')");
      return Set(e, Type::Error());
    }
    bool member = e.target != nullptr;
    std::optional<Type> result;
    std::vector<const Overload*> matched;
    TypeMapping committed(&m_);
    for (const Overload& o : *overloads) {
      if (o.member != member || o.params.size() != arg_types.size()) continue;
      std::map<std::string, std::string> renames;
      TypeMapping local(&m_);
      bool ok = true;
      for (size_t i = 0; i < arg_types.size() && ok; ++i)
        ok = IsAssignable(local, Instantiate(o.params[i], renames), arg_types[i]);
      if (!ok) continue;
      Type r = local.Substitute(Instantiate(o.result, renames), false);
      if (matched.empty()) local.CommitTo(committed);
      matched.push_back(&o);
      if (!result) {
        result = r;
      } else if (!result->IsDynOrError() && !(*result == r)) {
        result = Type::Dyn();
      }
    }
    if (matched.empty()) {
      std::string sig;
      size_t first = 0;
      if (member) {
        sig = m_.Substitute(arg_types[0], false).Format() + ".";
        first = 1;
      }
      sig += "(";
      for (size_t i = first; i < arg_types.size(); ++i)
        sig += (i > first ? ", " : "") + m_.Substitute(arg_types[i], false).Format();
      sig += ")";
      Error(e, "found no matching overload for '" + e.name + "' applied to '" + sig + "'");
      return Set(e, Type::Error());
    }
    committed.CommitTo(m_);
    out_->overloads[e.id] = std::move(matched);
    return Set(e, *result);
  }

  static bool ContainsParam(const Type& t) {
    if (t.kind == K::kTypeParam) return true;
    for (const Type& p : t.params)
      if (ContainsParam(p)) return true;
    return false;
  }

  // HomogeneousAggregateLiterals: every element's type must equal the
  // first one's (validator.go uses IsEquivalentType).
  Type Join(const std::optional<Type>& prev, const Type& cur, const Expr& at, bool* reported) {
    if (!prev) return cur;
    Type p = m_.Substitute(*prev, false), c = m_.Substitute(cur, false);
    if (p == c || p.kind == K::kError || c.kind == K::kError) return p;
    TypeMapping probe(&m_);
    if (ContainsParam(p) || ContainsParam(c)) {
      if (IsAssignable(probe, p, c)) {
        probe.CommitTo(m_);
        return m_.Substitute(p, false);
      }
    }
    if (!*reported) Error(at, "expected type '" + p.Format() + "' but found '" + c.Format() + "'");
    *reported = true;
    return Type::Dyn();
  }

  Type VisitList(Expr& e) {
    std::optional<Type> elem;
    bool reported = false;
    for (ExprPtr& a : e.args) elem = Join(elem, Visit(*a), *a, &reported);
    return Set(e, Type::List(elem ? *elem : Fresh()));
  }

  Type VisitMap(Expr& e) {
    std::optional<Type> key, val;
    bool kr = false, vr = false;
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      key = Join(key, Visit(*e.args[i]), *e.args[i], &kr);
      val = Join(val, Visit(*e.args[i + 1]), *e.args[i + 1], &vr);
    }
    if (!key) return Set(e, Type::Map(Fresh(), Fresh()));
    return Set(e, Type::Map(*key, *val));
  }

  void Assert(const Expr& e, const Type& expected, const Type& actual) {
    TypeMapping probe(&m_);
    if (IsAssignable(probe, expected, actual)) {
      probe.CommitTo(m_);
      return;
    }
    Error(e, "expected type '" + m_.Substitute(expected, false).Format() + "' but found '" +
                 m_.Substitute(actual, false).Format() + "'");
  }

  Type VisitComprehension(Expr& e) {
    Type range = m_.Substitute(Visit(*e.iter_range), false);
    Type accu = Visit(*e.accu_init);
    Type var = Type::Dyn();
    Type var2 = Type::Dyn();  // two-variable form: (index, element) or (key, value)
    bool two = !e.iter_var2.empty();
    switch (range.kind) {
      case K::kList:
        var = two ? Type::Int() : range.params[0];
        var2 = range.params[0];
        break;
      case K::kMap:
        var = range.params[0];
        var2 = range.params[1];
        break;
      case K::kDyn: case K::kAny: case K::kError: case K::kTypeParam: var = Type::Dyn(); break;
      default:
        Error(*e.iter_range, "expression of type '" + range.Format() +
                                 "' cannot be range of a comprehension (must be list, map, or dynamic)");
        break;
    }
    scopes_.emplace_back(e.accu_var, accu);
    scopes_.emplace_back(e.iter_var, var);
    if (two) scopes_.emplace_back(e.iter_var2, var2);
    Type cond = Visit(*e.loop_cond);
    Assert(*e.loop_cond, Type::Bool(), cond);
    Type step = Visit(*e.loop_step);
    Assert(*e.loop_step, accu, step);
    scopes_.pop_back();
    if (two) scopes_.pop_back();
    Type result = Visit(*e.result);
    scopes_.pop_back();
    return Set(e, m_.Substitute(result, false));
  }

  const CheckEnv& env_;
  CheckResult* out_;
  TypeMapping m_;
  std::vector<std::pair<std::string, Type>> scopes_;
  int next_var_ = 0;
};

// cel.ValidateRegexLiterals (k8s base.go): a constant pattern of matches,
// find or findAll must compile ("invalid matches argument").
void ValidateRegexLiterals(const Expr& e, std::vector<Issue>* issues) {
  std::vector<const Expr*> stack{&e};
  while (!stack.empty()) {
    const Expr* x = stack.back();
    stack.pop_back();
    if (x->kind == Expr::Kind::kCall && (x->name == "matches" || x->name == "find" || x->name == "findAll") &&
        !x->args.empty()) {
      const Expr& lit = *x->args[0];
      if (lit.kind == Expr::Kind::kConst && lit.constant.kind() == Value::Kind::kString) {
        RE2::Options opts;
        opts.set_log_errors(false);
        RE2 re(lit.constant.string_value(), opts);
        if (!re.ok()) issues->push_back({lit.offset, "invalid " + x->name + " argument"});
      }
    }
    for (const ExprPtr* c : {&x->target, &x->iter_range, &x->accu_init, &x->loop_cond, &x->loop_step, &x->result})
      if (*c) stack.push_back(c->get());
    for (const ExprPtr& a : x->args) stack.push_back(a.get());
  }
}

}  // namespace

CheckResult Check(Expr& root, const CheckEnv& env) {
  CheckResult r;
  r.output = Checker(env, &r).Run(root);
  if (r.issues.empty()) ValidateRegexLiterals(root, &r.issues);
  return r;
}

}  // namespace gpusched::cel

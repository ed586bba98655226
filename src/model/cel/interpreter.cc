// Tree-walking evaluation after cel-go interpreter/interpretable.go
// (evalAnd, evalOr, evalConditional, evalFold, strict calls), attributes.go
// (map qualification: "no such key: <key>") and runtimecost.go (ident and
// select 1, list 10, map 30, calls 1 or string-size based). The map/filter
// macros' `@result + [x]` step appends in place instead of copying the
// accumulated list each iteration.
#include "gpusched/model/cel/interpreter.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/cel/functions.h"

namespace gpusched::cel {
namespace {

constexpr char kCancelled[] = "operation cancelled: actual cost limit exceeded";

// The Go type cel-go names in "got '%T', expected iterable type".
std::string GoTypeName(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return "types.Null";
    case Value::Kind::kBool: return "types.Bool";
    case Value::Kind::kInt: return "types.Int";
    case Value::Kind::kUint: return "types.Uint";
    case Value::Kind::kDouble: return "types.Double";
    case Value::Kind::kString: return "types.String";
    case Value::Kind::kBytes: return "types.Bytes";
    case Value::Kind::kType: return "*types.Type";
    case Value::Kind::kQuantity: return "cel.Quantity";
    case Value::Kind::kSemver: return "cel.Semver";
    default: return "*types.Err";
  }
}

uint64_t CeilFactor(uint64_t n, double f) { return static_cast<uint64_t>(std::ceil(static_cast<double>(n) * f)); }

uint64_t StrSize(const Value& v) {
  if (v.kind() == Value::Kind::kString) return static_cast<uint64_t>(CodePointCount(v.string_value()));
  if (v.kind() == Value::Kind::kBytes) return v.bytes_value().size();
  return 1;
}

class Interpreter {
 public:
  Interpreter(const Value& device, uint64_t limit) : device_(device), limit_(limit) {}

  Value Eval(const Expr& e) {
    if (cancelled_) return Cancelled();
    switch (e.kind) {
      case Expr::Kind::kConst: return e.constant;
      case Expr::Kind::kIdent: {
        Charge(1);
        return Lookup(e.name);
      }
      case Expr::Kind::kSelect: return Select(e);
      case Expr::Kind::kCall: return Call(e);
      case Expr::Kind::kList: {
        Charge(10);
        std::vector<Value> items;
        items.reserve(e.args.size());
        for (const ExprPtr& a : e.args) {
          Value v = Eval(*a);
          if (v.is_error()) return v;
          items.push_back(std::move(v));
        }
        return Value::List(std::move(items));
      }
      case Expr::Kind::kMap: return MapLiteral(e);
      case Expr::Kind::kComprehension: return Fold(e);
    }
    return Value::Error("unexpected expression");
  }

  uint64_t cost() const { return cost_; }
  bool cancelled() const { return cancelled_; }

 private:
  static Value Cancelled() { return Value::Error(kCancelled); }

  void Charge(uint64_t c) {
    cost_ = c > UINT64_MAX - cost_ ? UINT64_MAX : cost_ + c;
    if (cost_ > limit_) cancelled_ = true;
  }

  Value* FindLocal(const std::string& name) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (*it->first == name) return &it->second;
    return nullptr;
  }

  Value Lookup(const std::string& name) {
    if (Value* v = FindLocal(name)) return *v;
    if (name == "device") return device_;
    static const char* const kTypes[] = {"bool", "int", "uint", "double", "string", "bytes",
                                         "list", "map", "null_type", "type", "optional_type"};
    for (const char* t : kTypes)
      if (name == t) return Value::Type(name);
    return Value::Error("no such attribute: " + name);
  }

  static Value NoSuchKey(const Value& key) { return Value::Error("no such key: " + FormatForError(key)); }

  static Value EmptyMap() {
    static const MapPtr kEmpty = std::make_shared<const MapValue>();
    return Value::Map(kEmpty);
  }

  // Looks `key` up in map `m` (DRA's default-empty maps return {}).
  static Value MapGet(const Value& m, const Value& key) {
    const MapValue& map = m.map();
    if (const Value* v = map.Find(key)) return *v;
    if (map.default_empty) return EmptyMap();
    return NoSuchKey(key);
  }

  Value Select(const Expr& e) {
    Value operand = Eval(*e.target);
    if (operand.is_error()) return operand;
    // Optional chaining: after a.?b, .c selects inside the optional and a
    // missing c gives optional.none() (cel-go's optional qualifiers).
    if (operand.kind() == Value::Kind::kOptional) {
      if (!operand.optional_value()) return e.test_only ? Value::Bool(false) : operand;
      Value inner = *operand.optional_value();
      if (inner.kind() != Value::Kind::kMap) return NoSuchOverload();
      if (e.test_only) return Value::Bool(inner.map().default_empty || inner.map().Find(Value::String(e.name)));
      Charge(1);
      return OptLookup(inner, Value::String(e.name));
    }
    if (e.test_only) {
      if (operand.kind() != Value::Kind::kMap) return NoSuchOverload();
      const MapValue& m = operand.map();
      return Value::Bool(m.default_empty || m.Find(Value::String(e.name)) != nullptr);
    }
    Charge(1);
    if (operand.kind() != Value::Kind::kMap) return NoSuchOverload();
    return MapGet(operand, Value::String(e.name));
  }

  Value MapLiteral(const Expr& e) {
    Charge(30);
    auto m = std::make_shared<MapValue>();
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      Value k = Eval(*e.args[i]);
      if (k.is_error()) return k;
      Value v = Eval(*e.args[i + 1]);
      if (v.is_error()) return v;
      Value::Kind kk = k.kind();
      if (kk != Value::Kind::kBool && kk != Value::Kind::kInt && kk != Value::Kind::kUint &&
          kk != Value::Kind::kString)
        return Value::Error("unsupported key type");
      if (m->Find(k)) return Value::Error("insert failed: key " + FormatForError(k) + " already exists");
      m->entries.emplace_back(std::move(k), std::move(v));
    }
    return Value::Map(std::move(m));
  }

  Value Logical(const Expr& e, bool is_and) {
    // Both sides are evaluated unless one decides the result; an error only
    // wins when no side decides it (cel-go evalAnd / evalOr).
    std::optional<Value> err;
    for (const ExprPtr& a : e.args) {
      Value v = Eval(*a);
      if (cancelled_) return Cancelled();
      if (v.kind() == Value::Kind::kBool) {
        if (v.bool_value() != is_and) return v;
      } else if (!err) {
        err = v.is_error() ? v : NoSuchOverload();
      }
    }
    if (err) return *err;
    return Value::Bool(is_and);
  }

  Value Index(const Value& c, const Value& i) {
    if (c.kind() == Value::Kind::kList) {
      const std::vector<Value>& l = c.list();
      int64_t idx;
      if (i.kind() == Value::Kind::kInt) {
        idx = i.int_value();
      } else if (i.kind() == Value::Kind::kUint && i.uint_value() <= INT64_MAX) {
        idx = static_cast<int64_t>(i.uint_value());
      } else if (i.kind() == Value::Kind::kDouble && std::trunc(i.double_value()) == i.double_value() &&
                 std::fabs(i.double_value()) < 9.2e18) {
        idx = static_cast<int64_t>(i.double_value());
      } else {
        return Value::Error("unsupported index type '" + RuntimeTypeName(i) + "' in list");
      }
      if (idx < 0 || idx >= static_cast<int64_t>(l.size()))
        return Value::Error("index '" + std::to_string(idx) + "' out of range in list size '" +
                            std::to_string(l.size()) + "'");
      return l[static_cast<size_t>(idx)];
    }
    if (c.kind() == Value::Kind::kMap) return MapGet(c, i);
    return NoSuchOverload();
  }

  Value In(const Value& elem, const Value& c) {
    if (c.kind() == Value::Kind::kList) {
      for (const Value& v : c.list())
        if (EqualBool(v, elem)) return Value::Bool(true);
      return Value::Bool(false);
    }
    if (c.kind() == Value::Kind::kMap) return Value::Bool(c.map().Find(elem) != nullptr);
    return NoSuchOverload();
  }

  // `@result + [x]` of the map and filter macros: appends to the
  // accumulator in place when nothing else shares it.
  bool AppendStep(const Expr& e, Value* out) {
    if (e.name != "_+_" || e.args.size() != 2 || e.args[0]->kind != Expr::Kind::kIdent ||
        e.args[0]->name != kAccumulatorName || e.args[1]->kind != Expr::Kind::kList)
      return false;
    {
      const Value* accu = FindLocal(kAccumulatorName);
      if (!accu || accu->kind() != Value::Kind::kList) return false;
    }
    Charge(1 + 10);
    std::vector<Value> items;
    for (const ExprPtr& a : e.args[1]->args) {
      Value v = Eval(*a);
      if (v.is_error()) {
        *out = v;
        return true;
      }
      items.push_back(std::move(v));
    }
    // Looked up again: evaluating the items may have grown the scope stack.
    Value* accu = FindLocal(kAccumulatorName);
    Value taken = std::move(*accu);
    *accu = Value();
    if (std::vector<Value>* own = taken.MutableListIfUnique()) {
      own->insert(own->end(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
      *out = std::move(taken);
    } else {
      std::vector<Value> merged = taken.list();
      merged.insert(merged.end(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
      *out = Value::List(std::move(merged));
    }
    return true;
  }

  // cel.@mapInsert(@result, k, v) of transformMap: inserts into the
  // accumulator in place when nothing else shares it.
  bool MapInsertStep(const Expr& e, Value* out) {
    if (e.name != "cel.@mapInsert" || e.args.size() != 3 || e.args[0]->kind != Expr::Kind::kIdent ||
        e.args[0]->name != kAccumulatorName)
      return false;
    {
      const Value* accu = FindLocal(kAccumulatorName);
      if (!accu || accu->kind() != Value::Kind::kMap) return false;
    }
    Value k = Eval(*e.args[1]);
    if (k.is_error()) {
      *out = k;
      return true;
    }
    Value v = Eval(*e.args[2]);
    if (v.is_error()) {
      *out = v;
      return true;
    }
    Charge(1);
    Value* accu = FindLocal(kAccumulatorName);
    if (accu->map().Find(k)) {
      *out = Value::Error("insert failed: key " + FormatForError(k) + " already exists");
      return true;
    }
    Value taken = std::move(*accu);
    *accu = Value();
    if (MapValue* own = taken.MutableMapIfUnique()) {
      own->entries.emplace_back(std::move(k), std::move(v));
      *out = std::move(taken);
    } else {
      auto m = std::make_shared<MapValue>(taken.map());
      m->default_empty = false;
      m->entries.emplace_back(std::move(k), std::move(v));
      *out = Value::Map(std::move(m));
    }
    return true;
  }

  // a.?f: optional.of(a.f) when a has f, else optional.none().
  Value OptSelect(const Expr& e) {
    Value operand = Eval(*e.args[0]);
    if (operand.is_error()) return operand;
    Charge(1);
    if (operand.kind() == Value::Kind::kOptional) {
      if (!operand.optional_value()) return operand;
      Value inner = *operand.optional_value();
      operand = std::move(inner);
    }
    if (operand.kind() != Value::Kind::kMap || e.args[1]->kind != Expr::Kind::kConst) return NoSuchOverload();
    return OptLookup(operand, e.args[1]->constant);
  }

  static Value OptLookup(const Value& m, const Value& key) {
    if (const Value* v = m.map().Find(key)) return Value::OptionalOf(*v);
    if (m.map().default_empty) return Value::OptionalOf(EmptyMap());
    return Value::OptionalNone();
  }

  // a[?k]: present index or key as optional.of, else optional.none().
  static Value OptIndex(Value c, const Value& i) {
    if (c.kind() == Value::Kind::kOptional) {
      if (!c.optional_value()) return c;
      Value inner = *c.optional_value();
      c = std::move(inner);
    }
    if (c.kind() == Value::Kind::kMap) return OptLookup(c, i);
    if (c.kind() == Value::Kind::kList && i.kind() == Value::Kind::kInt) {
      int64_t idx = i.int_value();
      if (idx < 0 || idx >= static_cast<int64_t>(c.list().size())) return Value::OptionalNone();
      return Value::OptionalOf(c.list()[static_cast<size_t>(idx)]);
    }
    return NoSuchOverload();
  }

  // opt.or(other) / opt.orValue(v): the argument is evaluated only when
  // the optional is empty (cel-go evalOptionalOr / evalOptionalOrValue).
  Value OptionalOr(const Expr& e, bool or_value) {
    Value target = Eval(*e.target);
    if (target.is_error()) return target;
    if (target.kind() != Value::Kind::kOptional) return NoSuchOverload();
    Charge(1);
    if (const Value* v = target.optional_value()) return or_value ? *v : target;
    Value alt = Eval(*e.args[0]);
    if (!or_value && !alt.is_error() && alt.kind() != Value::Kind::kOptional) return NoSuchOverload();
    return alt;
  }

  Value Call(const Expr& e) {
    const std::string& fn = e.name;
    if (!e.target) {
      if (fn == "_&&_") return Logical(e, true);
      if (fn == "_||_") return Logical(e, false);
      if (fn == "_?_:_") {
        Value c = Eval(*e.args[0]);
        if (c.is_error()) return c;
        if (c.kind() != Value::Kind::kBool) return NoSuchOverload();
        return Eval(*e.args[c.bool_value() ? 1 : 2]);
      }
      if (fn == "@not_strictly_false") {
        Value v = Eval(*e.args[0]);
        if (cancelled_) return Cancelled();
        return v.kind() == Value::Kind::kBool ? v : Value::Bool(true);
      }
      if (fn == "_?._" && e.args.size() == 2) return OptSelect(e);
      Value appended;
      if (AppendStep(e, &appended)) return appended;
      if (MapInsertStep(e, &appended)) return appended;
    }
    // Only optionals have or() and orValue().
    if (e.target && e.args.size() == 1 && (fn == "or" || fn == "orValue")) return OptionalOr(e, fn == "orValue");
    std::vector<Value> args;
    args.reserve(e.args.size() + 1);
    if (e.target) args.push_back(Eval(*e.target));
    for (const ExprPtr& a : e.args) args.push_back(Eval(*a));
    if (cancelled_) return Cancelled();
    for (const Value& a : args)
      if (a.is_error()) return a;
    Charge(CallCost(e, args));
    // Over the limit: stop before the work is done, not after.
    if (cancelled_) return Cancelled();
    if (!e.target) {
      if (fn == "_[_]" && args[0].kind() == Value::Kind::kOptional) return OptIndex(args[0], args[1]);
      if (fn == "_[_]") return Index(args[0], args[1]);
      if (fn == "_[?_]") return OptIndex(args[0], args[1]);
      if (fn == "@in") return In(args[0], args[1]);
    }
    const std::vector<Overload>* overloads = FunctionRegistry::Get().Find(fn);
    if (!overloads) return Value::Error("no such overload: " + fn);
    bool member = e.target != nullptr;
    for (const Overload& o : *overloads) {
      if (o.member != member || o.params.size() != args.size() || !o.impl) continue;
      bool ok = true;
      for (size_t i = 0; i < args.size() && ok; ++i) ok = ValueMatches(o.params[i], args[i]);
      if (!ok) continue;
      Value result = o.impl(args);
      // k8s library/cost.go CallCost prices join() by what it produced.
      if (fn == "join" && result.kind() == Value::Kind::kString) Charge(CeilFactor(StrSize(result), 0.2));
      return result;
    }
    return NoSuchOverload();
  }

  // cel-go interpreter/runtimecost.go costCall plus the Kubernetes library
  // CallCost, for the functions whose cost depends on their input.
  static uint64_t CallCost(const Expr& e, const std::vector<Value>& a) {
    const std::string& f = e.name;
    bool member = e.target != nullptr;
    if (member && a.size() == 2 && f == "matches")
      return CeilFactor(StrSize(a[0]) + 1, 0.1) * CeilFactor(StrSize(a[1]), 0.25);
    if (member && a.size() == 2 && f == "contains") return CeilFactor(StrSize(a[0]), 0.1) * CeilFactor(StrSize(a[1]), 0.1);
    if (member && a.size() == 2 && (f == "startsWith" || f == "endsWith")) return CeilFactor(StrSize(a[1]), 0.1);
    if (member && (f == "lowerAscii" || f == "upperAscii" || f == "trim" || f == "substring" || f == "indexOf" ||
                   f == "lastIndexOf") && a[0].kind() == Value::Kind::kString)
      return CeilFactor(StrSize(a[0]), 0.1);
    if (member && (f == "split" || f == "replace")) return CeilFactor(StrSize(a[0]), 0.2);
    if (member && (f == "find" || f == "findAll") && a.size() >= 2)
      return CeilFactor(StrSize(a[0]) + 1, 0.1) * CeilFactor(StrSize(a[1]), 0.25);
    if (!member && (f == "quantity" || f == "isQuantity" || f == "semver" || f == "isSemver"))
      return CeilFactor(StrSize(a[0]), 0.1);
    if (a.size() == 2 && (f == "_==_" || f == "_!=_" || f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") &&
        (a[0].kind() == Value::Kind::kString || a[0].kind() == Value::Kind::kBytes))
      return CeilFactor(std::min(StrSize(a[0]), StrSize(a[1])), 0.1);
    if (a.size() == 2 && f == "_+_" && (a[0].kind() == Value::Kind::kString || a[0].kind() == Value::Kind::kBytes))
      return CeilFactor(StrSize(a[0]) + StrSize(a[1]), 0.1);
    if (!member && f == "@in" && a[1].kind() == Value::Kind::kList) return std::max<uint64_t>(1, a[1].list().size());
    return 1;
  }

  Value Fold(const Expr& e) {
    Value range = Eval(*e.iter_range);
    if (range.is_error()) return range;
    std::vector<Value> keys;
    std::vector<Value> values;  // two-variable form: the second variable's values
    const std::vector<Value>* items = nullptr;
    bool two = !e.iter_var2.empty();
    if (range.kind() == Value::Kind::kList) {
      items = &range.list();
      if (two) {
        for (size_t i = 0; i < items->size(); ++i) keys.push_back(Value::Int(static_cast<int64_t>(i)));
        values = *items;
        items = &keys;
      }
    } else if (range.kind() == Value::Kind::kMap) {
      for (const auto& [k, v] : range.map().entries) {
        keys.push_back(k);
        if (two) values.push_back(v);
      }
      items = &keys;
    } else {
      return Value::Error("got '" + GoTypeName(range) + "', expected iterable type");
    }
    Value accu = Eval(*e.accu_init);
    if (cancelled_) return Cancelled();
    scopes_.emplace_back(&e.accu_var, std::move(accu));
    size_t accu_slot = scopes_.size() - 1;
    size_t pushed = two ? 2 : 1;
    for (size_t i = 0; i < items->size(); ++i) {
      scopes_.emplace_back(&e.iter_var, (*items)[i]);
      if (two) scopes_.emplace_back(&e.iter_var2, values[i]);
      Value cond = Eval(*e.loop_cond);
      if (cancelled_ || (cond.kind() == Value::Kind::kBool && !cond.bool_value())) {
        scopes_.resize(scopes_.size() - pushed);
        break;
      }
      Value next = Eval(*e.loop_step);
      scopes_.resize(scopes_.size() - pushed);
      scopes_[accu_slot].second = std::move(next);
      if (cancelled_) break;
    }
    Value result = cancelled_ ? Cancelled() : Eval(*e.result);
    scopes_.pop_back();
    return result;
  }

  const Value& device_;
  uint64_t limit_;
  uint64_t cost_ = 0;
  bool cancelled_ = false;
  std::vector<std::pair<const std::string*, Value>> scopes_;
};

}  // namespace

EvalResult Evaluate(const Expr& root, const Value& device, uint64_t cost_limit) {
  Interpreter in(device, cost_limit);
  EvalResult r;
  r.value = in.Eval(root);
  if (in.cancelled()) r.value = Value::Error(kCancelled);
  r.actual_cost = in.cost();
  return r;
}

}  // namespace gpusched::cel

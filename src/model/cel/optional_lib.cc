// cel.OptionalTypes, which Kubernetes enables since 1.28 (environment/
// base.go): optional.of, optional.ofNonZeroValue, optional.none, value(),
// hasValue(), and the declarations of the optional field selection `a.?b`
// (_?._), optional indexing `a[?k]` (_[?_]) and the short-circuiting or()
// and orValue(), which the interpreter evaluates itself (cel-go
// cel/library.go optionalLib, interpreter evalOptionalOr*). optMap,
// optFlatMap and optional list/map literal entries are not implemented.
#include "gpusched/model/cel/functions.h"

namespace gpusched::cel {
namespace {

using V = std::vector<Value>;

// cel-go's zero values for ofNonZeroValue (types.IsZeroValue).
bool IsZero(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return true;
    case Value::Kind::kBool: return !v.bool_value();
    case Value::Kind::kInt: return v.int_value() == 0;
    case Value::Kind::kUint: return v.uint_value() == 0;
    case Value::Kind::kDouble: return v.double_value() == 0;
    case Value::Kind::kString: return v.string_value().empty();
    case Value::Kind::kBytes: return v.bytes_value().empty();
    case Value::Kind::kList: return v.list().empty();
    case Value::Kind::kMap: return v.map().entries.empty();
    case Value::Kind::kQuantity: return v.quantity().IsZero();
    case Value::Kind::kOptional: return v.optional_value() == nullptr;
    default: return false;
  }
}

void Add(FunctionRegistry* r, const char* fn, const char* id, bool member, std::vector<Type> params, Type result,
         Impl impl) {
  r->Add(Overload{id, fn, member, std::move(params), std::move(result), impl});
}

}  // namespace

void AddOptionalFunctions(FunctionRegistry* r) {
  const Type a = Type::Param("A"), k = Type::Param("K"), oa = Type::Optional(Type::Param("A"));
  Add(r, "optional.of", "optional_of", false, {a}, oa, [](const V& x) { return Value::OptionalOf(x[0]); });
  Add(r, "optional.ofNonZeroValue", "optional_ofNonZeroValue", false, {a}, oa,
      [](const V& x) { return IsZero(x[0]) ? Value::OptionalNone() : Value::OptionalOf(x[0]); });
  Add(r, "optional.none", "optional_none", false, {}, oa, [](const V&) { return Value::OptionalNone(); });
  Add(r, "value", "optional_value", true, {oa}, a, [](const V& x) {
    const Value* v = x[0].optional_value();
    return v ? *v : Value::Error("optional.none() dereference");
  });
  Add(r, "hasValue", "optional_hasValue", true, {oa}, Type::Bool(),
      [](const V& x) { return Value::Bool(x[0].optional_value() != nullptr); });
  // Evaluated by the interpreter (short-circuit, presence semantics).
  Add(r, "or", "optional_or_optional", true, {oa, oa}, oa, nullptr);
  Add(r, "orValue", "optional_orValue_value", true, {oa, a}, a, nullptr);
  Add(r, "_?._", "select_optional_field", false, {Type::Dyn(), Type::String()}, Type::Optional(Type::Dyn()), nullptr);
  Add(r, "_[_]", "optional_list_index_int", false, {Type::Optional(Type::List(a)), Type::Int()}, oa, nullptr);
  Add(r, "_[_]", "optional_map_index_value", false, {Type::Optional(Type::Map(k, a)), k}, oa, nullptr);
  Add(r, "_[?_]", "list_optindex_optional_int", false, {Type::List(a), Type::Int()}, oa, nullptr);
  Add(r, "_[?_]", "map_optindex_optional_value", false, {Type::Map(k, a), k}, oa, nullptr);
  Add(r, "_[?_]", "optional_list_optindex_optional_int", false, {Type::Optional(Type::List(a)), Type::Int()}, oa,
      nullptr);
  Add(r, "_[?_]", "optional_map_optindex_optional_value", false, {Type::Optional(Type::Map(k, a)), k}, oa, nullptr);
}

}  // namespace gpusched::cel

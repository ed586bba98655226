// Type formatting and assignability, after cel-go checker/format.go
// (FormatCELType), common/types/types.go (Type.String) and checker/types.go
// (internalIsAssignable, isNullable, mostGeneral).
#include "gpusched/model/cel/types.h"

namespace gpusched::cel {
namespace {

std::string Params(const Type& t, bool format) {
  std::string s = "(";
  for (size_t i = 0; i < t.params.size(); ++i) s += (i ? ", " : "") + (format ? t.params[i].Format() : t.params[i].CelString());
  return s + ")";
}

bool IsNullable(const Type& t) {
  switch (t.kind) {
    case Type::Kind::kNull: case Type::Kind::kStruct: case Type::Kind::kAny: case Type::Kind::kDyn:
    case Type::Kind::kError: case Type::Kind::kTypeParam:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string Type::Format() const {
  switch (kind) {
    case Kind::kDyn: return "dyn";
    case Kind::kAny: return "any";
    case Kind::kNull: return "null";
    case Kind::kBool: return "bool";
    case Kind::kInt: return "int";
    case Kind::kUint: return "uint";
    case Kind::kDouble: return "double";
    case Kind::kString: return "string";
    case Kind::kBytes: return "bytes";
    case Kind::kList: return "list" + Params(*this, true);
    case Kind::kMap: return "map" + Params(*this, true);
    case Kind::kType: return params.empty() ? "type" : "type" + Params(*this, true);
    case Kind::kError: return "!error!";
    case Kind::kOpaque: return params.empty() ? name : name + Params(*this, true);
    default: return name;
  }
}

std::string Type::CelString() const {
  switch (kind) {
    case Kind::kAny: return "google.protobuf.Any";
    case Kind::kNull: return "null_type";
    case Kind::kList: return "list" + Params(*this, false);
    case Kind::kMap: return "map" + Params(*this, false);
    case Kind::kType: return params.empty() ? "type" : "type" + Params(*this, false);
    case Kind::kError: return "*error*";
    case Kind::kOpaque: return params.empty() ? name : name + Params(*this, false);
    default: return Format();
  }
}

const Type* TypeMapping::Find(const std::string& param) const {
  for (const TypeMapping* m = this; m; m = m->parent_) {
    auto it = m->bindings_.find(param);
    if (it != m->bindings_.end()) return &it->second;
  }
  return nullptr;
}

Type TypeMapping::Substitute(const Type& t, bool free_to_dyn, int depth) const {
  // Bindings are acyclic by the occurs check; the bound is a backstop.
  if (depth > 64) return Type::Dyn();
  if (t.kind == Type::Kind::kTypeParam) {
    if (const Type* b = Find(t.name)) {
      // A binding may mention other parameters; bounded by the binding count.
      if (b->kind == Type::Kind::kTypeParam && b->name == t.name) return free_to_dyn ? Type::Dyn() : t;
      return Substitute(*b, free_to_dyn, depth + 1);
    }
    return free_to_dyn ? Type::Dyn() : t;
  }
  Type out = t;
  for (Type& p : out.params) p = Substitute(p, free_to_dyn, depth + 1);
  return out;
}

Type MostGeneral(const Type& a, const Type& b) {
  if (a.IsDynOrError()) return a;
  if (b.IsDynOrError()) return b;
  if (a.kind == b.kind && !a.params.empty() && a.params.size() == b.params.size()) {
    Type out = a;
    for (size_t i = 0; i < a.params.size(); ++i) out.params[i] = MostGeneral(a.params[i], b.params[i]);
    return out;
  }
  return a;
}

namespace {

bool OccursIn(const std::string& param, const Type& t) {
  if (t.kind == Type::Kind::kTypeParam) return t.name == param;
  for (const Type& p : t.params)
    if (OccursIn(param, p)) return true;
  return false;
}

// Follows the bindings of a type parameter to what it stands for (an
// unbound parameter or a non-parameter type). Bounded: bindings never form
// a cycle (the occurs check below), the bound is a backstop.
Type Resolve(const TypeMapping& m, const Type& t, std::string* last_param) {
  Type cur = t;
  for (int i = 0; i < 64 && cur.kind == Type::Kind::kTypeParam; ++i) {
    const Type* b = m.Find(cur.name);
    if (!b) break;
    if (last_param) *last_param = cur.name;
    cur = *b;
  }
  return cur;
}

}  // namespace

bool IsAssignable(TypeMapping& m, const Type& declared_in, const Type& actual_in) {
  using K = Type::Kind;
  std::string bound_param;  // the declared parameter whose binding was followed
  Type declared = Resolve(m, declared_in, &bound_param);
  Type actual = Resolve(m, actual_in, nullptr);
  if (declared.kind == K::kTypeParam && actual.kind == K::kTypeParam && declared.name == actual.name) return true;
  if (actual.kind == K::kTypeParam) {
    Type d = m.Substitute(declared, false);
    if (OccursIn(actual.name, d)) return false;
    m.Bind(actual.name, std::move(d));
    return true;
  }
  if (declared.kind == K::kTypeParam) {
    Type a = m.Substitute(actual, false);
    if (OccursIn(declared.name, a)) return false;
    m.Bind(declared.name, std::move(a));
    return true;
  }
  if (!bound_param.empty()) {
    // A bound parameter widens to the more general of its binding and the
    // new argument (cel-go mostGeneral), e.g. int then dyn is dyn.
    if (!IsAssignable(m, declared, actual)) return false;
    Type general = MostGeneral(m.Substitute(declared, false), m.Substitute(actual, false));
    if (!OccursIn(bound_param, general)) m.Bind(bound_param, std::move(general));
    return true;
  }
  if (declared.IsDynOrError() || actual.IsDynOrError()) return true;
  if (declared.kind == K::kNull) return IsNullable(actual);
  if (actual.kind == K::kNull) return IsNullable(declared);
  if (declared.kind != actual.kind) return false;
  // Type values compare whatever type they denote (cel-go treats type(T)
  // as assignable across T).
  if (declared.kind == K::kType) return true;
  if (declared.name != actual.name) return false;
  if (declared.params.size() != actual.params.size()) return declared.params.empty() || actual.params.empty();
  for (size_t i = 0; i < declared.params.size(); ++i)
    if (!IsAssignable(m, declared.params[i], actual.params[i])) return false;
  return true;
}

}  // namespace gpusched::cel

// CEL types as the checker sees them (cel-go common/types/types.go): the
// primitive types, list(E), map(K, V), type(T), dyn, any (what DRA's
// attribute values are declared as), null, opaque Kubernetes types
// (kubernetes.Quantity, kubernetes.Semver), the object type of `device`
// (kubernetes.DRADevice) and type parameters of generic overloads.
#ifndef GPUSCHED_MODEL_CEL_TYPES_H_
#define GPUSCHED_MODEL_CEL_TYPES_H_

#include <map>
#include <string>
#include <vector>

namespace gpusched::cel {

struct Type {
  enum class Kind { kDyn, kAny, kNull, kBool, kInt, kUint, kDouble, kString, kBytes, kList, kMap, kType, kOpaque,
                    kStruct, kTypeParam, kError };
  Kind kind = Kind::kDyn;
  std::string name;          // kOpaque, kStruct, kTypeParam
  std::vector<Type> params;  // list(E), map(K, V), type(T)

  static Type Dyn() { return {Kind::kDyn, "", {}}; }
  static Type Any() { return {Kind::kAny, "", {}}; }
  static Type Null() { return {Kind::kNull, "", {}}; }
  static Type Bool() { return {Kind::kBool, "", {}}; }
  static Type Int() { return {Kind::kInt, "", {}}; }
  static Type Uint() { return {Kind::kUint, "", {}}; }
  static Type Double() { return {Kind::kDouble, "", {}}; }
  static Type String() { return {Kind::kString, "", {}}; }
  static Type Bytes() { return {Kind::kBytes, "", {}}; }
  static Type Error() { return {Kind::kError, "", {}}; }
  static Type List(Type e) { return {Kind::kList, "", {std::move(e)}}; }
  static Type Map(Type k, Type v) { return {Kind::kMap, "", {std::move(k), std::move(v)}}; }
  static Type TypeOf(Type t) { return {Kind::kType, "", {std::move(t)}}; }
  static Type Opaque(std::string n) { return {Kind::kOpaque, std::move(n), {}}; }
  static Type Struct(std::string n) { return {Kind::kStruct, std::move(n), {}}; }
  static Type Param(std::string n) { return {Kind::kTypeParam, std::move(n), {}}; }
  static Type Quantity() { return Opaque("kubernetes.Quantity"); }
  static Type Semver() { return Opaque("kubernetes.Semver"); }
  static Type Optional(Type t) { return {Kind::kOpaque, "optional_type", {std::move(t)}}; }
  bool IsOptional() const { return kind == Kind::kOpaque && name == "optional_type" && params.size() == 1; }

  bool operator==(const Type&) const = default;
  bool IsDynOrError() const { return kind == Kind::kDyn || kind == Kind::kAny || kind == Kind::kError; }

  // cel-go checker.FormatCELType: "int", "list(string)", "any", "null", ...
  std::string Format() const;
  // cel-go Type.String (what compile.go's "must evaluate to bool" message
  // prints): "google.protobuf.Any", "null_type", "list(int)", ...
  std::string CelString() const;
};

// Type-parameter bindings made while resolving one overload (cel-go
// checker/mapping.go).
class TypeMapping {
 public:
  TypeMapping() = default;
  // A scratch mapping over `parent` (lookups fall through to it), so that
  // trying an overload does not copy every binding made so far.
  explicit TypeMapping(const TypeMapping* parent) : parent_(parent) {}

  const Type* Find(const std::string& param) const;
  void Bind(const std::string& param, Type t) { bindings_[param] = std::move(t); }
  // Moves this mapping's own bindings into `target`.
  void CommitTo(TypeMapping& target) {
    for (auto& [k, v] : bindings_) target.bindings_[k] = std::move(v);
    bindings_.clear();
  }
  // `t` with every bound parameter replaced; unbound ones become dyn when
  // `free_to_dyn`.
  Type Substitute(const Type& t, bool free_to_dyn, int depth = 0) const;

 private:
  std::map<std::string, Type> bindings_;
  const TypeMapping* parent_ = nullptr;
};

// cel-go checker/types.go isAssignable: whether a value of type `actual`
// fits `declared`, binding type parameters of `declared` in `m`.
bool IsAssignable(TypeMapping& m, const Type& declared, const Type& actual);

// cel-go mostGeneral: the less specific of two assignable types.
Type MostGeneral(const Type& a, const Type& b);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_TYPES_H_

// CEL runtime values (cel-spec doc/langdef.md "Values"): null, bool, int,
// uint, double, string, bytes, list, map, type, plus the Kubernetes
// extension types kubernetes.Quantity and kubernetes.Semver, and errors as
// values (an error is a value until it reaches the top, so that && and ||
// can absorb it as cel-go's interpreter does).
#ifndef GPUSCHED_MODEL_CEL_VALUE_H_
#define GPUSCHED_MODEL_CEL_VALUE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gpusched/model/cel/semver.h"
#include "gpusched/model/quantity.h"

namespace gpusched::cel {

class Value;
struct MapValue;
using ListPtr = std::shared_ptr<const std::vector<Value>>;
using MapPtr = std::shared_ptr<const MapValue>;

struct Bytes {
  std::string data;
  bool operator==(const Bytes&) const = default;
};
struct TypeName {
  std::string name;  // "int", "list", "kubernetes.Quantity", ...
  bool operator==(const TypeName&) const = default;
};
struct ErrorValue {
  std::string message;
};
struct OptionalBox {
  std::shared_ptr<const Value> value;  // null: optional.none()
};

class Value {
 public:
  // The order matches the variant's alternatives.
  enum class Kind {
    kNull, kBool, kInt, kUint, kDouble, kString, kBytes, kList, kMap, kType, kQuantity, kSemver, kOptional, kError
  };

  Value() = default;
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(Rep(b)); }
  static Value Int(int64_t i) { return Value(Rep(i)); }
  static Value Uint(uint64_t u) { return Value(Rep(u)); }
  static Value Double(double d) { return Value(Rep(d)); }
  static Value String(std::string s) { return Value(Rep(std::move(s))); }
  static Value BytesOf(std::string s) { return Value(Rep(cel::Bytes{std::move(s)})); }
  static Value List(std::vector<Value> items);
  static Value Map(MapPtr m) { return Value(Rep(std::move(m))); }
  static Value Type(std::string name) { return Value(Rep(TypeName{std::move(name)})); }
  static Value OfQuantity(const gpusched::Quantity& q) { return Value(Rep(q)); }
  static Value OfSemver(Semver v) { return Value(Rep(std::move(v))); }
  static Value Error(std::string message);
  // cel.OptionalTypes (k8s base.go since 1.28): optional.of(v) / optional.none().
  static Value OptionalOf(Value v);
  static Value OptionalNone();

  Kind kind() const { return static_cast<Kind>(rep_.index()); }
  bool is_error() const { return kind() == Kind::kError; }
  bool bool_value() const { return std::get<bool>(rep_); }
  int64_t int_value() const { return std::get<int64_t>(rep_); }
  uint64_t uint_value() const { return std::get<uint64_t>(rep_); }
  double double_value() const { return std::get<double>(rep_); }
  const std::string& string_value() const { return std::get<std::string>(rep_); }
  const std::string& bytes_value() const { return std::get<cel::Bytes>(rep_).data; }
  const std::vector<Value>& list() const { return *std::get<ListPtr>(rep_); }
  const MapValue& map() const { return *std::get<MapPtr>(rep_); }
  const std::string& type_name() const { return std::get<TypeName>(rep_).name; }
  const gpusched::Quantity& quantity() const { return std::get<gpusched::Quantity>(rep_); }
  const Semver& semver() const { return std::get<Semver>(rep_); }
  const std::string& error() const { return std::get<std::shared_ptr<const ErrorValue>>(rep_)->message; }
  // The optional's value, or null for optional.none().
  const Value* optional_value() const { return std::get<OptionalBox>(rep_).value.get(); }
  // The list's storage when this value is its only owner (so it may be
  // extended in place), else null.
  std::vector<Value>* MutableListIfUnique() {
    ListPtr& p = std::get<ListPtr>(rep_);
    return p.use_count() == 1 ? const_cast<std::vector<Value>*>(p.get()) : nullptr;
  }
  MapValue* MutableMapIfUnique() {
    MapPtr& p = std::get<MapPtr>(rep_);
    return p.use_count() == 1 ? const_cast<MapValue*>(p.get()) : nullptr;
  }

 private:
  using Rep = std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, cel::Bytes, ListPtr, MapPtr,
                           TypeName, gpusched::Quantity, Semver, OptionalBox, std::shared_ptr<const ErrorValue>>;
  explicit Value(Rep r) : rep_(std::move(r)) {}
  Rep rep_;
};

// A map: entries in insertion order (keys are bool, int, uint or string).
// `default_empty` is DRA's newStringInterfaceMapWithDefault (compile.go):
// a missing key reads as an empty map instead of "no such key".
struct MapValue {
  std::vector<std::pair<Value, Value>> entries;
  bool default_empty = false;
  // The value under `key`, comparing numbers across int/uint/double as CEL's
  // heterogeneous equality does; nullptr when absent.
  const Value* Find(const Value& key) const;
};

// The runtime type name type(v) prints and errors quote: "int", "list",
// "map", "null_type", "kubernetes.Quantity", ...
std::string RuntimeTypeName(const Value& v);

// CEL equality (langdef "Equality"): numbers compare across types, lists and
// maps element-wise, values of different types are unequal. An error if
// either side is an error.
Value Equal(const Value& a, const Value& b);
bool EqualBool(const Value& a, const Value& b);

// Ordering for <, <=, >, >= (with cross-type numeric comparisons); nullopt
// when the pair is not comparable. NaN compares as unordered (nullopt too).
std::optional<int> Compare(const Value& a, const Value& b);

// Go's %v of a value in cel-go error texts ("no such key: foo").
std::string FormatForError(const Value& v);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_VALUE_H_

// CEL values: equality and ordering as cel-go common/types implements them
// (int.go, uint.go, double.go Compare/Equal with cross-type numeric
// comparisons, list.go / map.go element-wise Equal) and the %v formatting
// cel-go's error messages use.
#include "gpusched/model/cel/value.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace gpusched::cel {

Value Value::List(std::vector<Value> items) {
  return Value(Rep(ListPtr(std::make_shared<const std::vector<Value>>(std::move(items)))));
}

Value Value::OptionalOf(Value v) { return Value(Rep(OptionalBox{std::make_shared<const Value>(std::move(v))})); }

Value Value::OptionalNone() { return Value(Rep(OptionalBox{})); }

Value Value::Error(std::string message) {
  return Value(Rep(std::shared_ptr<const ErrorValue>(std::make_shared<const ErrorValue>(ErrorValue{std::move(message)}))));
}

namespace {

bool IsNumber(Value::Kind k) { return k == Value::Kind::kInt || k == Value::Kind::kUint || k == Value::Kind::kDouble; }

// Compares two numbers of any of the three kinds as cel-go's
// compareIntUint / compareIntDouble / compareUintDouble do.
// 2 means unordered (a NaN is involved).
int CompareNumbers(const Value& a, const Value& b) {
  using K = Value::Kind;
  auto sgn = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  K ka = a.kind(), kb = b.kind();
  if (ka == K::kInt && kb == K::kInt) return sgn(a.int_value(), b.int_value());
  if (ka == K::kUint && kb == K::kUint) return sgn(a.uint_value(), b.uint_value());
  if (ka == K::kInt && kb == K::kUint) {
    if (a.int_value() < 0) return -1;
    return sgn(static_cast<uint64_t>(a.int_value()), b.uint_value());
  }
  if (ka == K::kUint && kb == K::kInt) return -CompareNumbers(b, a);
  // At least one double.
  if (ka == K::kDouble && kb == K::kDouble) {
    double x = a.double_value(), y = b.double_value();
    if (std::isnan(x) || std::isnan(y)) return 2;
    return sgn(x, y);
  }
  if (kb == K::kDouble) {
    int c = CompareNumbers(b, a);
    return c == 2 ? 2 : -c;
  }
  // cel-go compareIntDouble / compareUintDouble: out of the integer's
  // range the double decides; inside it the integer converts to double
  // (lossily: 2^63-1 compares equal to 2^63).
  double d = a.double_value();
  if (std::isnan(d)) return 2;
  if (kb == K::kInt) {
    if (d < -9223372036854775808.0) return -1;
    if (d > 9223372036854775808.0) return 1;
    return sgn(d, static_cast<double>(b.int_value()));
  }
  if (d < 0) return -1;
  if (d > 18446744073709551616.0) return 1;
  return sgn(d, static_cast<double>(b.uint_value()));
}

}  // namespace

const Value* MapValue::Find(const Value& key) const {
  for (const auto& [k, v] : entries)
    if (EqualBool(k, key)) return &v;
  return nullptr;
}

std::string RuntimeTypeName(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return "null_type";
    case Value::Kind::kBool: return "bool";
    case Value::Kind::kInt: return "int";
    case Value::Kind::kUint: return "uint";
    case Value::Kind::kDouble: return "double";
    case Value::Kind::kString: return "string";
    case Value::Kind::kBytes: return "bytes";
    case Value::Kind::kList: return "list";
    case Value::Kind::kMap: return "map";
    case Value::Kind::kType: return "type";
    case Value::Kind::kQuantity: return "kubernetes.Quantity";
    case Value::Kind::kSemver: return "kubernetes.Semver";
    case Value::Kind::kOptional: return "optional_type";
    case Value::Kind::kError: return "*types.Err";
  }
  return "?";
}

bool EqualBool(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (IsNumber(a.kind()) && IsNumber(b.kind())) return CompareNumbers(a, b) == 0;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case K::kNull: return true;
    case K::kBool: return a.bool_value() == b.bool_value();
    case K::kString: return a.string_value() == b.string_value();
    case K::kBytes: return a.bytes_value() == b.bytes_value();
    case K::kType: return a.type_name() == b.type_name();
    case K::kQuantity: return a.quantity() == b.quantity();
    case K::kSemver: return a.semver().Compare(b.semver()) == 0;
    case K::kOptional: {
      const Value* x = a.optional_value();
      const Value* y = b.optional_value();
      if (!x || !y) return !x && !y;
      return EqualBool(*x, *y);
    }
    case K::kList: {
      const auto& x = a.list();
      const auto& y = b.list();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!EqualBool(x[i], y[i])) return false;
      return true;
    }
    case K::kMap: {
      const MapValue& x = a.map();
      const MapValue& y = b.map();
      if (x.entries.size() != y.entries.size()) return false;
      for (const auto& [k, v] : x.entries) {
        const Value* other = y.Find(k);
        if (other == nullptr || !EqualBool(v, *other)) return false;
      }
      return true;
    }
    default: return false;
  }
}

Value Equal(const Value& a, const Value& b) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  return Value::Bool(EqualBool(a, b));
}

std::optional<int> Compare(const Value& a, const Value& b) {
  using K = Value::Kind;
  auto sgn = [](const auto& x, const auto& y) { return x < y ? -1 : (x > y ? 1 : 0); };
  if (IsNumber(a.kind()) && IsNumber(b.kind())) return CompareNumbers(a, b);
  if (a.kind() != b.kind()) return std::nullopt;
  switch (a.kind()) {
    case K::kBool: return sgn(a.bool_value(), b.bool_value());
    case K::kString: {
      int c = a.string_value().compare(b.string_value());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case K::kBytes: {
      int c = a.bytes_value().compare(b.bytes_value());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default: return std::nullopt;
  }
}

std::string FormatForError(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return "null";
    case Value::Kind::kBool: return v.bool_value() ? "true" : "false";
    case Value::Kind::kInt: return std::to_string(v.int_value());
    case Value::Kind::kUint: return std::to_string(v.uint_value());
    case Value::Kind::kDouble: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", v.double_value());
      return buf;
    }
    case Value::Kind::kString: return v.string_value();
    case Value::Kind::kBytes: return v.bytes_value();
    case Value::Kind::kType: return v.type_name();
    case Value::Kind::kQuantity: return v.quantity().String();
    case Value::Kind::kSemver: return v.semver().String();
    case Value::Kind::kOptional:
      return v.optional_value() ? "optional(" + FormatForError(*v.optional_value()) + ")" : "optional.none()";
    case Value::Kind::kError: return v.error();
    case Value::Kind::kList: {
      std::string s = "[";
      for (size_t i = 0; i < v.list().size(); ++i) s += (i ? " " : "") + FormatForError(v.list()[i]);
      return s + "]";
    }
    case Value::Kind::kMap: {
      std::string s = "map[";
      bool first = true;
      for (const auto& [k, e] : v.map().entries) {
        s += (first ? "" : " ") + FormatForError(k) + ":" + FormatForError(e);
        first = false;
      }
      return s + "]";
    }
  }
  return "";
}

}  // namespace gpusched::cel

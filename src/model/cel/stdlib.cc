// The CEL standard library (cel-spec doc/langdef.md "Standard Definitions";
// cel-go common/stdlib/standard.go declarations, common/types/*.go
// behaviour and error texts: "integer overflow", "division by zero",
// "modulus by zero", strconv's parse errors for string conversions).
// Operators the interpreter evaluates itself (&&, ||, ?:, [], @in,
// @not_strictly_false) are declared here for the checker with no impl.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <re2/re2.h>

#include "gpusched/model/cel/format_double.h"
#include "gpusched/model/cel/functions.h"

namespace gpusched::cel {
namespace {

using V = std::vector<Value>;
const Type kA = Type::Param("A");
const Type kB = Type::Param("B");

Value Overflow() { return Value::Error("integer overflow"); }
Value UintOverflow() { return Value::Error("unsigned integer overflow"); }

Value CompareOp(const V& a, bool (*pred)(int)) {
  std::optional<int> c = Compare(a[0], a[1]);
  if (!c) return NoSuchOverload();
  if (*c == 2) return Value::Error("NaN values cannot be ordered");
  return Value::Bool(pred(*c));
}

Value Add(const V& a) {
  const Value& x = a[0];
  const Value& y = a[1];
  using K = Value::Kind;
  if (x.kind() != y.kind()) return NoSuchOverload();
  switch (x.kind()) {
    case K::kInt: {
      int64_t r;
      if (__builtin_add_overflow(x.int_value(), y.int_value(), &r)) return Overflow();
      return Value::Int(r);
    }
    case K::kUint: {
      uint64_t r;
      if (__builtin_add_overflow(x.uint_value(), y.uint_value(), &r)) return UintOverflow();
      return Value::Uint(r);
    }
    case K::kDouble: return Value::Double(x.double_value() + y.double_value());
    case K::kString: return Value::String(x.string_value() + y.string_value());
    case K::kBytes: return Value::BytesOf(x.bytes_value() + y.bytes_value());
    case K::kList: {
      std::vector<Value> items = x.list();
      items.insert(items.end(), y.list().begin(), y.list().end());
      return Value::List(std::move(items));
    }
    default: return NoSuchOverload();
  }
}

Value Arith(const V& a, char op) {
  const Value& x = a[0];
  const Value& y = a[1];
  using K = Value::Kind;
  if (x.kind() != y.kind()) return NoSuchOverload();
  if (x.kind() == K::kInt) {
    int64_t p = x.int_value(), q = y.int_value(), r = 0;
    switch (op) {
      case '-': if (__builtin_sub_overflow(p, q, &r)) return Overflow(); return Value::Int(r);
      case '*': if (__builtin_mul_overflow(p, q, &r)) return Overflow(); return Value::Int(r);
      case '/':
        if (q == 0) return Value::Error("division by zero");
        if (p == INT64_MIN && q == -1) return Overflow();
        return Value::Int(p / q);
      case '%':
        if (q == 0) return Value::Error("modulus by zero");
        if (p == INT64_MIN && q == -1) return Overflow();
        return Value::Int(p % q);
    }
  }
  if (x.kind() == K::kUint) {
    uint64_t p = x.uint_value(), q = y.uint_value(), r = 0;
    switch (op) {
      case '-': if (__builtin_sub_overflow(p, q, &r)) return UintOverflow(); return Value::Uint(r);
      case '*': if (__builtin_mul_overflow(p, q, &r)) return UintOverflow(); return Value::Uint(r);
      case '/': if (q == 0) return Value::Error("division by zero"); return Value::Uint(p / q);
      case '%': if (q == 0) return Value::Error("modulus by zero"); return Value::Uint(p % q);
    }
  }
  if (x.kind() == K::kDouble) {
    double p = x.double_value(), q = y.double_value();
    switch (op) {
      case '-': return Value::Double(p - q);
      case '*': return Value::Double(p * q);
      case '/': return Value::Double(p / q);
    }
  }
  return NoSuchOverload();
}

Value Negate(const V& a) {
  if (a[0].kind() == Value::Kind::kInt) {
    if (a[0].int_value() == INT64_MIN) return Overflow();
    return Value::Int(-a[0].int_value());
  }
  if (a[0].kind() == Value::Kind::kDouble) return Value::Double(-a[0].double_value());
  return NoSuchOverload();
}

Value Size(const V& a) {
  const Value& x = a[0];
  switch (x.kind()) {
    case Value::Kind::kString: return Value::Int(CodePointCount(x.string_value()));
    case Value::Kind::kBytes: return Value::Int(static_cast<int64_t>(x.bytes_value().size()));
    case Value::Kind::kList: return Value::Int(static_cast<int64_t>(x.list().size()));
    case Value::Kind::kMap: return Value::Int(static_cast<int64_t>(x.map().entries.size()));
    default: return NoSuchOverload();
  }
}

std::string GoQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

Value ToInt(const V& a) {
  const Value& x = a[0];
  switch (x.kind()) {
    case Value::Kind::kInt: return x;
    case Value::Kind::kUint:
      if (x.uint_value() > static_cast<uint64_t>(INT64_MAX)) return Overflow();
      return Value::Int(static_cast<int64_t>(x.uint_value()));
    case Value::Kind::kDouble: {
      double d = x.double_value();
      // cel-go doubleToInt64Checked: NaN, infinities and out-of-range fail.
      if (!(d > -9223372036854775808.0 - 1 && d < 9223372036854775808.0) || std::isnan(d)) return Overflow();
      if (d <= -9223372036854775808.0) return Overflow();
      return Value::Int(static_cast<int64_t>(d));
    }
    case Value::Kind::kString: {
      const std::string& s = x.string_value();
      char* end = nullptr;
      errno = 0;
      long long v = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
      bool bad = s.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(s[0])) ||
                 (s[0] == '+' && s.size() == 1);
      if (bad) return Value::Error("strconv.ParseInt: parsing " + GoQuote(s) + ": invalid syntax");
      if (errno == ERANGE) return Value::Error("strconv.ParseInt: parsing " + GoQuote(s) + ": value out of range");
      return Value::Int(v);
    }
    default: return NoSuchOverload();
  }
}

Value ToUint(const V& a) {
  const Value& x = a[0];
  switch (x.kind()) {
    case Value::Kind::kUint: return x;
    case Value::Kind::kInt:
      if (x.int_value() < 0) return UintOverflow();
      return Value::Uint(static_cast<uint64_t>(x.int_value()));
    case Value::Kind::kDouble: {
      double d = x.double_value();
      if (std::isnan(d) || d < 0 || d >= 18446744073709551616.0) return UintOverflow();
      return Value::Uint(static_cast<uint64_t>(d));
    }
    case Value::Kind::kString: {
      const std::string& s = x.string_value();
      bool bad = s.empty() || s[0] < '0' || s[0] > '9';
      char* end = nullptr;
      errno = 0;
      unsigned long long v = bad ? 0 : std::strtoull(s.c_str(), &end, 10);
      if (bad || *end != '\0') return Value::Error("strconv.ParseUint: parsing " + GoQuote(s) + ": invalid syntax");
      if (errno == ERANGE) return Value::Error("strconv.ParseUint: parsing " + GoQuote(s) + ": value out of range");
      return Value::Uint(v);
    }
    default: return NoSuchOverload();
  }
}

Value ToDouble(const V& a) {
  const Value& x = a[0];
  switch (x.kind()) {
    case Value::Kind::kDouble: return x;
    case Value::Kind::kInt: return Value::Double(static_cast<double>(x.int_value()));
    case Value::Kind::kUint: return Value::Double(static_cast<double>(x.uint_value()));
    case Value::Kind::kString: {
      const std::string& s = x.string_value();
      std::optional<double> d = ParseDoubleGo(s);
      if (!d) return Value::Error("strconv.ParseFloat: parsing " + GoQuote(s) + ": invalid syntax");
      return Value::Double(*d);
    }
    default: return NoSuchOverload();
  }
}

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

Value ToString(const V& a) {
  const Value& x = a[0];
  switch (x.kind()) {
    case Value::Kind::kString: return x;
    case Value::Kind::kInt: return Value::String(std::to_string(x.int_value()));
    case Value::Kind::kUint: return Value::String(std::to_string(x.uint_value()));
    case Value::Kind::kDouble: return Value::String(FormatDoubleGo(x.double_value()));
    case Value::Kind::kBool: return Value::String(x.bool_value() ? "true" : "false");
    case Value::Kind::kBytes:
      if (!ValidUtf8(x.bytes_value())) return Value::Error("invalid UTF-8 in bytes, cannot convert to string");
      return Value::String(x.bytes_value());
    default: return NoSuchOverload();
  }
}

Value ToBool(const V& a) {
  const Value& x = a[0];
  if (x.kind() == Value::Kind::kBool) return x;
  if (x.kind() != Value::Kind::kString) return NoSuchOverload();
  // strconv.ParseBool.
  const std::string& s = x.string_value();
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return Value::Bool(true);
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") return Value::Bool(false);
  return Value::Error("strconv.ParseBool: parsing " + GoQuote(s) + ": invalid syntax");
}

Value Matches(const V& a) {
  if (a[0].kind() != Value::Kind::kString || a[1].kind() != Value::Kind::kString) return NoSuchOverload();
  std::shared_ptr<const RE2> re = CachedRegex(a[1].string_value());
  if (!re->ok()) return Value::Error("error parsing regexp: " + re->error());
  return Value::Bool(RE2::PartialMatch(a[0].string_value(), *re));
}

void Op(FunctionRegistry* r, const char* fn, const char* id, std::vector<Type> params, Type result, Impl impl,
        bool member = false) {
  r->Add(Overload{id, fn, member, std::move(params), std::move(result), impl});
}

}  // namespace

void AddStandardFunctions(FunctionRegistry* r) {
  const Type b = Type::Bool(), i = Type::Int(), u = Type::Uint(), d = Type::Double(), s = Type::String(),
             by = Type::Bytes();
  Op(r, "_&&_", "logical_and", {b, b}, b, nullptr);
  Op(r, "_||_", "logical_or", {b, b}, b, nullptr);
  Op(r, "_?_:_", "conditional", {b, kA, kA}, kA, nullptr);
  Op(r, "@not_strictly_false", "not_strictly_false", {b}, b, nullptr);
  Op(r, "!_", "logical_not", {b}, b, [](const V& a) {
    return a[0].kind() == Value::Kind::kBool ? Value::Bool(!a[0].bool_value()) : NoSuchOverload();
  });
  Op(r, "_==_", "equals", {kA, kA}, b, [](const V& a) { return Equal(a[0], a[1]); });
  Op(r, "_!=_", "not_equals", {kA, kA}, b, [](const V& a) {
    Value e = Equal(a[0], a[1]);
    return e.is_error() ? e : Value::Bool(!e.bool_value());
  });
  Op(r, "_[_]", "index_list", {Type::List(kA), i}, kA, nullptr);
  Op(r, "_[_]", "index_map", {Type::Map(kA, kB), kA}, kB, nullptr);
  Op(r, "@in", "in_list", {kA, Type::List(kA)}, b, nullptr);
  Op(r, "@in", "in_map", {kA, Type::Map(kA, kB)}, b, nullptr);

  // Orderings, with cel.CrossTypeNumericComparisons (k8s base.go).
  struct Cmp { const char* fn; const char* id; bool (*pred)(int); };
  static const Cmp kCmps[] = {
      {"_<_", "less", [](int c) { return c < 0; }},
      {"_<=_", "less_equals", [](int c) { return c <= 0; }},
      {"_>_", "greater", [](int c) { return c > 0; }},
      {"_>=_", "greater_equals", [](int c) { return c >= 0; }},
  };
  struct Pair { const char* suffix; Type x, y; };
  const Pair pairs[] = {{"_bool", b, b}, {"_int64", i, i}, {"_uint64", u, u}, {"_double", d, d}, {"_string", s, s},
                        {"_bytes", by, by}, {"_int64_uint64", i, u}, {"_int64_double", i, d}, {"_uint64_int64", u, i},
                        {"_uint64_double", u, d}, {"_double_int64", d, i}, {"_double_uint64", d, u}};
  for (const Cmp& c : kCmps) {
    for (const Pair& p : pairs) {
      Impl impl = nullptr;
      if (c.fn[1] == '<' && c.fn[2] == '_') impl = [](const V& a) { return CompareOp(a, [](int x) { return x < 0; }); };
      if (c.fn[1] == '<' && c.fn[2] == '=') impl = [](const V& a) { return CompareOp(a, [](int x) { return x <= 0; }); };
      if (c.fn[1] == '>' && c.fn[2] == '_') impl = [](const V& a) { return CompareOp(a, [](int x) { return x > 0; }); };
      if (c.fn[1] == '>' && c.fn[2] == '=') impl = [](const V& a) { return CompareOp(a, [](int x) { return x >= 0; }); };
      Op(r, c.fn, (std::string(c.id) + p.suffix).c_str(), {p.x, p.y}, b, impl);
    }
  }

  Op(r, "_+_", "add_int64", {i, i}, i, Add);
  Op(r, "_+_", "add_uint64", {u, u}, u, Add);
  Op(r, "_+_", "add_double", {d, d}, d, Add);
  Op(r, "_+_", "add_string", {s, s}, s, Add);
  Op(r, "_+_", "add_bytes", {by, by}, by, Add);
  Op(r, "_+_", "add_list", {Type::List(kA), Type::List(kA)}, Type::List(kA), Add);
  for (const auto& [fn, name, op] : {std::tuple{"_-_", "subtract", '-'}, std::tuple{"_*_", "multiply", '*'},
                                     std::tuple{"_/_", "divide", '/'}}) {
    Impl impl = op == '-' ? +[](const V& a) { return Arith(a, '-'); }
              : op == '*' ? +[](const V& a) { return Arith(a, '*'); }
                          : +[](const V& a) { return Arith(a, '/'); };
    Op(r, fn, (std::string(name) + "_int64").c_str(), {i, i}, i, impl);
    Op(r, fn, (std::string(name) + "_uint64").c_str(), {u, u}, u, impl);
    Op(r, fn, (std::string(name) + "_double").c_str(), {d, d}, d, impl);
  }
  Op(r, "_%_", "modulo_int64", {i, i}, i, [](const V& a) { return Arith(a, '%'); });
  Op(r, "_%_", "modulo_uint64", {u, u}, u, [](const V& a) { return Arith(a, '%'); });
  Op(r, "-_", "negate_int64", {i}, i, Negate);
  Op(r, "-_", "negate_double", {d}, d, Negate);

  Op(r, "size", "size_string", {s}, i, Size);
  Op(r, "size", "size_bytes", {by}, i, Size);
  Op(r, "size", "size_list", {Type::List(kA)}, i, Size);
  Op(r, "size", "size_map", {Type::Map(kA, kB)}, i, Size);
  Op(r, "size", "string_size", {s}, i, Size, true);
  Op(r, "size", "bytes_size", {by}, i, Size, true);
  Op(r, "size", "list_size", {Type::List(kA)}, i, Size, true);
  Op(r, "size", "map_size", {Type::Map(kA, kB)}, i, Size, true);

  Op(r, "contains", "contains_string", {s, s}, b, [](const V& a) {
    return Value::Bool(a[0].string_value().find(a[1].string_value()) != std::string::npos);
  }, true);
  Op(r, "startsWith", "starts_with_string", {s, s}, b, [](const V& a) {
    return Value::Bool(a[0].string_value().starts_with(a[1].string_value()));
  }, true);
  Op(r, "endsWith", "ends_with_string", {s, s}, b, [](const V& a) {
    return Value::Bool(a[0].string_value().ends_with(a[1].string_value()));
  }, true);
  Op(r, "matches", "matches", {s, s}, b, Matches);
  Op(r, "matches", "matches_string", {s, s}, b, Matches, true);

  Op(r, "int", "int64_to_int64", {i}, i, ToInt);
  Op(r, "int", "uint64_to_int64", {u}, i, ToInt);
  Op(r, "int", "double_to_int64", {d}, i, ToInt);
  Op(r, "int", "string_to_int64", {s}, i, ToInt);
  Op(r, "uint", "uint64_to_uint64", {u}, u, ToUint);
  Op(r, "uint", "int64_to_uint64", {i}, u, ToUint);
  Op(r, "uint", "double_to_uint64", {d}, u, ToUint);
  Op(r, "uint", "string_to_uint64", {s}, u, ToUint);
  Op(r, "double", "double_to_double", {d}, d, ToDouble);
  Op(r, "double", "int64_to_double", {i}, d, ToDouble);
  Op(r, "double", "uint64_to_double", {u}, d, ToDouble);
  Op(r, "double", "string_to_double", {s}, d, ToDouble);
  Op(r, "string", "string_to_string", {s}, s, ToString);
  Op(r, "string", "int64_to_string", {i}, s, ToString);
  Op(r, "string", "uint64_to_string", {u}, s, ToString);
  Op(r, "string", "double_to_string", {d}, s, ToString);
  Op(r, "string", "bytes_to_string", {by}, s, ToString);
  Op(r, "string", "bool_to_string", {b}, s, ToString);
  Op(r, "bytes", "bytes_to_bytes", {by}, by, [](const V& a) { return a[0]; });
  Op(r, "bytes", "string_to_bytes", {s}, by, [](const V& a) {
    return a[0].kind() == Value::Kind::kString ? Value::BytesOf(a[0].string_value()) : NoSuchOverload();
  });
  Op(r, "bool", "bool_to_bool", {b}, b, ToBool);
  Op(r, "bool", "string_to_bool", {s}, b, ToBool);
  Op(r, "dyn", "to_dyn", {kA}, Type::Dyn(), [](const V& a) { return a[0]; });
  Op(r, "type", "type", {kA}, Type::TypeOf(kA), [](const V& a) { return Value::Type(RuntimeTypeName(a[0])); });
}

}  // namespace gpusched::cel

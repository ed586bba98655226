// The Kubernetes CEL libraries of the DRA environment
// (k8s.io/apiserver/pkg/cel/library): quantity.go (quantity, isQuantity,
// sign, isGreaterThan, isLessThan, compareTo, asApproximateFloat,
// asInteger, isInteger, add, sub), semverlib.go at SemverVersion(1)
// (semver and isSemver with the normalize flag, major, minor, patch,
// compareTo, isGreaterThan, isLessThan), regex.go (find, findAll) and
// lists.go (isSorted, sum, min, max, indexOf, lastIndexOf), plus cel-go
// ext.Sets (sets.contains, sets.equivalent, sets.intersects) and part of
// ext.Lists v3 (slice, flatten, distinct, reverse, sort).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <re2/re2.h>

#include "gpusched/model/cel/functions.h"

namespace gpusched::cel {
namespace {

using V = std::vector<Value>;

Value ParseQuantity(const V& a) {
  Result<Quantity> q = Quantity::Parse(a[0].string_value());
  if (!q.ok()) return Value::Error(q.status().message());
  return Value::OfQuantity(*q);
}

// The arithmetic keeps the value within what Quantity can represent
// (milli-value within int64); beyond it is an error rather than overflow.
Value CheckedQuantity(const Quantity& q) {
  static const Quantity kMax = Quantity::FromMilli(std::numeric_limits<int64_t>::max());
  static const Quantity kMin = Quantity::FromMilli(std::numeric_limits<int64_t>::min() + 1);
  if (q > kMax || q < kMin) return Value::Error("quantity too large");
  return Value::OfQuantity(q);
}

Value QuantityAdd(const V& a, bool subtract) {
  Quantity sum = a[0].quantity();
  Quantity other;
  if (a[1].kind() == Value::Kind::kInt) {
    int64_t i = a[1].int_value();
    if (subtract && i == std::numeric_limits<int64_t>::min()) return Value::Error("quantity too large");
    // quantityAddInt: resource.NewQuantity(i, DecimalExponent).
    if (i > std::numeric_limits<int64_t>::max() / 1000 || i < std::numeric_limits<int64_t>::min() / 1000)
      return Value::Error("quantity too large");
    other = Quantity::FromInt(subtract ? -i : i, Quantity::Format::kDecimalExponent);
  } else {
    other = a[1].quantity();
    if (subtract && other.Sign() != 0) {
      // Quantity has no negation: print, flip the sign, parse.
      std::string t = other.String();
      Result<Quantity> neg = Quantity::Parse(t[0] == '-' ? t.substr(1) : "-" + t);
      if (!neg.ok()) return Value::Error(neg.status().message());
      other = *neg;
    }
  }
  sum.Add(other);
  return CheckedQuantity(sum);
}

Value SemverOf(const V& a) {
  bool normalize = a.size() > 1 && a[1].bool_value();
  Result<Semver> v = normalize ? Semver::ParseNormalized(a[0].string_value()) : Semver::Parse(a[0].string_value());
  if (!v.ok()) return Value::Error(v.status().message());
  return Value::OfSemver(*v);
}

Value IsSemver(const V& a) {
  bool normalize = a.size() > 1 && a[1].bool_value();
  Result<Semver> v = normalize ? Semver::ParseNormalized(a[0].string_value()) : Semver::Parse(a[0].string_value());
  return Value::Bool(v.ok());
}

int Cmp3(const Value& a, const Value& b) {
  if (a.kind() == Value::Kind::kSemver) return a.semver().Compare(b.semver());
  auto c = a.quantity() <=> b.quantity();
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

Value Find(const V& a, bool all) {
  std::shared_ptr<const RE2> compiled = CachedRegex(a[1].string_value());
  const RE2& re = *compiled;
  if (!re.ok()) return Value::Error("Illegal regex: " + re.error());
  const std::string& s = a[0].string_value();
  if (!all) {
    re2::StringPiece m;
    if (!re.Match(s, 0, s.size(), RE2::UNANCHORED, &m, 1)) return Value::String("");
    return Value::String(std::string(m.data(), m.size()));
  }
  int64_t n = a.size() > 2 ? a[2].int_value() : -1;
  std::vector<Value> out;
  size_t pos = 0;
  bool prev_empty_at = false;
  size_t prev_end = std::string::npos;
  while (pos <= s.size() && (n < 0 || static_cast<int64_t>(out.size()) < n)) {
    re2::StringPiece m;
    if (!re.Match(s, pos, s.size(), RE2::UNANCHORED, &m, 1)) break;
    size_t start = static_cast<size_t>(m.data() - s.data());
    size_t end = start + m.size();
    // Go's FindAllString skips an empty match right after the previous match.
    if (m.empty() && start == prev_end) {
      prev_empty_at = true;
    } else {
      out.push_back(Value::String(std::string(m.data(), m.size())));
    }
    prev_end = end;
    pos = end > start ? end : start + 1;
  }
  (void)prev_empty_at;
  return Value::List(std::move(out));
}

Value ListFold(const V& a, const char* op) {
  const std::vector<Value>& l = a[0].list();
  std::string name = op;
  if (name == "isSorted") {
    for (size_t i = 1; i < l.size(); ++i) {
      std::optional<int> c = Compare(l[i - 1], l[i]);
      if (!c) return NoSuchOverload();
      if (*c == 1) return Value::Bool(false);
    }
    return Value::Bool(true);
  }
  if (name == "sum") {
    if (l.empty()) return Value::Int(0);
    Value acc = l[0];
    for (size_t i = 1; i < l.size(); ++i) {
      const FunctionRegistry& r = FunctionRegistry::Get();
      const Overload& add = (*r.Find("_+_"))[0];
      acc = add.impl({acc, l[i]});
      if (acc.is_error()) return acc;
    }
    return acc;
  }
  if (l.empty()) return Value::Error(name + "(list) called on empty list");
  Value best = l[0];
  for (size_t i = 1; i < l.size(); ++i) {
    std::optional<int> c = Compare(l[i], best);
    if (!c) return NoSuchOverload();
    if ((name == "min" && *c == -1) || (name == "max" && *c == 1)) best = l[i];
  }
  return best;
}

Value ListIndexOf(const V& a, bool last) {
  const std::vector<Value>& l = a[0].list();
  if (!last) {
    for (size_t i = 0; i < l.size(); ++i)
      if (EqualBool(l[i], a[1])) return Value::Int(static_cast<int64_t>(i));
  } else {
    for (size_t i = l.size(); i-- > 0;)
      if (EqualBool(l[i], a[1])) return Value::Int(static_cast<int64_t>(i));
  }
  return Value::Int(-1);
}

// cel-go ext/lists.go (ext.Lists at version 3, k8s base.go since 1.34):
// slice, flatten, distinct, reverse, sort. lists.range, sortBy and
// first/last (optional results) are not implemented.
Value Slice(const V& a) {
  const std::vector<Value>& l = a[0].list();
  int64_t start = a[1].int_value(), end = a[2].int_value();
  std::string range = "cannot slice(" + std::to_string(start) + ", " + std::to_string(end) + "), ";
  if (start < 0 || end < 0) return Value::Error(range + "negative indexes not supported");
  if (start > end) return Value::Error(range + "start index must be less than or equal to end index");
  if (static_cast<int64_t>(l.size()) < end)
    return Value::Error(range + "list is length " + std::to_string(l.size()));
  return Value::List(std::vector<Value>(l.begin() + start, l.begin() + end));
}

void FlattenInto(const std::vector<Value>& l, int64_t depth, std::vector<Value>* out) {
  for (const Value& v : l) {
    if (v.kind() != Value::Kind::kList || depth == 0) {
      out->push_back(v);
    } else {
      FlattenInto(v.list(), depth - 1, out);
    }
  }
}

Value Flatten(const V& a) {
  int64_t depth = a.size() > 1 ? a[1].int_value() : 1;
  if (depth < 0) return Value::Error("level must be non-negative");
  // Lists nest no deeper than the expression that built them (at most a few
  // hundred levels), so the recursion is bounded.
  std::vector<Value> out;
  FlattenInto(a[0].list(), std::min<int64_t>(depth, 1000), &out);
  return Value::List(std::move(out));
}

Value Distinct(const V& a) {
  std::vector<Value> out;
  for (const Value& v : a[0].list()) {
    bool seen = false;
    for (const Value& o : out)
      if (EqualBool(o, v)) {
        seen = true;
        break;
      }
    if (!seen) out.push_back(v);
  }
  return Value::List(std::move(out));
}

Value Reverse(const V& a) {
  std::vector<Value> out(a[0].list().rbegin(), a[0].list().rend());
  return Value::List(std::move(out));
}

// sortListByAssociatedKeys with the list as its own keys: elements of one
// comparable type, in a stable order.
Value Sort(const V& a) {
  std::vector<Value> out = a[0].list();
  if (out.empty()) return a[0];
  Value::Kind k = out[0].kind();
  if (!Compare(out[0], out[0])) return Value::Error("list elements must be comparable");
  for (const Value& v : out)
    if (v.kind() != k) return Value::Error("list elements must have the same type");
  std::stable_sort(out.begin(), out.end(), [](const Value& x, const Value& y) { return Compare(x, y) == -1; });
  return Value::List(std::move(out));
}

bool ListHas(const std::vector<Value>& l, const Value& v) {
  for (const Value& x : l)
    if (EqualBool(x, v)) return true;
  return false;
}

void Fn(FunctionRegistry* r, const char* fn, const char* id, bool member, std::vector<Type> params, Type result,
        Impl impl) {
  r->Add(Overload{id, fn, member, std::move(params), std::move(result), impl});
}

}  // namespace

void AddKubernetesFunctions(FunctionRegistry* r) {
  const Type q = Type::Quantity(), sv = Type::Semver(), s = Type::String(), b = Type::Bool(), i = Type::Int(),
             d = Type::Double();
  Fn(r, "quantity", "string_to_quantity", false, {s}, q, ParseQuantity);
  Fn(r, "isQuantity", "is_quantity_string", false, {s}, b,
     [](const V& a) { return Value::Bool(Quantity::Parse(a[0].string_value()).ok()); });
  Fn(r, "sign", "quantity_sign", false, {q}, i, [](const V& a) { return Value::Int(a[0].quantity().Sign()); });
  Fn(r, "isGreaterThan", "quantity_is_greater_than", true, {q, q}, b,
     [](const V& a) { return Value::Bool(Cmp3(a[0], a[1]) == 1); });
  Fn(r, "isLessThan", "quantity_is_less_than", true, {q, q}, b,
     [](const V& a) { return Value::Bool(Cmp3(a[0], a[1]) == -1); });
  Fn(r, "compareTo", "quantity_compare_to", true, {q, q}, i, [](const V& a) { return Value::Int(Cmp3(a[0], a[1])); });
  Fn(r, "asApproximateFloat", "quantity_get_float", true, {q}, d, [](const V& a) {
    const Quantity& x = a[0].quantity();
    int64_t milli = x.MilliValue();
    // Exact enough while the milli-value is within 2^53; beyond, whole units.
    if (milli > -(int64_t{1} << 53) && milli < (int64_t{1} << 53)) return Value::Double(static_cast<double>(milli) / 1000.0);
    return Value::Double(static_cast<double>(x.Value()));
  });
  Fn(r, "asInteger", "quantity_get_int", true, {q}, i, [](const V& a) {
    const Quantity& x = a[0].quantity();
    if (Quantity::FromInt(x.Value()) != x) return Value::Error("cannot convert value to integer");
    return Value::Int(x.Value());
  });
  Fn(r, "isInteger", "quantity_is_integer", true, {q}, b,
     [](const V& a) { return Value::Bool(Quantity::FromInt(a[0].quantity().Value()) == a[0].quantity()); });
  Fn(r, "add", "quantity_add", true, {q, q}, q, [](const V& a) { return QuantityAdd(a, false); });
  Fn(r, "add", "quantity_add_int", true, {q, i}, q, [](const V& a) { return QuantityAdd(a, false); });
  Fn(r, "sub", "quantity_sub", true, {q, q}, q, [](const V& a) { return QuantityAdd(a, true); });
  Fn(r, "sub", "quantity_sub_int", true, {q, i}, q, [](const V& a) { return QuantityAdd(a, true); });

  Fn(r, "semver", "string_to_semver", false, {s}, sv, SemverOf);
  Fn(r, "semver", "string_bool_to_semver", false, {s, b}, sv, SemverOf);
  Fn(r, "isSemver", "is_semver_string", false, {s}, b, IsSemver);
  Fn(r, "isSemver", "is_semver_string_bool", false, {s, b}, b, IsSemver);
  Fn(r, "isGreaterThan", "semver_is_greater_than", true, {sv, sv}, b,
     [](const V& a) { return Value::Bool(Cmp3(a[0], a[1]) == 1); });
  Fn(r, "isLessThan", "semver_is_less_than", true, {sv, sv}, b,
     [](const V& a) { return Value::Bool(Cmp3(a[0], a[1]) == -1); });
  Fn(r, "compareTo", "semver_compare_to", true, {sv, sv}, i, [](const V& a) { return Value::Int(Cmp3(a[0], a[1])); });
  Fn(r, "major", "semver_major", true, {sv}, i, [](const V& a) { return Value::Int(static_cast<int64_t>(a[0].semver().major)); });
  Fn(r, "minor", "semver_minor", true, {sv}, i, [](const V& a) { return Value::Int(static_cast<int64_t>(a[0].semver().minor)); });
  Fn(r, "patch", "semver_patch", true, {sv}, i, [](const V& a) { return Value::Int(static_cast<int64_t>(a[0].semver().patch)); });

  Fn(r, "find", "string_find_string", true, {s, s}, s, [](const V& a) { return Find(a, false); });
  Fn(r, "findAll", "string_find_all_string", true, {s, s}, Type::List(s), [](const V& a) { return Find(a, true); });
  Fn(r, "findAll", "string_find_all_string_int", true, {s, s, i}, Type::List(s), [](const V& a) { return Find(a, true); });

  const Type e = Type::Param("A");
  const Type le = Type::List(e);
  Fn(r, "isSorted", "list_is_sorted", true, {le}, b, [](const V& a) { return ListFold(a, "isSorted"); });
  Fn(r, "sum", "list_sum", true, {le}, e, [](const V& a) { return ListFold(a, "sum"); });
  Fn(r, "min", "list_min", true, {le}, e, [](const V& a) { return ListFold(a, "min"); });
  Fn(r, "max", "list_max", true, {le}, e, [](const V& a) { return ListFold(a, "max"); });
  Fn(r, "indexOf", "list_index_of", true, {le, e}, i, [](const V& a) { return ListIndexOf(a, false); });
  Fn(r, "lastIndexOf", "list_last_index_of", true, {le, e}, i, [](const V& a) { return ListIndexOf(a, true); });

  Fn(r, "slice", "list_slice", true, {le, i, i}, le, Slice);
  Fn(r, "flatten", "list_flatten", true, {Type::List(le)}, le, Flatten);
  Fn(r, "flatten", "list_flatten_int", true, {Type::List(Type::Dyn()), i}, Type::List(Type::Dyn()), Flatten);
  Fn(r, "distinct", "list_distinct", true, {le}, le, Distinct);
  Fn(r, "reverse", "list_reverse", true, {le}, le, Reverse);
  Fn(r, "sort", "list_sort", true, {le}, le, Sort);

  // ext/comprehensions.go: the accumulator step of transformMap and
  // transformMapEntry.
  const Type k = Type::Param("K"), v = Type::Param("V");
  Fn(r, "cel.@mapInsert", "@mapInsert_map_key_value", false, {Type::Map(k, v), k, v}, Type::Map(k, v), [](const V& a) {
    if (a[0].map().Find(a[1])) return Value::Error("insert failed: key " + FormatForError(a[1]) + " already exists");
    auto m = std::make_shared<MapValue>(a[0].map());
    m->default_empty = false;
    m->entries.emplace_back(a[1], a[2]);
    return Value::Map(std::move(m));
  });
  Fn(r, "cel.@mapInsert", "@mapInsert_map_map", false, {Type::Map(k, v), Type::Map(k, v)}, Type::Map(k, v),
     [](const V& a) {
       auto m = std::make_shared<MapValue>(a[0].map());
       m->default_empty = false;
       for (const auto& [key, value] : a[1].map().entries) {
         if (m->Find(key)) return Value::Error("insert failed: key " + FormatForError(key) + " already exists");
         m->entries.emplace_back(key, value);
       }
       return Value::Map(std::move(m));
     });

  Fn(r, "sets.contains", "list_sets_contains_list", false, {le, le}, b, [](const V& a) {
    for (const Value& v : a[1].list())
      if (!ListHas(a[0].list(), v)) return Value::Bool(false);
    return Value::Bool(true);
  });
  Fn(r, "sets.equivalent", "list_sets_equivalent_list", false, {le, le}, b, [](const V& a) {
    for (const Value& v : a[1].list())
      if (!ListHas(a[0].list(), v)) return Value::Bool(false);
    for (const Value& v : a[0].list())
      if (!ListHas(a[1].list(), v)) return Value::Bool(false);
    return Value::Bool(true);
  });
  Fn(r, "sets.intersects", "list_sets_intersects_list", false, {le, le}, b, [](const V& a) {
    for (const Value& v : a[1].list())
      if (ListHas(a[0].list(), v)) return Value::Bool(true);
    return Value::Bool(false);
  });
}

}  // namespace gpusched::cel

// cel-go ext.Strings at version 2 (ext/strings.go), which k8s base.go enables
// since 1.29: charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace,
// split, substring, trim and join, with their code-point indexing and error
// texts ("index out of range: 7", "invalid substring range. start: 2, end:
// 1"), and strings.quote. format is not implemented.
#include <cstdint>
#include <string>

#include "gpusched/model/cel/functions.h"

namespace gpusched::cel {
namespace {

using V = std::vector<Value>;

// Decodes UTF-8 as Go's []rune(s) does (invalid bytes become U+FFFD).
std::u32string Runes(const std::string& s) {
  std::u32string out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; ok && k < n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (!ok) {
      out += U'\uFFFD';
      ++i;
      continue;
    }
    out += cp;
    i += n;
  }
  return out;
}

std::string Utf8(const std::u32string& r, size_t from = 0, size_t to = std::u32string::npos) {
  std::string out;
  to = std::min(to, r.size());
  for (size_t i = from; i < to; ++i) {
    char32_t cp = r[i];
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

Value OutOfRange(int64_t i) { return Value::Error("index out of range: " + std::to_string(i)); }

// Our guard, not upstream's: replace() is priced by its input, so a short
// string with a long replacement could otherwise ask for gigabytes within
// the cost limit.
constexpr size_t kMaxResultBytes = size_t{1} << 24;
Value TooLarge() { return Value::Error("replace: result larger than 16 MiB"); }

Value CharAt(const V& a) {
  std::u32string r = Runes(a[0].string_value());
  int64_t i = a[1].int_value();
  if (i < 0 || i > static_cast<int64_t>(r.size())) return OutOfRange(i);
  return Value::String(Utf8(r, static_cast<size_t>(i), static_cast<size_t>(i) + 1));
}

bool MatchAt(const std::u32string& r, const std::u32string& sub, size_t i) { return r.compare(i, sub.size(), sub) == 0; }

// cel-go ext/strings.go indexOfOffset / lastIndexOfOffset as cel-spec's
// string_ext conformance tests pin them: an empty needle matches at the
// offset; an offset outside the string is "index out of range".
Value IndexOf(const V& a) {
  std::u32string r = Runes(a[0].string_value());
  std::u32string sub = Runes(a[1].string_value());
  int64_t off = a.size() > 2 ? a[2].int_value() : 0;
  int64_t n = static_cast<int64_t>(r.size());
  if (sub.empty()) return Value::Int(off);
  if (off < 0 || off >= n) return a.size() > 2 ? OutOfRange(off) : Value::Int(-1);
  for (int64_t i = off; i + static_cast<int64_t>(sub.size()) <= n; ++i)
    if (MatchAt(r, sub, static_cast<size_t>(i))) return Value::Int(i);
  return Value::Int(-1);
}

Value LastIndexOf(const V& a) {
  std::u32string r = Runes(a[0].string_value());
  std::u32string sub = Runes(a[1].string_value());
  int64_t n = static_cast<int64_t>(r.size());
  if (a.size() == 2) {
    if (sub.empty()) return Value::Int(n);
    if (n == 0) return Value::Int(-1);
  }
  int64_t off = a.size() > 2 ? a[2].int_value() : n - 1;
  if (sub.empty()) return Value::Int(off);
  if (off < 0 || off >= n) return OutOfRange(off);
  int64_t m = static_cast<int64_t>(sub.size());
  if (off > n - m) off = n - m;
  for (int64_t i = off; i >= 0; --i)
    if (MatchAt(r, sub, static_cast<size_t>(i))) return Value::Int(i);
  return Value::Int(-1);
}

Value Case(const V& a, bool upper) {
  std::string s = a[0].string_value();
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value::String(std::move(s));
}

// Go strings.Replace(s, old, new, n).
Value Replace(const V& a) {
  const std::string& s = a[0].string_value();
  const std::string& from = a[1].string_value();
  const std::string& to = a[2].string_value();
  int64_t n = a.size() > 3 ? a[3].int_value() : -1;
  if (n == 0 || (from == to)) return a[0];
  std::string out;
  if (from.empty()) {
    std::u32string r = Runes(s);
    int64_t done = 0;
    for (size_t i = 0; i <= r.size(); ++i) {
      if (n < 0 || done < n) {
        out += to;
        ++done;
      }
      if (i < r.size()) out += Utf8(r, i, i + 1);
      if (out.size() > kMaxResultBytes) return TooLarge();
    }
    return Value::String(std::move(out));
  }
  size_t pos = 0;
  int64_t done = 0;
  while (n < 0 || done < n) {
    size_t f = s.find(from, pos);
    if (f == std::string::npos) break;
    out.append(s, pos, f - pos);
    out += to;
    pos = f + from.size();
    ++done;
    if (out.size() > kMaxResultBytes) return TooLarge();
  }
  out.append(s, pos, std::string::npos);
  return Value::String(std::move(out));
}

// Go strings.SplitN (n < 0: all parts).
Value Split(const V& a) {
  const std::string& s = a[0].string_value();
  const std::string& sep = a[1].string_value();
  int64_t n = a.size() > 2 ? a[2].int_value() : -1;
  std::vector<Value> parts;
  if (n == 0) return Value::List({});
  if (sep.empty()) {
    std::u32string r = Runes(s);
    for (size_t i = 0; i < r.size(); ++i) {
      if (n > 0 && static_cast<int64_t>(parts.size()) == n - 1) {
        parts.push_back(Value::String(Utf8(r, i)));
        break;
      }
      parts.push_back(Value::String(Utf8(r, i, i + 1)));
    }
    return Value::List(std::move(parts));
  }
  size_t pos = 0;
  while (n < 0 || static_cast<int64_t>(parts.size()) < n - 1) {
    size_t f = s.find(sep, pos);
    if (f == std::string::npos) break;
    parts.push_back(Value::String(s.substr(pos, f - pos)));
    pos = f + sep.size();
  }
  parts.push_back(Value::String(s.substr(pos)));
  return Value::List(std::move(parts));
}

Value Substring(const V& a) {
  std::u32string r = Runes(a[0].string_value());
  int64_t l = static_cast<int64_t>(r.size());
  int64_t start = a[1].int_value();
  int64_t end = a.size() > 2 ? a[2].int_value() : l;
  if (a.size() == 2) {
    if (start < 0 || start > l) return OutOfRange(start);
    return Value::String(Utf8(r, static_cast<size_t>(start)));
  }
  if (start > end)
    return Value::Error("invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(end));
  if (start < 0 || start > l) return OutOfRange(start);
  if (end < 0 || end > l) return OutOfRange(end);
  return Value::String(Utf8(r, static_cast<size_t>(start), static_cast<size_t>(end)));
}

// Go unicode.IsSpace, which strings.TrimSpace uses.
bool IsSpace(char32_t c) {
  switch (c) {
    case U'\t': case U'\n': case U'\v': case U'\f': case U'\r': case U' ': case U'\u0085': case U'\u00A0':
    case U'\u1680': case U'\u2028': case U'\u2029': case U'\u202F': case U'\u205F': case U'\u3000':
      return true;
    default:
      return c >= U'\u2000' && c <= U'\u200A';
  }
}

Value Trim(const V& a) {
  std::u32string r = Runes(a[0].string_value());
  size_t b = 0, e = r.size();
  while (b < e && IsSpace(r[b])) ++b;
  while (e > b && IsSpace(r[e - 1])) --e;
  return Value::String(Utf8(r, b, e));
}

// strings.quote (ext/strings.go quote): the C-style escapes, invalid UTF-8
// as U+FFFD, in double quotes.
Value Quote(const V& a) {
  std::u32string r = Runes(a[0].string_value());
  std::string out = "\"";
  for (char32_t c : r) {
    switch (c) {
      case U'\a': out += "\\a"; break;
      case U'\b': out += "\\b"; break;
      case U'\f': out += "\\f"; break;
      case U'\n': out += "\\n"; break;
      case U'\r': out += "\\r"; break;
      case U'\t': out += "\\t"; break;
      case U'\v': out += "\\v"; break;
      case U'\\': out += "\\\\"; break;
      case U'"': out += "\\\""; break;
      default: out += Utf8(std::u32string(1, c));
    }
  }
  return Value::String(out + "\"");
}

Value Join(const V& a) {
  std::string sep = a.size() > 1 ? a[1].string_value() : "";
  std::string out;
  bool first = true;
  for (const Value& v : a[0].list()) {
    if (v.kind() != Value::Kind::kString) return Value::Error("join: invalid input: " + FormatForError(v));
    if (!first) out += sep;
    out += v.string_value();
    first = false;
  }
  return Value::String(std::move(out));
}

void M(FunctionRegistry* r, const char* fn, const char* id, std::vector<Type> params, Type result, Impl impl) {
  r->Add(Overload{id, fn, true, std::move(params), std::move(result), impl});
}

}  // namespace

void AddStringFunctions(FunctionRegistry* r) {
  const Type s = Type::String(), i = Type::Int();
  M(r, "charAt", "string_char_at_int", {s, i}, s, CharAt);
  M(r, "indexOf", "string_index_of_string", {s, s}, i, IndexOf);
  M(r, "indexOf", "string_index_of_string_int", {s, s, i}, i, IndexOf);
  M(r, "lastIndexOf", "string_last_index_of_string", {s, s}, i, LastIndexOf);
  M(r, "lastIndexOf", "string_last_index_of_string_int", {s, s, i}, i, LastIndexOf);
  M(r, "lowerAscii", "string_lower_ascii", {s}, s, [](const V& a) { return Case(a, false); });
  M(r, "upperAscii", "string_upper_ascii", {s}, s, [](const V& a) { return Case(a, true); });
  M(r, "replace", "string_replace_string_string", {s, s, s}, s, Replace);
  M(r, "replace", "string_replace_string_string_int", {s, s, s, i}, s, Replace);
  M(r, "split", "string_split_string", {s, s}, Type::List(s), Split);
  M(r, "split", "string_split_string_int", {s, s, i}, Type::List(s), Split);
  M(r, "substring", "string_substring_int", {s, i}, s, Substring);
  M(r, "substring", "string_substring_int_int", {s, i, i}, s, Substring);
  M(r, "trim", "string_trim", {s}, s, Trim);
  r->Add(Overload{"strings_quote", "strings.quote", false, {s}, s, Quote});
  M(r, "join", "list_join", {Type::List(s)}, s, Join);
  M(r, "join", "list_join_string", {Type::List(s), s}, s, Join);
}

}  // namespace gpusched::cel

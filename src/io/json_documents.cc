#include "gpusched/io/json_documents.h"

#include <simdjson.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpusched/io/yaml_documents.h"

namespace gpusched {
namespace {

namespace od = simdjson::ondemand;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

const char* SkipSpace(const char* p, const char* end) {
  while (p < end && IsSpace(*p)) ++p;
  return p;
}

// The closing quote of the string whose opening quote is at p, or nullptr.
const char* StringEnd(const char* p, const char* end) {
  for (const char* q = p + 1; q < end;) {
    const void* hit = std::memchr(q, '"', static_cast<size_t>(end - q));
    if (!hit) return nullptr;
    const char* quote = static_cast<const char*>(hit);
    size_t backslashes = 0;
    for (const char* b = quote - 1; b > p && *b == '\\'; --b) ++backslashes;
    if (backslashes % 2 == 0) return quote;
    q = quote + 1;
  }
  return nullptr;
}

// One past the end of the value starting at p: a balanced object or array
// (strings skipped), or a scalar up to the next delimiter. Only finds where
// a value ends; the JSON parser then checks it. nullptr when unterminated.
// Containers are scanned 16 bytes at a time (SSE2): this pass reads every
// byte of a List once more than the parser does.
const char* ValueEnd(const char* p, const char* end) {
  if (p >= end) return nullptr;
  if (*p == '"') {
    const char* q = StringEnd(p, end);
    return q ? q + 1 : nullptr;
  }
  if (*p != '{' && *p != '[') {
    while (p < end && !IsSpace(*p) && *p != ',' && *p != '}' && *p != ']' && *p != '{' && *p != '[') ++p;
    return p;
  }
  int depth = 0;
  bool in_string = false, escaped = false;
  const char* q = p;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  // '{' 0x7B, '}' 0x7D, '[' 0x5B, ']' 0x5D: equal to 0x5B or 0x5D once bit 5 is cleared.
  const __m128i fold = _mm_set1_epi8(static_cast<char>(~0x20)), open = _mm_set1_epi8('['), close = _mm_set1_epi8(']');
#endif
  while (q < end) {
#if defined(__SSE2__)
    if (!escaped && q + 16 <= end) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) == 0) {
        const __m128i f = _mm_and_si128(v, fold);
        const unsigned quotes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)));
        const unsigned opens = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(f, open)));
        const unsigned closes_all = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(f, close)));
        // Which bytes are inside a string: the running parity of quotes
        // (a prefix XOR), flipped when the block starts inside one.
        unsigned inside = quotes;
        inside ^= inside << 1;
        inside ^= inside << 2;
        inside ^= inside << 4;
        inside ^= inside << 8;
        inside &= 0xFFFF;
        if (in_string) inside ^= 0xFFFF;
        const unsigned brackets = (opens | closes_all) & ~inside;
        const unsigned closing = closes_all & ~inside;
        const int n_close = __builtin_popcount(closing);
        if (depth > n_close) {  // the value cannot end in this block
          depth += __builtin_popcount(brackets) - 2 * n_close;
        } else {
          for (unsigned events = brackets; events; events &= events - 1) {
            const int i = __builtin_ctz(events);
            if (!((closing >> i) & 1)) {
              ++depth;
            } else if (--depth == 0) {
              return q + i + 1;
            }
          }
        }
        in_string = (inside >> 15) & 1;
        q += 16;
        continue;
      }
    }
#endif
    // A byte at a time where there are escapes (and at the end).
    const char c = *q++;
    if (escaped) {
      escaped = false;
    } else if (in_string) {
      if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return q;
    }
  }
  return nullptr;
}

// Line and column (1-based) of positions in the text, for positions that
// never go backwards: counting lines stays linear in the input.
class Locator {
 public:
  Locator(const char* start, int first_line) : line_start_(start), scanned_(start), line_(first_line) {}
  std::pair<int, int> operator()(const char* p) {
    if (p > scanned_) {
      for (const char* q = scanned_;;) {
        const void* nl = std::memchr(q, '\n', static_cast<size_t>(p - q));
        if (!nl) break;
        ++line_;
        q = static_cast<const char*>(nl) + 1;
        line_start_ = q;
      }
      scanned_ = p;
    }
    if (p < line_start_) return {line_, 1};  // never: callers go forwards
    return {line_, static_cast<int>(p - line_start_) + 1};
  }

 private:
  const char* line_start_;
  const char* scanned_;
  int line_;
};

// A JSON number as RFC 8259 writes it (simdjson checks numbers only when
// asked for their value).
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// Go's name for a character in its json errors (encoding/json quoteChar).
std::string QuoteChar(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  switch (c) {
    case '\n': return "'\\n'";
    case '\r': return "'\\r'";
    case '\t': return "'\\t'";
    default: break;
  }
  if (c < 0x20 || c == 0x7f) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "'\\x%02x'", c);
    return buf;
  }
  if (c >= 0x80) return "'\xEF\xBF\xBD'";  // a byte of a multi-byte rune; Go would print the rune
  return std::string("'") + static_cast<char>(c) + "'";
}

// Finds the first syntax error in the JSON value at [p, end) the way Go's
// encoding/json scanner (scanner.go) does, with its message ("invalid
// character '}' looking for beginning of object key string", "unexpected
// end of JSON input"). Only run once simdjson has refused a value, to say
// where and why as kubectl would. Returns nullptr when it finds no error.
const char* FirstSyntaxError(const char* p, const char* end, std::string& message) {
  enum Ctx : char { kObjectKey, kObjectValue, kArray };
  std::vector<Ctx> stack;
  auto fail = [&](const char* at, const char* context) {
    if (at >= end) {
      message = "unexpected end of JSON input";
      return end;
    }
    message = "invalid character " + QuoteChar(static_cast<unsigned char>(*at)) + " " + context;
    return at;
  };
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const char* q = p;
  bool want_value = true;  // else: after a value
  bool empty_ok = false;   // at the first element/key of a container
  while (true) {
    q = SkipSpace(q, end);
    if (want_value) {
      if (q >= end) return fail(q, "");
      const char c = *q;
      if (!stack.empty() && stack.back() == kObjectKey) {
        if (c == '}' && empty_ok) {
          stack.pop_back();
          ++q;
          want_value = false;
          empty_ok = false;
          continue;
        }
        if (c != '"') return fail(q, "looking for beginning of object key string");
      }
      if (c == ']' && empty_ok && !stack.empty() && stack.back() == kArray) {
        stack.pop_back();
        ++q;
        want_value = false;
        empty_ok = false;
        continue;
      }
      empty_ok = false;
      if (c == '{' || c == '[') {
        stack.push_back(c == '{' ? kObjectKey : kArray);
        ++q;
        empty_ok = true;
        continue;
      }
      if (c == '"') {
        for (++q;; ++q) {
          if (q >= end) return fail(q, "");
          const unsigned char sc = static_cast<unsigned char>(*q);
          if (sc == '"') break;
          if (sc < 0x20) return fail(q, "in string literal");
          if (sc == '\\') {
            ++q;
            if (q >= end) return fail(q, "");
            if (*q == 'u') {
              for (int i = 0; i < 4; ++i) {
                ++q;
                if (q >= end) return fail(q, "");
                if (!std::isxdigit(static_cast<unsigned char>(*q))) return fail(q, "in \\u hexadecimal character escape");
              }
            } else if (!std::strchr("\"\\/bfnrt", *q) || *q == 0) {
              return fail(q, "in string escape code");
            }
          }
        }
        ++q;
      } else if (c == '-' || is_digit(c)) {
        if (c == '-') {
          ++q;
          if (q >= end) return fail(q, "");
          if (!is_digit(*q)) return fail(q, "in numeric literal");
        }
        if (*q == '0') {
          ++q;
        } else {
          while (q < end && is_digit(*q)) ++q;
        }
        if (q < end && *q == '.') {
          ++q;
          if (q >= end) return fail(q, "");
          if (!is_digit(*q)) return fail(q, "after decimal point in numeric literal");
          while (q < end && is_digit(*q)) ++q;
        }
        if (q < end && (*q == 'e' || *q == 'E')) {
          ++q;
          if (q < end && (*q == '+' || *q == '-')) ++q;
          if (q >= end) return fail(q, "");
          if (!is_digit(*q)) return fail(q, "in exponent of numeric literal");
          while (q < end && is_digit(*q)) ++q;
        }
      } else if (c == 't' || c == 'f' || c == 'n') {
        const char* word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        for (size_t i = 1; word[i]; ++i) {
          if (q + i >= end) return fail(q + i, "");
          if (q[i] != word[i]) {
            message = "invalid character " + QuoteChar(static_cast<unsigned char>(q[i])) + " in literal " + word +
                      " (expecting '" + word[i] + "')";
            return q + i;
          }
        }
        q += std::strlen(word);
      } else {
        return fail(q, "looking for beginning of value");
      }
      want_value = false;
      if (!stack.empty() && stack.back() == kObjectKey) {
        // That was a key: a colon comes next.
        q = SkipSpace(q, end);
        if (q >= end) return fail(q, "");
        if (*q != ':') return fail(q, "after object key");
        ++q;
        stack.back() = kObjectValue;
        want_value = true;
      }
      continue;
    }
    // After a value.
    if (stack.empty()) return nullptr;
    if (q >= end) return fail(q, "");
    if (stack.back() == kObjectValue) {
      if (*q == ',') {
        stack.back() = kObjectKey;
        ++q;
        want_value = true;
        continue;
      }
      if (*q == '}') {
        stack.pop_back();
        ++q;
        continue;
      }
      return fail(q, "after object key:value pair");
    }
    if (*q == ',') {
      ++q;
      want_value = true;
      continue;
    }
    if (*q == ']') {
      stack.pop_back();
      ++q;
      continue;
    }
    return fail(q, "after array element");
  }
}

struct ParseFailure {
  const char* at;  // where the problem is (the token the parser stopped at)
  std::string message;
  bool bound = false;  // a gpusched bound rather than a syntax error
};

std::string Describe(simdjson::error_code e) {
  switch (e) {
    case simdjson::TAPE_ERROR:
    case simdjson::INCORRECT_TYPE:
      return "improper structure: a missing or superfluous comma, colon, brace or bracket, or a value that is not "
             "JSON (comments, NaN and trailing commas are not)";
    case simdjson::NUMBER_ERROR: return "invalid number";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR: return "invalid literal (true, false or null)";
    case simdjson::STRING_ERROR: return "invalid escape in a string";
    case simdjson::UNCLOSED_STRING: return "unclosed string";
    case simdjson::UNESCAPED_CHARS: return "a control character in a string must be escaped";
    case simdjson::UTF8_ERROR: return "invalid UTF-8";
    case simdjson::DEPTH_ERROR: return "nesting too deep";
    default: return simdjson::error_message(e);
  }
}

// Builds Documents from pieces of the input with simdjson's On-Demand API.
class Builder {
 public:
  Builder(const char* text, size_t size, int first_line) : text_(text), end_(text + size), first_line_(first_line) {}

  // Parses [p, q) (one JSON value; the buffer is readable SIMDJSON_PADDING
  // bytes past q) into `doc`. `where` locates positions; `shift` maps the
  // parsed buffer's positions to the input's (for a List's envelope).
  bool Parse(const char* p, const char* q, Document& doc, Locator& where, const char* original, size_t items_at,
             size_t items_len, ParseFailure& fail) {
    doc.Clear();
    where_ = &where;
    buffer_ = p;
    original_ = original;
    items_at_ = items_at;
    items_len_ = items_len;
    od::document d;
    last_ = p;
    if (auto e = parser_.iterate(p, static_cast<size_t>(q - p), static_cast<size_t>(q - p) + simdjson::SIMDJSON_PADDING)
                     .get(d)) {
      fail = {Original(p), Describe(e)};
      return false;
    }
    od::json_type type;
    if (auto e = d.type().get(type)) {
      fail = {Original(p), Describe(e)};
      return false;
    }
    if (type != od::json_type::object && type != od::json_type::array) return Scalar(d, type, doc, fail);
    od::value v;
    if (auto e = d.get_value().get(v)) {
      fail = {Original(last_), Describe(e)};
      return false;
    }
    // [p, q) holds one value (ValueEnd found where it ends).
    return Build(v, doc, 1, fail);
  }

 private:
  // Where a position of the parsed buffer is in the input.
  const char* Original(const char* p) const {
    if (!original_) return p;
    size_t off = static_cast<size_t>(p - buffer_);
    return original_ + (off > items_at_ + 1 ? off + items_len_ - 2 : off);
  }
  std::pair<int, int> At(const char* p) {
    last_ = p;
    return (*where_)(Original(p));
  }

  bool Error(simdjson::error_code e, ParseFailure& fail) {
    fail = {Original(last_), Describe(e)};
    return false;
  }

  bool Build(od::value v, Document& doc, int depth, ParseFailure& fail) {
    od::json_type type;
    if (auto e = v.type().get(type)) return Error(e, fail);
    std::string_view token = v.raw_json_token();
    auto [line, col] = At(token.data());
    switch (type) {
      case od::json_type::object: {
        if (depth > kMaxYamlNesting) return Bound(line, fail);
        od::object obj;
        if (auto e = v.get_object().get(obj)) return Error(e, fail);
        doc.OpenContainer(DocType::kMap, line, col);
        for (auto field_result : obj) {
          od::field field;
          if (auto e = std::move(field_result).get(field)) return Error(e, fail);
          auto [kline, kcol] = At(field.key().raw() - 1);  // raw() is just after the opening quote
          std::string_view k;
          if (auto e = field.unescaped_key().get(k)) return Error(e, fail);
          if (k.size() > kMaxYamlScalarBytes) return TooLong(k.size(), kline, fail);
          doc.AddScalar(k, ScalarKind::kString, false, kline, kcol);
          if (!Build(field.value(), doc, depth + 1, fail)) return false;
        }
        doc.CloseContainer();
        return true;
      }
      case od::json_type::array: {
        if (depth > kMaxYamlNesting) return Bound(line, fail);
        od::array arr;
        if (auto e = v.get_array().get(arr)) return Error(e, fail);
        doc.OpenContainer(DocType::kSequence, line, col);
        for (auto item : arr) {
          od::value iv;
          if (auto e = std::move(item).get(iv)) return Error(e, fail);
          if (!Build(iv, doc, depth + 1, fail)) return false;
        }
        doc.CloseContainer();
        return true;
      }
      case od::json_type::string: {
        std::string_view s;
        if (auto e = v.get_string().get(s)) return Error(e, fail);
        if (s.size() > kMaxYamlScalarBytes) return TooLong(s.size(), line, fail);
        doc.AddScalar(s, ScalarKind::kString, false, line, col);
        return true;
      }
      case od::json_type::number:
        // A scalar's raw token runs to the next structural character.
        while (!token.empty() && IsSpace(token.back())) token.remove_suffix(1);
        if (!IsJsonNumber(token)) return Error(simdjson::NUMBER_ERROR, fail);
        doc.AddScalar(token, ScalarKind::kNumber, false, line, col);
        return true;
      case od::json_type::boolean: {
        bool b = false;
        if (auto e = v.get_bool().get(b)) return Error(e, fail);
        doc.AddScalar(b ? "true" : "false", ScalarKind::kBool, false, line, col);
        return true;
      }
      case od::json_type::null: {
        bool is_null = false;
        if (auto e = v.is_null().get(is_null)) return Error(e, fail);
        if (!is_null) return Error(simdjson::N_ATOM_ERROR, fail);
        doc.AddNull(line, col);
        return true;
      }
    }
    return Error(simdjson::TAPE_ERROR, fail);
  }

  // A document that is a single scalar (a List item that is not an object):
  // simdjson reads those through the document, not a value.
  bool Scalar(od::document& d, od::json_type type, Document& doc, ParseFailure& fail) {
    std::string_view token;
    if (auto e = d.raw_json_token().get(token)) return Error(e, fail);
    while (!token.empty() && IsSpace(token.back())) token.remove_suffix(1);
    auto [line, col] = At(token.data());
    switch (type) {
      case od::json_type::string: {
        std::string_view str;
        if (auto e = d.get_string().get(str)) return Error(e, fail);
        doc.AddScalar(str, ScalarKind::kString, false, line, col);
        return true;
      }
      case od::json_type::number:
        if (!IsJsonNumber(token)) return Error(simdjson::NUMBER_ERROR, fail);
        doc.AddScalar(token, ScalarKind::kNumber, false, line, col);
        return true;
      case od::json_type::boolean: {
        bool b = false;
        if (auto e = d.get_bool().get(b)) return Error(e, fail);
        doc.AddScalar(b ? "true" : "false", ScalarKind::kBool, false, line, col);
        return true;
      }
      case od::json_type::null: {
        bool is_null = false;
        if (auto e = d.is_null().get(is_null)) return Error(e, fail);
        if (!is_null) return Error(simdjson::N_ATOM_ERROR, fail);
        doc.AddNull(line, col);
        return true;
      }
      default: return Error(simdjson::TAPE_ERROR, fail);
    }
  }

  bool Bound(int line, ParseFailure& fail) {
    fail = {Original(last_),
            "nesting deeper than " + std::to_string(kMaxYamlNesting) + " levels at line " + std::to_string(line), true};
    return false;
  }
  bool TooLong(size_t n, int line, ParseFailure& fail) {
    fail = {Original(last_),
            "a value of " + std::to_string(n) + " bytes at line " + std::to_string(line) + " is longer than the " +
                std::to_string(kMaxYamlScalarBytes >> 20) + " MiB gpusched accepts",
            true};
    return false;
  }

  const char* text_;
  const char* end_;
  int first_line_;
  od::parser parser_;
  Locator* where_ = nullptr;
  const char* buffer_ = nullptr;
  const char* original_ = nullptr;
  size_t items_at_ = 0, items_len_ = 0;
  const char* last_ = nullptr;
};

// Where a top-level object's "items" array is: [open, close] brackets and
// its items' [start, end) ranges, found by a light scan of the object's
// first level. False when the object has no "items" array (or the scan
// cannot follow it; the parser then reads the object whole and reports).
struct ItemsSplit {
  const char* open = nullptr;
  const char* close = nullptr;
  std::vector<std::pair<const char*, const char*>> items;
};

bool SplitItems(const char* p, const char* end, ItemsSplit& out) {
  // p is at '{'.
  const char* q = SkipSpace(p + 1, end);
  if (q < end && *q == '}') return false;
  while (q < end) {
    if (*q != '"') return false;
    const char* key_end = StringEnd(q, end);
    if (!key_end) return false;
    const std::string_view key(q + 1, static_cast<size_t>(key_end - q - 1));
    q = SkipSpace(key_end + 1, end);
    if (q >= end || *q != ':') return false;
    q = SkipSpace(q + 1, end);
    if (key == "items" && q < end && *q == '[') {
      out.open = q;
      out.items.clear();
      const char* r = SkipSpace(q + 1, end);
      if (r < end && *r == ']') {
        out.close = r;
      } else {
        while (true) {
          const char* item_end = ValueEnd(r, end);
          if (!item_end || item_end == r) return false;
          out.items.emplace_back(r, item_end);
          r = SkipSpace(item_end, end);
          if (r >= end) return false;
          if (*r == ']') break;
          if (*r != ',') return false;
          r = SkipSpace(r + 1, end);
        }
        out.close = r;
      }
      return true;
    }
    const char* value_end = ValueEnd(q, end);
    if (!value_end || value_end == q) return false;
    q = SkipSpace(value_end, end);
    if (q >= end || *q != ',') return false;
    q = SkipSpace(q + 1, end);
  }
  return false;
}

}  // namespace

size_t JsonValueEnd(std::string_view text, size_t at) {
  if (at >= text.size()) return std::string_view::npos;
  const char* end = ValueEnd(text.data() + at, text.data() + text.size());
  return end ? static_cast<size_t>(end - text.data()) : std::string_view::npos;
}

bool IsValidUtf8(std::string_view text) { return simdjson::validate_utf8(text.data(), text.size()); }

bool LooksLikeJson(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  size_t p = text.find_first_not_of(" \t\r\n");
  return p != std::string_view::npos && (text[p] == '{' || text[p] == '[');
}

void ParseJsonStream(std::string_view input, int first_line, const JsonStreamEvents& events) {
  ParseJsonStream(input.data(), input.size(), 0, first_line, events);
}

namespace {

// Gives the pages of [from, to) back to the system: the List's items before
// the one being read are not read again, and a million pods' worth of JSON
// need not stay in memory next to the pods made of it.
class Releaser {
 public:
  Releaser(const char* data, size_t size) : next_(data), on_(size >= (size_t{64} << 20)) {}
  void Before(const char* p) {
    if (!on_) return;
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t from = (reinterpret_cast<uintptr_t>(next_) + page - 1) & ~(page - 1);
    const uintptr_t to = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
    if (to < from + (uintptr_t{16} << 20)) return;  // in steps of 16 MiB at least
    madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    next_ = reinterpret_cast<const char*>(to);
  }

 private:
  const char* next_;
  bool on_;
};

}  // namespace

void ParseJsonStream(const char* data, size_t size, size_t capacity, int first_line, const JsonStreamEvents& events,
                     bool release_read) {
  // simdjson reads up to SIMDJSON_PADDING bytes past a value, and needs valid
  // UTF-8 (kubectl's reader has already replaced bad bytes with U+FFFD,
  // which ReplaceInvalidUtf8 does for us).
  std::string copy;
  if (capacity < size + simdjson::SIMDJSON_PADDING) {
    copy.reserve(size + simdjson::SIMDJSON_PADDING);
    copy.assign(data, size);
    data = copy.data();
  }
  const char* const end = data + size;
  // Our own copy may always be released as it is read.
  Releaser releaser(data, release_read || !copy.empty() ? size : 0);
  Builder builder(data, size, first_line);
  Locator where(data, first_line);
  Document top, item;
  const char* p = data;
  if (size >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
  while (true) {
    p = SkipSpace(p, end);
    if (p >= end) return;
    const int value_line = where(p).first;
    if (events.begin) events.begin(value_line);
    // `from`: where the value (or the List's item) that failed starts.
    auto fail_with = [&](ParseFailure f, const char* from) {
      if (!events.error) return;
      if (f.bound) return events.error(value_line, "cannot parse JSON: " + f.message);
      // Say where and why as Go's decoder (and so kubectl) would.
      std::string why;
      if (const char* at = FirstSyntaxError(from, end, why)) {
        f.at = at;
        f.message = why;
      }
      auto [line, col] = where(f.at);
      events.error(value_line, "cannot parse JSON at line " + std::to_string(line) + ", column " +
                                   std::to_string(col) + ": " + f.message);
    };
    const char* q = ValueEnd(p, end);
    if (!q) {
      return fail_with(ParseFailure{end, "unexpected end of JSON input"}, p);
    }
    ItemsSplit split;
    ParseFailure fail;
    if (*p == '{' && SplitItems(p, q, split)) {
      // A List: its own fields first (the items array read as []), then
      // each item on its own.
      std::string envelope;
      envelope.reserve(static_cast<size_t>(q - p) - static_cast<size_t>(split.close - split.open) + 1 +
                       simdjson::SIMDJSON_PADDING);
      envelope.append(p, split.open);
      envelope.append("[]");
      envelope.append(split.close + 1, q);
      Locator env_where(data, first_line);
      env_where(p);
      if (!builder.Parse(envelope.data(), envelope.data() + envelope.size(), top, env_where, p,
                         static_cast<size_t>(split.open - p), static_cast<size_t>(split.close - split.open) + 1,
                         fail)) {
        return fail_with(fail, p);
      }
      if (events.list) events.list(split.items.size());
      for (const auto& [a, b] : split.items) {
        // Lines are counted up to here before the pages behind go.
        where(a);
        releaser.Before(a);
        if (!builder.Parse(a, b, item, where, nullptr, 0, 0, fail)) return fail_with(fail, a);
        if (events.item) events.item(item.root());
      }
      where(q);
      if (events.end) events.end(top.root(), split.items.size());
    } else {
      if (!builder.Parse(p, q, top, where, nullptr, 0, 0, fail)) return fail_with(fail, p);
      if (events.end) events.end(top.root(), 0);
      where(q);
      releaser.Before(q);
    }
    p = q;
  }
}

}  // namespace gpusched

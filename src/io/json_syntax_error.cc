// FirstSyntaxError (json_syntax_error.h): a port of the state machine of
// Go's encoding/json scanner (scanner.go) with its messages and Go's names
// for characters (quoteChar). It is its own pass, run only after simdjson
// has refused a value, so it shares nothing with the parsing but white space.
#include "json_syntax_error.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <vector>

#include "json_scan.h"

namespace gpusched {
namespace {

using json_scan::SkipSpace;

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

}  // namespace

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

}  // namespace gpusched

// How upstream renders a field.Error and a rejected object: the
// FieldError constructors and their text (k8s.io/apimachinery
// pkg/util/validation/field/errors.go), kubectl's "The <Kind> "<name>" is
// invalid" message, and the two ways a BadValue is quoted (Go's %q and
// encoding/json), which need a UTF-8 decoder of Go's. The quoting stays with
// FieldError because FieldError::Invalid and friends are its only callers
// besides a few hand-built BadValues.
#include "gpusched/model/field_error.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpusched {
namespace {

// Decodes one UTF-8 sequence at s[i]; returns the code point and sets `len`,
// or returns -1 (len = 1) for an invalid byte, as Go's utf8.DecodeRuneInString.
int32_t DecodeRune(std::string_view s, size_t i, size_t& len) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  len = 1;
  if (c < 0x80) return c;
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return -1;
  int32_t r = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return -1;
    r = (r << 6) | (b(k) & 0x3F);
  }
  if ((n == 3 && (r < 0x800 || (r >= 0xD800 && r <= 0xDFFF))) || (n == 4 && (r < 0x10000 || r > 0x10FFFF)))
    return -1;
  len = n;
  return r;
}

// An approximation of Go's unicode.IsPrint for non-ASCII code points: the
// C1 controls, the non-ASCII spaces (Zs), the line/paragraph separators and
// the common format characters (Cf) are not printable; everything else is.
bool IsPrintNonAscii(int32_t r) {
  if (r >= 0x80 && r <= 0xA0) return false;
  switch (r) {
    case 0xAD: case 0x1680: case 0x202F: case 0x205F: case 0x3000: case 0xFEFF: return false;
    default: break;
  }
  if ((r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202E) || (r >= 0x2060 && r <= 0x2064)) return false;
  if ((r >= 0xFFF9 && r <= 0xFFFB) || r == 0xFFFE || r == 0xFFFF) return false;
  return true;
}

constexpr const char* kHex = "0123456789abcdef";

void AppendHex(std::string& out, uint32_t v, int digits) {
  for (int d = digits - 1; d >= 0; --d) out += kHex[(v >> (4 * d)) & 15];
}

// The loop GoQuote and JsonQuote share: `s` rune by rune (an invalid byte as
// rune -1, one byte long), each one's escaped form appended by `escape`
// (out, rune, its bytes), the whole in double quotes.
template <typename Escape>
std::string QuoteRunes(std::string_view s, const Escape& escape) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    size_t len;
    const int32_t r = DecodeRune(s, i, len);
    escape(out, r, s.substr(i, len));
    i += len;
  }
  return out + "\"";
}

}  // namespace

std::string GoQuote(std::string_view s) {
  // strconv.Quote: printable runes as they are, \" and \\ escaped, the short
  // escapes for \a\b\f\n\r\t\v, \xNN for other ASCII controls and invalid
  // bytes, \uNNNN / \UNNNNNNNN for other non-printable runes.
  return QuoteRunes(s, [](std::string& out, int32_t r, std::string_view bytes) {
    if (r < 0) {
      out += "\\x";
      AppendHex(out, static_cast<unsigned char>(bytes.front()), 2);
    } else if (r == '"' || r == '\\') {
      out += '\\';
      out += static_cast<char>(r);
    } else if (r >= 0x20 && r < 0x7f) {
      out += static_cast<char>(r);
    } else if (r >= 0x80 && IsPrintNonAscii(r)) {
      out.append(bytes);
    } else {
      switch (r) {
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        default:
          if (r < 0x80) {
            out += "\\x";
            AppendHex(out, static_cast<uint32_t>(r), 2);
          } else if (r < 0x10000) {
            out += "\\u";
            AppendHex(out, static_cast<uint32_t>(r), 4);
          } else {
            out += "\\U";
            AppendHex(out, static_cast<uint32_t>(r), 8);
          }
      }
    }
  });
}

std::string JsonQuote(std::string_view s) {
  // encoding/json with HTML escaping (json.Marshal's default): \" \\ and the
  // short escapes \b\f\n\r\t, \u00NN for other controls and for < > &,
  // \ufffd for invalid UTF-8, \u2028 and \u2029; everything else as it is.
  return QuoteRunes(s, [](std::string& out, int32_t r, std::string_view bytes) {
    if (r < 0) {
      out += "\\ufffd";
    } else if (r == '"' || r == '\\') {
      out += '\\';
      out += static_cast<char>(r);
    } else if (r == '\b') {
      out += "\\b";
    } else if (r == '\f') {
      out += "\\f";
    } else if (r == '\n') {
      out += "\\n";
    } else if (r == '\r') {
      out += "\\r";
    } else if (r == '\t') {
      out += "\\t";
    } else if (r < 0x20 || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029) {
      out += "\\u";
      AppendHex(out, static_cast<uint32_t>(r), 4);
    } else {
      out.append(bytes);
    }
  });
}

FieldError FieldError::Invalid(std::string field, std::string_view value, std::string detail) {
  return FieldError{Type::kInvalid, std::move(field), GoQuote(value), std::move(detail)};
}
FieldError FieldError::Required(std::string field, std::string detail) {
  return FieldError{Type::kRequired, std::move(field), "", std::move(detail)};
}
FieldError FieldError::Duplicate(std::string field, std::string_view value) {
  return FieldError{Type::kDuplicate, std::move(field), GoQuote(value), ""};
}
FieldError FieldError::NotSupported(std::string field, std::string_view value,
                                    const std::vector<std::string>& supported) {
  std::string detail;
  if (!supported.empty()) {
    detail = "supported values: ";
    for (size_t i = 0; i < supported.size(); ++i) detail += (i ? ", " : "") + GoQuote(supported[i]);
  }
  return FieldError{Type::kNotSupported, std::move(field), GoQuote(value), std::move(detail)};
}
FieldError FieldError::Forbidden(std::string field, std::string detail) {
  return FieldError{Type::kForbidden, std::move(field), "", std::move(detail)};
}
FieldError FieldError::TooLong(std::string field, int64_t max_bytes) {
  std::string detail = max_bytes >= 0 ? "may not be more than " + std::to_string(max_bytes) +
                                            (max_bytes == 1 ? " byte" : " bytes")
                                      : "value is too long";
  return FieldError{Type::kTooLong, std::move(field), "", std::move(detail)};
}

FieldError FieldError::TooMany(std::string field, int64_t actual, int64_t max_items) {
  return FieldError{Type::kTooMany, std::move(field), std::to_string(actual),
                    "must have at most " + std::to_string(max_items) + (max_items == 1 ? " item" : " items")};
}

std::string FieldError::ToString() const {
  std::string body;
  switch (type) {
    case Type::kInvalid: body = "Invalid value: " + value; break;
    case Type::kDuplicate: body = "Duplicate value: " + value; break;
    case Type::kNotSupported: body = "Unsupported value: " + value; break;
    case Type::kRequired: body = "Required value"; break;
    case Type::kForbidden: body = "Forbidden"; break;
    case Type::kTooLong: body = "Too long"; break;
    case Type::kNotFound: body = "Not found: " + value; break;
    case Type::kTooMany: body = "Too many: " + value; break;
  }
  if (!detail.empty()) body += ": " + detail;
  return field + ": " + body;
}

std::string InvalidObjectMessage(std::string_view kind, std::string_view name, const std::vector<FieldError>& errors) {
  // kubectl's statusCausesToAggrError drops repeated "<field>: <message>"
  // causes; MultilineError prints one error inline and several as a "* " list.
  std::vector<std::string> msgs;
  std::set<std::string> seen;
  for (const auto& e : errors) {
    std::string m = e.ToString();
    if (seen.insert(m).second) msgs.push_back(std::move(m));
  }
  std::string s = "The " + std::string(kind) + " " + GoQuote(name) + " is invalid: ";
  if (msgs.size() == 1) return s + msgs[0];
  for (const auto& m : msgs) s += "\n* " + m;
  return s;
}

FieldError FieldError::InvalidJson(std::string field, std::string_view value, std::string detail) {
  return FieldError{Type::kInvalid, std::move(field), JsonQuote(value), std::move(detail)};
}
FieldError FieldError::NotSupportedJson(std::string field, std::string_view value,
                                        const std::vector<std::string>& supported) {
  FieldError e = NotSupported(std::move(field), value, supported);
  e.value = JsonQuote(value);
  return e;
}

}  // namespace gpusched

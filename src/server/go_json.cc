#include "gpusched/server/go_json.h"

#include <cstdint>

namespace gpusched {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(std::string& out, uint32_t cp) {
  out += "\\u";
  out += kHex[(cp >> 12) & 15];
  out += kHex[(cp >> 8) & 15];
  out += kHex[(cp >> 4) & 15];
  out += kHex[cp & 15];
}

// Length of the valid UTF-8 sequence at s[i] (0 when invalid) and its code point.
size_t Utf8At(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t c = b(0);
  size_t len = 0;
  uint32_t min = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2, cp = c & 0x1F, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, cp = c & 0x0F, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

bool EqualFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

void AppendGoJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    // A run of characters written as they are (the whole of a node name)
    // goes in with one append: responses carry thousands of names.
    size_t run = i;
    while (run < s.size()) {
      const uint8_t r = static_cast<uint8_t>(s[run]);
      if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&') break;
      ++run;
    }
    if (run > i) {
      out.append(s.data() + i, run - i);
      i = run;
      continue;
    }
    const uint8_t c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '<': case '>': case '&': AppendUnicodeEscape(out, c); break;
        default:
          if (c < 0x20) {
            AppendUnicodeEscape(out, c);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t len = Utf8At(s, i, cp);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (cp == 0x2028 || cp == 0x2029) {
      AppendUnicodeEscape(out, cp);
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  out += '"';
}

void AppendStringMap(std::string& out, const std::map<std::string, std::string>& m) {
  out += '{';
  bool first = true;
  for (const auto& [k, v] : m) {
    if (!first) out += ',';
    first = false;
    AppendGoJsonString(out, k);
    out += ':';
    AppendGoJsonString(out, v);
  }
  out += '}';
}

void AppendDocJson(std::string& out, const DocNode& n) {
  switch (n.IsDefined() ? n.Type() : DocType::kNull) {
    case DocType::kNull:
      out += "null";
      return;
    case DocType::kScalar:
      if (n.Kind() == ScalarKind::kString) {
        AppendGoJsonString(out, n.Scalar());
      } else {
        out += n.Scalar();
      }
      return;
    case DocType::kSequence: {
      out += '[';
      for (size_t i = 0; i < n.size(); ++i) {
        if (i) out += ',';
        AppendDocJson(out, n[i]);
      }
      out += ']';
      return;
    }
    case DocType::kMap: {
      out += '{';
      bool first = true;
      for (auto [k, v] : n.Entries()) {
        if (!first) out += ',';
        first = false;
        AppendGoJsonString(out, k.Scalar());
        out += ':';
        AppendDocJson(out, v);
      }
      out += '}';
      return;
    }
  }
}

DocNode GoField(const DocNode& object, std::string_view field) {
  DocNode found;
  for (auto [k, v] : object.Entries())
    if (k.IsScalar() && EqualFold(k.Scalar(), field)) found = v;
  return found;
}

const char* GoJsonKind(const DocNode& n) {
  if (!n.IsDefined() || n.IsNull()) return "null";
  if (n.IsMap()) return "object";
  if (n.IsSequence()) return "array";
  switch (n.Kind()) {
    case ScalarKind::kString: return "string";
    case ScalarKind::kNumber: return "number";
    case ScalarKind::kBool: return "bool";
  }
  return "value";
}

}  // namespace gpusched

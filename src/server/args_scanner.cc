#include "gpusched/server/args_scanner.h"

#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gpusched/io/json_documents.h"
#include "gpusched/io/yaml_documents.h"

namespace gpusched {
namespace {

// The generic reader's bound on a string (io/json_documents.h): longer
// strings go to it, which says so.
constexpr size_t kMaxString = kMaxYamlScalarBytes;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

const char* SkipSpace(const char* p, const char* end) {
  while (p < end && IsSpace(*p)) ++p;
  return p;
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

// A string at p ('"') of bytes 0x20..0x7F without escapes: one past its
// closing quote, or null. Clears `plain` when Go would escape a byte of it.
// A request carries thousands of names: 16 bytes are looked at at once.
const char* PlainString(const char* p, const char* end, bool& plain) {
  const char* q = p + 1;
  const char* limit = end - q > static_cast<std::ptrdiff_t>(kMaxString) ? q + kMaxString + 1 : end;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
  const __m128i lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'), amp = _mm_set1_epi8('&');
  for (; q + 16 <= limit; q += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const unsigned stop = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)));
    // Signed: below 0x20 or from 0x80 up.
    const unsigned bad = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, backslash))));
    const unsigned html = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt)), _mm_cmpeq_epi8(v, amp))));
    // The bytes up to the first quote (all 16 when there is none).
    const unsigned before = stop ? (stop & -stop) - 1 : 0xFFFFu;
    if (bad & before) return nullptr;
    if (html & before) plain = false;
    if (stop) return q + __builtin_ctz(stop) + 1;
  }
#endif
  for (; q < limit; ++q) {
    const unsigned char c = static_cast<unsigned char>(*q);
    if (c == '"') return q + 1;
    if (c < 0x20 || c >= 0x80 || c == '\\') return nullptr;
    if (c == '<' || c == '>' || c == '&') plain = false;
  }
  return nullptr;
}

const char* Literal(const char* p, const char* end, std::string_view word) {
  if (static_cast<size_t>(end - p) < word.size() || std::memcmp(p, word.data(), word.size()) != 0) return nullptr;
  return p + word.size();
}

// An RFC 8259 number at p: one past it, or null. What follows is checked by
// the caller (a delimiter or white space).
const char* Number(const char* p, const char* end) {
  auto digit = [&](const char* q) { return q < end && *q >= '0' && *q <= '9'; };
  if (p < end && *p == '-') ++p;
  if (!digit(p)) return nullptr;
  if (*p == '0') {
    ++p;
  } else {
    while (digit(p)) ++p;
  }
  if (p < end && *p == '.') {
    ++p;
    if (!digit(p)) return nullptr;
    while (digit(p)) ++p;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (!digit(p)) return nullptr;
    while (digit(p)) ++p;
  }
  return p;
}

// A value of an unknown key (`depth`: its nesting, the body's object being
// 1): one past it, or null for anything the scanner leaves to the generic
// decoder.
const char* SkipValue(const char* p, const char* end, int depth) {
  if (p >= end) return nullptr;
  bool plain = true;
  switch (*p) {
    case '"': return PlainString(p, end, plain);
    case 't': return Literal(p, end, "true");
    case 'f': return Literal(p, end, "false");
    case 'n': return Literal(p, end, "null");
    case '{':
    case '[': {
      if (depth >= kMaxScannedNesting) return nullptr;
      const bool object = *p == '{';
      const char close = object ? '}' : ']';
      p = SkipSpace(p + 1, end);
      if (p < end && *p == close) return p + 1;
      while (true) {
        if (object) {
          if (p >= end || *p != '"') return nullptr;
          p = PlainString(p, end, plain);
          if (!p) return nullptr;
          p = SkipSpace(p, end);
          if (p >= end || *p != ':') return nullptr;
          p = SkipSpace(p + 1, end);
        }
        p = SkipValue(p, end, depth + 1);
        if (!p) return nullptr;
        p = SkipSpace(p, end);
        if (p >= end) return nullptr;
        if (*p == close) return p + 1;
        if (*p != ',') return nullptr;
        p = SkipSpace(p + 1, end);
      }
    }
    default: return Number(p, end);
  }
}

// The NodeNames array at p ('['): one past it, or null.
const char* ScanNames(const char* p, const char* end, const NameListCache* cache, ScannedArgs& out) {
  if (cache) {
    if (std::shared_ptr<const NameList> known = cache->Match(std::string_view(p, static_cast<size_t>(end - p)))) {
      out.names_text = std::string_view(p, known->text.size());
      out.plain = known->plain;
      out.names.reserve(known->names.size());
      for (const auto& [at, len] : known->names) out.names.emplace_back(p + at, len);
      out.known = std::move(known);
      return p + out.names_text.size();
    }
  }
  const char* const start = p;
  p = SkipSpace(p + 1, end);
  if (p < end && *p == ']') {
    out.names_text = std::string_view(start, static_cast<size_t>(p + 1 - start));
    return p + 1;
  }
  while (true) {
    if (p >= end) return nullptr;
    if (*p == '"') {
      const char* e = PlainString(p, end, out.plain);
      if (!e) return nullptr;
      out.names.emplace_back(p + 1, static_cast<size_t>(e - p - 2));
      p = e;
    } else if (const char* e = Literal(p, end, "null")) {
      out.names.emplace_back();
      p = e;
    } else {
      return nullptr;
    }
    p = SkipSpace(p, end);
    if (p >= end) return nullptr;
    if (*p == ']') break;
    if (*p != ',') return nullptr;
    p = SkipSpace(p + 1, end);
  }
  out.names_text = std::string_view(start, static_cast<size_t>(p + 1 - start));
  return p + 1;
}

}  // namespace

bool ScanExtenderArgs(std::string_view body, const NameListCache* cache, ScannedArgs& out) {
  out.pod = {};
  out.names_text = {};
  out.names.clear();
  out.plain = true;
  out.known = nullptr;
  const char* const end = body.data() + body.size();
  const char* p = SkipSpace(body.data(), end);
  if (p >= end || *p != '{') return false;
  p = SkipSpace(p + 1, end);
  bool pod = false, names = false, nodes = false;
  if (p < end && *p == '}') {
    ++p;
  } else {
    while (true) {
      if (p >= end || *p != '"') return false;
      bool plain_key = true;
      const char* key_end = PlainString(p, end, plain_key);
      if (!key_end) return false;
      const std::string_view key(p + 1, static_cast<size_t>(key_end - p - 2));
      p = SkipSpace(key_end, end);
      if (p >= end || *p != ':') return false;
      p = SkipSpace(p + 1, end);
      if (p >= end) return false;
      if (EqualFold(key, "Pod")) {
        if (pod || *p != '{') return false;
        pod = true;
        // Where the object ends (its brackets counted); the caller's parse
        // of its text checks the rest.
        const size_t e = JsonValueEnd(body, static_cast<size_t>(p - body.data()));
        if (e == std::string_view::npos) return false;
        out.pod = body.substr(static_cast<size_t>(p - body.data()), e - static_cast<size_t>(p - body.data()));
        p = body.data() + e;
      } else if (EqualFold(key, "NodeNames")) {
        if (names || *p != '[') return false;
        names = true;
        p = ScanNames(p, end, cache, out);
      } else if (EqualFold(key, "Nodes")) {
        if (nodes) return false;
        nodes = true;
        p = Literal(p, end, "null");
      } else if (key == "items") {
        return false;
      } else {
        p = SkipValue(p, end, 2);
      }
      if (!p) return false;
      p = SkipSpace(p, end);
      if (p >= end) return false;
      if (*p == '}') {
        ++p;
        break;
      }
      if (*p != ',') return false;
      p = SkipSpace(p + 1, end);
    }
  }
  return pod && names && SkipSpace(p, end) == end;
}

}  // namespace gpusched

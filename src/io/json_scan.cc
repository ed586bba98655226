// Where JSON values end, found without parsing (json_scan.h): a string's
// closing quote, a value's end with containers scanned 16 bytes at a time,
// and a List's items. They stay together because SplitItems walks the
// object's first level with StringEnd and ValueEnd, and all three share one
// rule for strings (a quote preceded by an even number of backslashes).
#include "json_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <string_view>

namespace gpusched::json_scan {

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

}  // namespace gpusched::json_scan

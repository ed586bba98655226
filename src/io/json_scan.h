// The light pass over JSON text that needs no parser: where a value ends,
// where a List's "items" are, and the line and column of a position.
// json_documents.cc uses it to cut the input into the values (and a List
// into the items) it hands to simdjson one at a time, and to say where an
// error is; json_syntax_error.cc to step over white space. Private to src/io.
#ifndef GPUSCHED_IO_JSON_SCAN_H_
#define GPUSCHED_IO_JSON_SCAN_H_

#include <cstring>
#include <utility>
#include <vector>

namespace gpusched::json_scan {

inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

inline const char* SkipSpace(const char* p, const char* end) {
  while (p < end && IsSpace(*p)) ++p;
  return p;
}

// The closing quote of the string whose opening quote is at p, or nullptr.
const char* StringEnd(const char* p, const char* end);

// One past the end of the value starting at p: a balanced object or array
// (strings skipped), or a scalar up to the next delimiter. Only finds where
// a value ends; the JSON parser then checks it. nullptr when unterminated.
// Containers are scanned 16 bytes at a time (SSE2): this pass reads every
// byte of a List once more than the parser does.
const char* ValueEnd(const char* p, const char* end);

// Where a top-level object's "items" array is: [open, close] brackets and
// its items' [start, end) ranges, found by a light scan of the object's
// first level. False when the object has no "items" array (or the scan
// cannot follow it; the parser then reads the object whole and reports).
struct ItemsSplit {
  const char* open = nullptr;
  const char* close = nullptr;
  std::vector<std::pair<const char*, const char*>> items;
};
bool SplitItems(const char* p, const char* end, ItemsSplit& out);

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

}  // namespace gpusched::json_scan

#endif  // GPUSCHED_IO_JSON_SCAN_H_

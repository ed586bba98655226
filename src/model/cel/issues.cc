// cel-go common/errors.go (Errors.ToDisplayString, Error.ToDisplayString)
// and common/source.go (line offsets, snippets): columns count code points,
// the caret line uses '.' per character before the error ("\uff0e" for a
// wide, multi-byte one) and '^' ("\uff3e" when the character at the caret
// is multi-byte); tabs in the snippet print as spaces.
#include "gpusched/model/cel/issues.h"

#include <algorithm>
#include <string>

namespace gpusched::cel {
namespace {

// Length of the UTF-8 sequence starting with `c` (invalid bytes count as 1,
// as Go's utf8.DecodeRune consumes one byte for them).
size_t Utf8Len(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (i + n > s.size()) return 1;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
  return n;
}

struct Location {
  int line = -1;
  int column = -1;  // in code points
  size_t line_start = 0;
};

Location Locate(std::string_view src, int32_t offset) {
  Location loc;
  if (offset < 0 || static_cast<size_t>(offset) > src.size()) return loc;
  loc.line = 1;
  size_t i = 0;
  for (; i < static_cast<size_t>(offset); ++i) {
    if (src[i] == '\n') {
      ++loc.line;
      loc.line_start = i + 1;
    }
  }
  int col = 0;
  for (size_t j = loc.line_start; j < static_cast<size_t>(offset);) {
    j += Utf8Len(src, j);
    ++col;
  }
  loc.column = col;
  return loc;
}

std::string Display(std::string_view src, const Issue& issue) {
  Location loc = Locate(src, issue.offset);
  std::string out = "ERROR: <input>:" + std::to_string(loc.line) + ":" + std::to_string(loc.column + 1) + ": " +
                    issue.message;
  if (loc.line < 1) return out;
  size_t end = src.find('\n', loc.line_start);
  std::string snippet(src.substr(loc.line_start, end == std::string_view::npos ? std::string_view::npos
                                                                              : end - loc.line_start));
  std::replace(snippet.begin(), snippet.end(), '\t', ' ');
  out += "\n | " + snippet + "\n | ";
  size_t i = 0;
  for (int c = 0; c < loc.column && i < snippet.size(); ++c) {
    size_t n = Utf8Len(snippet, i);
    out += n > 1 ? "\xef\xbc\x8e" : ".";
    i += n;
  }
  out += (i < snippet.size() && Utf8Len(snippet, i) > 1) ? "\xef\xbc\xbe" : "^";
  return out;
}

}  // namespace

std::string FormatIssues(std::string_view source, std::vector<Issue> issues) {
  // Sorted by line, then column: byte offsets order the same way.
  std::stable_sort(issues.begin(), issues.end(), [](const Issue& a, const Issue& b) { return a.offset < b.offset; });
  constexpr size_t kMaxErrors = 100;
  std::string out;
  for (size_t i = 0; i < issues.size() && i < kMaxErrors; ++i) {
    if (i) out += "\n";
    out += Display(source, issues[i]);
  }
  if (issues.size() > kMaxErrors)
    out += "\n" + std::to_string(issues.size() - kMaxErrors) + " more errors were truncated";
  return out;
}

}  // namespace gpusched::cel

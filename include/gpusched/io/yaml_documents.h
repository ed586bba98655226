// Splitting a multi-document YAML stream into its documents, keeping each
// document's first line so that errors can name the line in the file. Each
// document is parsed on its own, so one broken document does not hide the
// others.
#ifndef GPUSCHED_IO_YAML_DOCUMENTS_H_
#define GPUSCHED_IO_YAML_DOCUMENTS_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/io/document.h"

namespace gpusched {

struct YamlDocument {
  std::string text;
  int first_line = 1;  // 1-based line of the document's first text line in the file
};

// Splits at "---" and "..." marker lines (a marker at column 0 always ends a
// document in YAML, even inside a block scalar). Documents that hold only
// blanks and comments are dropped.
std::vector<YamlDocument> SplitYamlDocuments(std::string_view text);
// The same documents handed over one at a time (one buffer reused), so that
// a file of many documents is never held twice.
void ForEachYamlDocument(std::string_view text, const std::function<void(const YamlDocument&)>& f);

// Bounds on hostile input, checked before a document reaches the YAML parser
// so that its cost stays linear and its error clear. Real Kubernetes objects
// are far inside them: the API server refuses objects over 1.5 MiB.
inline constexpr int kMaxYamlNesting = 200;
inline constexpr size_t kMaxYamlScalarBytes = 4u << 20;

// "" when `doc` is within the bounds; otherwise the problem, naming the line
// (counted from `first_line`), e.g. "nesting deeper than 200 levels at line
// 3". Flow nesting counts [ and { outside quotes and comments; block nesting
// is judged by indentation (more than 2 x kMaxYamlNesting columns).
std::string CheckYamlBounds(std::string_view doc, int first_line);

// Parses one document after CheckYamlBounds into `out` (lines counted from
// doc.first_line). On failure returns false and sets `error_line` (in the
// file) and `error`: "cannot parse YAML: <bound>" or "cannot parse YAML at
// line L, column C: <the parser's message>".
bool ParseYamlDocument(const YamlDocument& doc, Document& out, int& error_line, std::string& error);

}  // namespace gpusched

#endif  // GPUSCHED_IO_YAML_DOCUMENTS_H_

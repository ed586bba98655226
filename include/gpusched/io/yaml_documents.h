// Splitting a multi-document YAML stream into its documents, keeping each
// document's first line so that errors can name the line in the file. Each
// document is parsed on its own, so one broken document does not hide the
// others.
#ifndef GPUSCHED_IO_YAML_DOCUMENTS_H_
#define GPUSCHED_IO_YAML_DOCUMENTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

struct YamlDocument {
  std::string text;
  int first_line = 1;  // 1-based line of the document's first text line in the file
};

// Splits at "---" and "..." marker lines (a marker at column 0 always ends a
// document in YAML, even inside a block scalar). Documents that hold only
// blanks and comments are dropped.
std::vector<YamlDocument> SplitYamlDocuments(std::string_view text);

}  // namespace gpusched

#endif  // GPUSCHED_IO_YAML_DOCUMENTS_H_

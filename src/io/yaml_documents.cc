#include "gpusched/io/yaml_documents.h"

namespace gpusched {
namespace {

bool IsMarker(std::string_view line, std::string_view marker) {
  if (line.substr(0, 3) != marker) return false;
  return line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r';
}

bool HasContent(std::string_view doc) {
  size_t i = 0;
  while (i < doc.size()) {
    size_t end = doc.find('\n', i);
    std::string_view line = doc.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    size_t p = line.find_first_not_of(" \t\r");
    if (p != std::string_view::npos && line[p] != '#' && line[p] != '%') return true;
    if (end == std::string_view::npos) break;
    i = end + 1;
  }
  return false;
}

}  // namespace

std::vector<YamlDocument> SplitYamlDocuments(std::string_view text) {
  std::vector<YamlDocument> docs;
  YamlDocument cur;
  cur.first_line = 1;
  int line_no = 0;
  size_t i = 0;
  auto flush = [&](int next_first) {
    if (HasContent(cur.text)) docs.push_back(std::move(cur));
    cur = YamlDocument{};
    cur.first_line = next_first;
  };
  while (i < text.size()) {
    size_t end = text.find('\n', i);
    std::string_view line = text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    ++line_no;
    if (IsMarker(line, "---")) {
      flush(line_no);
      // Content after "--- " on the marker line belongs to the new document.
      std::string_view rest = line.substr(3);
      size_t p = rest.find_first_not_of(" \t\r");
      if (p != std::string_view::npos) {
        cur.text.append(rest.size() > 0 ? std::string(3, ' ') : "");
        cur.text.append(rest);
        cur.text.push_back('\n');
      } else {
        cur.first_line = line_no + 1;
      }
    } else if (IsMarker(line, "...")) {
      flush(line_no + 1);
    } else {
      cur.text.append(line);
      cur.text.push_back('\n');
    }
    if (end == std::string_view::npos) break;
    i = end + 1;
  }
  flush(line_no + 1);
  return docs;
}

}  // namespace gpusched

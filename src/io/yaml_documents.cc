#include "gpusched/io/yaml_documents.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

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

// Builds a Document from yaml-cpp's parse events. Aliases share the node
// their anchor names.
class Builder : public YAML::EventHandler {
 public:
  Builder(Document& doc, int first_line) : doc_(doc), first_line_(first_line) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Anchor(anchor, doc_.AddNull(Line(mark), Column(mark)));
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (anchor >= anchors_.size() || doc_.IsOpen(anchors_[anchor]))
      throw YAML::ParserException(mark, "the alias refers to a node that contains it");
    doc_.AddAlias(anchors_[anchor]);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Anchor(anchor, doc_.AddScalar(value, ScalarKind::kString, tag == "?", Line(mark), Column(mark)));
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Anchor(anchor, doc_.OpenContainer(DocType::kSequence, Line(mark), Column(mark)));
  }
  void OnSequenceEnd() override { doc_.CloseContainer(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Anchor(anchor, doc_.OpenContainer(DocType::kMap, Line(mark), Column(mark)));
  }
  void OnMapEnd() override { doc_.CloseContainer(); }

 private:
  int Line(const YAML::Mark& m) const { return first_line_ + (m.is_null() || m.line < 0 ? 0 : m.line); }
  static int Column(const YAML::Mark& m) { return m.is_null() || m.column < 0 ? 0 : m.column + 1; }
  void Anchor(YAML::anchor_t anchor, uint32_t index) {
    if (anchor == 0) return;
    if (anchors_.size() <= anchor) anchors_.resize(anchor + 1, 0);
    anchors_[anchor] = index;
  }

  Document& doc_;
  int first_line_;
  std::vector<uint32_t> anchors_;
};

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

std::string CheckYamlBounds(std::string_view doc, int first_line) {
  int line = first_line, depth = 0;
  size_t line_start = 0, scalar_start = 0;
  bool in_scalar = false, at_indent = true;
  char quote = 0;
  auto too_long = [&](size_t length) {
    return "a value of " + std::to_string(length) + " bytes at line " + std::to_string(line) +
           " is longer than the " + std::to_string(kMaxYamlScalarBytes >> 20) + " MiB gpusched accepts";
  };
  for (size_t i = 0; i < doc.size(); ++i) {
    const char c = doc[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      at_indent = true;
      if (!quote) in_scalar = false;
      continue;
    }
    if (at_indent && !quote) {
      if (c == ' ' || c == '-') {
        if (i - line_start > 2 * static_cast<size_t>(kMaxYamlNesting))
          return "nesting deeper than " + std::to_string(kMaxYamlNesting) + " levels at line " + std::to_string(line);
        continue;
      }
      at_indent = false;
    }
    if (quote) {
      if (c == '\\' && quote == '"') {
        ++i;
      } else if (c == quote) {
        if (quote == '\'' && i + 1 < doc.size() && doc[i + 1] == '\'') {
          ++i;
        } else {
          quote = 0;
          if (i - scalar_start - 1 > kMaxYamlScalarBytes) return too_long(i - scalar_start - 1);
        }
      }
      continue;
    }
    switch (c) {
      case '"':
      case '\'':
        quote = c;
        scalar_start = i;
        break;
      case '#':
        if (i == line_start || doc[i - 1] == ' ' || doc[i - 1] == '\t') {
          size_t end = doc.find('\n', i);
          if (end == std::string_view::npos) return "";
          i = end - 1;
        }
        break;
      case '[':
      case '{':
        if (++depth > kMaxYamlNesting)
          return "nesting deeper than " + std::to_string(kMaxYamlNesting) + " levels at line " + std::to_string(line);
        in_scalar = false;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        in_scalar = false;
        break;
      case ' ':
      case '\t':
      case ',':
      case '\r':
        in_scalar = false;
        break;
      default:
        if (!in_scalar) {
          in_scalar = true;
          scalar_start = i;
        } else if (i - scalar_start + 1 > kMaxYamlScalarBytes) {
          return too_long(i - scalar_start + 1);
        }
    }
  }
  return "";
}

bool ParseYamlDocument(const YamlDocument& doc, Document& out, int& error_line, std::string& error) {
  out.Clear();
  if (std::string bound = CheckYamlBounds(doc.text, doc.first_line); !bound.empty()) {
    error_line = doc.first_line;
    error = "cannot parse YAML: " + bound;
    return false;
  }
  try {
    std::istringstream in(doc.text);
    YAML::Parser parser(in);
    Builder builder(out, doc.first_line);
    if (!parser.HandleNextDocument(builder)) out.AddNull(doc.first_line, 1);
    return true;
  } catch (const YAML::Exception& e) {
    error_line = doc.first_line + (e.mark.is_null() ? 0 : e.mark.line);
    const int col = e.mark.is_null() ? 0 : e.mark.column + 1;
    error = "cannot parse YAML at line " + std::to_string(error_line) + ", column " + std::to_string(col) + ": " +
            ExplainYamlError(e.msg);
    return false;
  }
}

std::string ExplainYamlError(const std::string& msg) {
  if (msg == "bad file") return "nesting too deep for the YAML parser (it stops at about 500 levels)";
  return msg;
}

}  // namespace gpusched

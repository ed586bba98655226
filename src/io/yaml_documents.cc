#include "gpusched/io/yaml_documents.h"

#include <yaml.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "gpusched/io/yaml_resolve.h"

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

// Builds a Document from libyaml's parse events (go-yaml v2, which kubectl
// uses, is a Go port of libyaml: same grammar, same messages). Scalars are
// resolved as go-yaml v2 does (yaml_resolve.h); keys become the JSON keys
// sigs.k8s.io/yaml makes of them; merge keys (<<) are expanded; aliases
// share the node their anchor names. What sigs.k8s.io/yaml cannot turn into
// JSON (.inf, a null key, an !!int that is not one) fails the document, as
// it fails `kubectl apply`.
class YamlTreeBuilder {
 public:
  YamlTreeBuilder(Document& doc, int first_line) : doc_(doc), first_line_(first_line) {}

  // False (with error_ set) when the document cannot become JSON.
  bool Event(const yaml_event_t& ev) {
    switch (ev.type) {
      case YAML_ALIAS_EVENT: return Alias(ev);
      case YAML_SCALAR_EVENT: return Scalar(ev);
      case YAML_SEQUENCE_START_EVENT:
        return Open(DocType::kSequence, ev, reinterpret_cast<const char*>(ev.data.sequence_start.anchor));
      case YAML_MAPPING_START_EVENT:
        return Open(DocType::kMap, ev, reinterpret_cast<const char*>(ev.data.mapping_start.anchor));
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: return Close();
      default: return true;
    }
  }

  int error_line = 0, error_column = 0;
  std::string error;

 private:
  struct Frame {
    bool map = false;
    size_t children = 0;  // nodes added so far (for a map: keys and values)
    bool merges = false;  // a "<<" key among them
  };

  int Line(const yaml_mark_t& m) const { return first_line_ + static_cast<int>(m.line); }
  static int Column(const yaml_mark_t& m) { return static_cast<int>(m.column) + 1; }
  bool Fail(const yaml_mark_t& m, std::string message) {
    error_line = Line(m);
    error_column = Column(m);
    error = std::move(message);
    return false;
  }
  bool AtKey() const { return !frames_.empty() && frames_.back().map && frames_.back().children % 2 == 0; }
  void Added() {
    if (!frames_.empty()) ++frames_.back().children;
  }
  void Anchor(const char* anchor, uint32_t index) {
    if (anchor) anchors_[anchor] = index;
  }

  bool Scalar(const yaml_event_t& ev) {
    const auto& sc = ev.data.scalar;
    const std::string_view value(reinterpret_cast<const char*>(sc.value), sc.length);
    const std::string_view tag = sc.tag ? reinterpret_cast<const char*>(sc.tag) : "";
    const bool plain = sc.style == YAML_PLAIN_SCALAR_STYLE && sc.plain_implicit;
    const int line = Line(ev.start_mark), col = Column(ev.start_mark);
    uint32_t index;
    if (AtKey() && value == "<<" &&
        ((plain && tag.empty()) || tag == "tag:yaml.org,2002:merge")) {
      frames_.back().merges = true;
      index = doc_.AddScalar("<<", ScalarKind::kString, true, line, col);
      merge_keys_.push_back(index);
    } else {
      ResolvedScalar r = ResolveYamlScalar(value, tag, sc.style == YAML_PLAIN_SCALAR_STYLE);
      if (!r.error.empty()) return Fail(ev.start_mark, r.error);
      if (AtKey()) {
        std::string key, why;
        if (!YamlKeyToJson(r, key, why)) return Fail(ev.start_mark, "error converting YAML to JSON: " + why);
        index = doc_.AddScalar(key, ScalarKind::kString, plain, line, col);
      } else if (!r.json_ok) {
        return Fail(ev.start_mark, "error converting YAML to JSON: json: unsupported value: " + r.text);
      } else if (r.type == ResolvedScalar::Type::kNull) {
        index = doc_.AddNull(line, col);
      } else {
        const ScalarKind kind = r.type == ResolvedScalar::Type::kBool     ? ScalarKind::kBool
                                : r.type == ResolvedScalar::Type::kString ? ScalarKind::kString
                                                                          : ScalarKind::kNumber;
        index = doc_.AddScalar(r.text, kind, plain, line, col);
      }
    }
    Anchor(reinterpret_cast<const char*>(sc.anchor), index);
    Added();
    return true;
  }

  bool Alias(const yaml_event_t& ev) {
    const std::string name = reinterpret_cast<const char*>(ev.data.alias.anchor);
    auto it = anchors_.find(name);
    if (it == anchors_.end()) return Fail(ev.start_mark, "unknown anchor '" + name + "' referenced");
    if (doc_.IsOpen(it->second)) return Fail(ev.start_mark, "anchor '" + name + "' value contains itself");
    if (AtKey() && doc_.entry(it->second).type != DocType::kScalar)
      return Fail(ev.start_mark, "invalid map key: an alias to a map or list");
    doc_.AddAlias(it->second);
    Added();
    return true;
  }

  bool Open(DocType type, const yaml_event_t& ev, const char* anchor) {
    if (AtKey()) return Fail(ev.start_mark, "invalid map key: a map or list is not a valid key");
    Anchor(anchor, doc_.OpenContainer(type, Line(ev.start_mark), Column(ev.start_mark)));
    frames_.push_back(Frame{type == DocType::kMap, 0, false});
    return true;
  }

  bool Close() {
    const Frame frame = frames_.back();
    frames_.pop_back();
    if (frame.merges && !ExpandMerges()) return false;
    doc_.CloseContainer();
    Added();
    return true;
  }

  // The open map's entries with its merge keys expanded as go-yaml v2's
  // decoder does (decode.go, mapping() and merge()): entries apply in order,
  // a later one replacing an earlier one with the same key; a merged map's
  // entries apply where its "<<" stands; of a list of maps the earlier ones
  // win. A key written twice (neither merged) stays a duplicate for
  // CloseContainer to record.
  bool ExpandMerges() {
    auto [children, count] = doc_.OpenChildren();
    std::vector<uint32_t> in(children, children + count);
    std::vector<uint32_t> out;
    std::vector<bool> merged;  // per entry of out: came from a merge
    auto find = [&](uint32_t key) -> size_t {
      for (size_t i = 0; i < out.size(); i += 2)
        if (doc_.entry(out[i]).type == DocType::kScalar && doc_.text(out[i]) == doc_.text(key)) return i;
      return out.size();
    };
    auto set = [&](uint32_t key, uint32_t value, bool from_merge) {
      size_t i = find(key);
      if (i < out.size() && (from_merge || merged[i / 2])) {
        out[i + 1] = value;
        merged[i / 2] = from_merge;
        return;
      }
      out.push_back(key);
      out.push_back(value);
      merged.push_back(from_merge);
      if (out.size() > kMaxMergedEntries) merge_overflow_ = true;
    };
    auto merge_map = [&](uint32_t map) {
      DocNode m = doc_.node(map);
      for (size_t i = 0; i < m.size(); ++i) set(m.KeyAt(i).index(), m.ValueAt(i).index(), true);
    };
    for (size_t i = 0; i + 1 < in.size(); i += 2) {
      const uint32_t key = in[i], value = in[i + 1];
      const bool is_merge = std::find(merge_keys_.begin(), merge_keys_.end(), key) != merge_keys_.end();
      if (!is_merge) {
        set(key, value, false);
        continue;
      }
      const Document::Entry& v = doc_.entry(value);
      if (v.type == DocType::kMap) {
        merge_map(value);
      } else if (v.type == DocType::kSequence) {
        DocNode seq = doc_.node(value);
        for (size_t j = seq.size(); j-- > 0;) {
          if (!seq[j].IsMap()) return MergeError(value);
          merge_map(seq[j].index());
        }
      } else {
        return MergeError(value);
      }
      if (merge_overflow_) {
        const Document::Entry& e = doc_.entry(key);
        error_line = static_cast<int>(e.line);
        error_column = static_cast<int>(e.column);
        error = "document contains excessive aliasing";
        return false;
      }
    }
    doc_.SetOpenChildren(std::move(out));
    return true;
  }
  bool MergeError(uint32_t at) {
    const Document::Entry& e = doc_.entry(at);
    error_line = static_cast<int>(e.line);
    error_column = static_cast<int>(e.column);
    error = "map merge requires map or sequence of maps as the value";
    return false;
  }

  // Merges copy entries (not trees): a map merged into each of many maps
  // costs its entry count each time. Past this many entries in one map the
  // document is refused, as go-yaml refuses excessive aliasing.
  static constexpr size_t kMaxMergedEntries = 2 * 100000;

  Document& doc_;
  int first_line_;
  std::vector<Frame> frames_;
  std::unordered_map<std::string, uint32_t> anchors_;
  std::vector<uint32_t> merge_keys_;
  bool merge_overflow_ = false;
};

}  // namespace

void ForEachYamlDocument(std::string_view text, const std::function<void(const YamlDocument&)>& f) {
  YamlDocument cur;
  cur.first_line = 1;
  int line_no = 0;
  size_t i = 0;
  auto flush = [&](int next_first) {
    if (HasContent(cur.text)) f(cur);
    cur.text.clear();  // keeps its capacity for the next document
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
}

std::vector<YamlDocument> SplitYamlDocuments(std::string_view text) {
  std::vector<YamlDocument> docs;
  ForEachYamlDocument(text, [&](const YamlDocument& d) { docs.push_back(d); });
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
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    error_line = doc.first_line;
    error = "cannot parse YAML: out of memory";
    return false;
  }
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(doc.text.data()), doc.text.size());
  YamlTreeBuilder builder(out, doc.first_line);
  bool ok = true, documents = false;
  while (ok) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      // go-yaml's parser.fail(): the problem at its mark.
      const yaml_mark_t& m = parser.problem ? parser.problem_mark : parser.context_mark;
      error_line = doc.first_line + static_cast<int>(m.line);
      error = "cannot parse YAML at line " + std::to_string(error_line) + ", column " +
              std::to_string(m.column + 1) + ": " +
              (parser.problem ? std::string(parser.problem) : "unknown problem parsing YAML content");
      ok = false;
      break;
    }
    const yaml_event_type_t type = ev.type;
    // One document per text (SplitYamlDocuments split the stream).
    if (type == YAML_DOCUMENT_START_EVENT && documents) {
      yaml_event_delete(&ev);
      break;
    }
    if (type == YAML_DOCUMENT_START_EVENT) documents = true;
    if (!builder.Event(ev)) {
      error_line = builder.error_line;
      error = "cannot parse YAML at line " + std::to_string(builder.error_line) + ", column " +
              std::to_string(builder.error_column) + ": " + builder.error;
      ok = false;
    }
    yaml_event_delete(&ev);
    if (type == YAML_STREAM_END_EVENT || type == YAML_DOCUMENT_END_EVENT) break;
  }
  yaml_parser_delete(&parser);
  if (ok && out.empty()) out.AddNull(doc.first_line, 1);
  if (!ok) out.Clear();
  return ok;
}

}  // namespace gpusched

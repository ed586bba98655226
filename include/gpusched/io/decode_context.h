// DecodeContext: reads typed fields out of a parsed YAML/JSON object (a
// DocNode of a Document) and collects decode errors and warnings, so that
// they can name the line of the field. io's own decoders use it, and so do
// readers of other YAML formats built on io (siminput's SyntheticWorkload
// spec), so that every file gpusched reads reports errors alike.
//
// The accessors take the parent node, the key and the field's path for
// messages ("spec.containers[0].name"). They never throw; a field that is
// absent or null gives an undefined node / empty value and is not an error.
// Lines of fields are found from the object's tree when asked (LineOf), so
// reading a field costs no bookkeeping.
#ifndef GPUSCHED_IO_DECODE_CONTEXT_H_
#define GPUSCHED_IO_DECODE_CONTEXT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusched/io/document.h"
#include "gpusched/model/resources.h"

namespace gpusched {

class DecodeContext {
 public:
  // `root` is the object being decoded: LineOf resolves field paths in it.
  explicit DecodeContext(DocNode root) : root_(root), first_line_(root.IsDefined() ? root.Line() : 1) {}
  // Without a tree: LineOf knows only the paths the accessors read.
  explicit DecodeContext(int first_line) : first_line_(first_line) {}

  // 1-based file line of a node (the object's first line when undefined).
  int Line(const DocNode& n) const { return n.IsDefined() ? n.Line() : first_line_; }
  // Line of `path`, or of its nearest ancestor present in the input (a
  // defaulted requests[x] falls back to limits[x]).
  int LineOf(const std::string& path) const;

  // Decode errors ("<path>: <message>"), in the order found.
  const std::vector<std::string>& errors() const { return errors_; }
  int first_error_line() const { return first_error_line_; }
  void Error(const std::string& path, const DocNode& at, const std::string& message);

  // Typed accessors. Each reports a decode error (returning an empty/default
  // value) when the type is wrong. An absent or null field is not an error.
  DocNode Map(const DocNode& parent, std::string_view key, const std::string& path);
  DocNode Seq(const DocNode& parent, std::string_view key, const std::string& path);
  std::string Str(const DocNode& parent, std::string_view key, const std::string& path);
  std::optional<int64_t> Int(const DocNode& parent, std::string_view key, const std::string& path);
  std::optional<bool> Bool(const DocNode& parent, std::string_view key, const std::string& path);
  std::map<std::string, std::string, std::less<>> StrMap(const DocNode& parent, std::string_view key,
                                                         const std::string& path);
  ResourceList Quantities(const DocNode& parent, std::string_view key, const std::string& path);

  // The items of the list parent[key] that are objects, each with its path
  // ("<path>[i]"); any other item is a decode error. Empty when absent.
  std::vector<std::pair<DocNode, std::string>> Objects(const DocNode& parent, std::string_view key,
                                                       const std::string& path);
  // The items of the list parent[key] that are strings; any other item is a
  // decode error ("<path>[i]: expected a string, got ..."). Empty when absent.
  std::vector<std::string> Strings(const DocNode& parent, std::string_view key, const std::string& path);

  // Gives `path` the line of `n` for LineOf (for a path that is not where
  // the tree has it, e.g. a field read under another name).
  void Record(const std::string& path, const DocNode& n);

  // Things the input asks for that gpusched does not (yet) act on: "line: text".
  void Warn(const DocNode& at, const std::string& text) { warnings_.push_back({Line(at), text}); }
  const std::vector<std::pair<int, std::string>>& warnings() const { return warnings_; }

 private:
  // Line of exactly `path` (recorded, or found in the tree), or 0.
  int Find(const std::string& path) const;
  void Touch(const std::string& path, const DocNode& n) {
    if (!root_.IsDefined()) Record(path, n);
  }

  DocNode root_;
  int first_line_;
  std::unordered_map<std::string, int> lines_;
  std::vector<std::string> errors_;
  std::vector<std::pair<int, std::string>> warnings_;
  int first_error_line_ = 0;
};

// A field path that grows from a base as decoding goes down, so that reading
// a field builds no new string: ctx.Str(c, "name", path.At(".name")). The
// reference At returns is valid until the next At or Reset: one At per
// statement.
class PathBuf {
 public:
  explicit PathBuf(std::string_view base = {}) : s_(base), base_(s_.size()) {}
  void Reset(std::string_view base) {
    s_.assign(base);
    base_ = s_.size();
  }
  const std::string& At(std::string_view suffix) {
    s_.resize(base_);
    s_.append(suffix);
    return s_;
  }

 private:
  std::string s_;
  size_t base_;
};

// "an object", "a list", "a scalar", "null" or "nothing" for type-mismatch messages.
inline const char* YamlKind(const DocNode& n) { return DocKind(n); }

// The node at `path` ("spec.containers[0].resources.limits[nvidia.com/gpu]",
// also "status.capacity.nvidia.com/gpu") under `root`; undefined when the
// input has no such field or it is null.
DocNode FindPath(const DocNode& root, std::string_view path);

}  // namespace gpusched

#endif  // GPUSCHED_IO_DECODE_CONTEXT_H_

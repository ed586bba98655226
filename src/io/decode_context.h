// DecodeContext: reads typed fields out of a parsed YAML/JSON object while
// remembering which line each field path came from, so that decode and
// validation errors can name the line. Private to src/io.
#ifndef GPUSCHED_IO_DECODE_CONTEXT_H_
#define GPUSCHED_IO_DECODE_CONTEXT_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusched/model/resources.h"

namespace gpusched {

class DecodeContext {
 public:
  explicit DecodeContext(int first_line) : first_line_(first_line) {}

  // 1-based file line of a node.
  int Line(const YAML::Node& n) const;
  // Line of `path`, or of its nearest recorded ancestor (a defaulted
  // requests[x] falls back to limits[x]).
  int LineOf(const std::string& path) const;

  // Decode errors ("<path>: <message>"), in the order found.
  const std::vector<std::string>& errors() const { return errors_; }
  int first_error_line() const { return first_error_line_; }
  void Error(const std::string& path, const YAML::Node& at, const std::string& message);

  // Typed accessors. Each records the line of `path` and reports a decode
  // error (returning an empty/default value) when the type is wrong. An
  // absent or null field is not an error.
  YAML::Node Map(const YAML::Node& parent, const char* key, const std::string& path);
  YAML::Node Seq(const YAML::Node& parent, const char* key, const std::string& path);
  std::string Str(const YAML::Node& parent, const char* key, const std::string& path);
  std::optional<int64_t> Int(const YAML::Node& parent, const char* key, const std::string& path);
  std::optional<bool> Bool(const YAML::Node& parent, const char* key, const std::string& path);
  std::map<std::string, std::string, std::less<>> StrMap(const YAML::Node& parent, const char* key,
                                                         const std::string& path);
  ResourceList Quantities(const YAML::Node& parent, const char* key, const std::string& path);

  void Record(const std::string& path, const YAML::Node& n) { lines_.emplace(path, Line(n)); }

  // Things the input asks for that gpusched does not (yet) act on: "line: text".
  void Warn(const YAML::Node& at, const std::string& text) { warnings_.push_back({Line(at), text}); }
  const std::vector<std::pair<int, std::string>>& warnings() const { return warnings_; }

 private:
  int first_line_;
  std::unordered_map<std::string, int> lines_;
  std::vector<std::string> errors_;
  std::vector<std::pair<int, std::string>> warnings_;
  int first_error_line_ = 0;
};

// "string", "list", "object", "number"... for type-mismatch messages.
const char* YamlKind(const YAML::Node& n);

}  // namespace gpusched

#endif  // GPUSCHED_IO_DECODE_CONTEXT_H_

#include "decode_context.h"

#include <charconv>

namespace gpusched {
namespace {

// parent[key] that never throws: yaml-cpp throws BadSubscript when indexing a
// scalar, so anything that is not a map has no children.
YAML::Node Get(const YAML::Node& parent, const char* key) {
  if (!parent.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node& p = parent;
  return p[key];
}

}  // namespace

const char* YamlKind(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "an object";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "null";
    default: return "nothing";
  }
}

int DecodeContext::Line(const YAML::Node& n) const {
  YAML::Mark m = n.Mark();
  if (m.is_null() || m.line < 0) return first_line_;
  return first_line_ + m.line;
}

int DecodeContext::LineOf(const std::string& path) const {
  std::string p = path;
  while (!p.empty()) {
    if (auto it = lines_.find(p); it != lines_.end()) return it->second;
    // Upstream sometimes names a map entry "status.capacity.nvidia.com/gpu"
    // (field.NewPath children) where we record "status.capacity[nvidia.com/gpu]".
    for (size_t dot = p.find('.'); dot != std::string::npos; dot = p.find('.', dot + 1)) {
      std::string alt = p.substr(0, dot) + "[" + p.substr(dot + 1) + "]";
      if (auto it = lines_.find(alt); it != lines_.end()) return it->second;
    }
    // requests[x] defaulted from limits[x]: use the limit's line.
    if (size_t r = p.rfind(".requests"); r != std::string::npos) {
      std::string alt = p.substr(0, r) + ".limits" + p.substr(r + 9);
      if (auto it = lines_.find(alt); it != lines_.end()) return it->second;
    }
    size_t cut = p.find_last_of(".[");
    if (cut == std::string::npos) break;
    p.resize(cut);
  }
  return first_line_;
}

void DecodeContext::Error(const std::string& path, const YAML::Node& at, const std::string& message) {
  if (errors_.empty()) first_error_line_ = Line(at);
  errors_.push_back(path + ": " + message);
}

YAML::Node DecodeContext::Map(const YAML::Node& parent, const char* key, const std::string& path) {
  YAML::Node n = Get(parent, key);
  if (!n.IsDefined() || n.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
  Record(path, n);
  if (!n.IsMap()) {
    Error(path, n, std::string("expected an object, got ") + YamlKind(n));
    return YAML::Node(YAML::NodeType::Undefined);
  }
  return n;
}

YAML::Node DecodeContext::Seq(const YAML::Node& parent, const char* key, const std::string& path) {
  YAML::Node n = Get(parent, key);
  if (!n.IsDefined() || n.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
  Record(path, n);
  if (!n.IsSequence()) {
    Error(path, n, std::string("expected a list, got ") + YamlKind(n));
    return YAML::Node(YAML::NodeType::Undefined);
  }
  return n;
}

std::string DecodeContext::Str(const YAML::Node& parent, const char* key, const std::string& path) {
  YAML::Node n = Get(parent, key);
  if (!n.IsDefined() || n.IsNull()) return "";
  Record(path, n);
  if (!n.IsScalar()) {
    Error(path, n, std::string("expected a string, got ") + YamlKind(n));
    return "";
  }
  return n.Scalar();
}

std::optional<int64_t> DecodeContext::Int(const YAML::Node& parent, const char* key, const std::string& path) {
  YAML::Node n = Get(parent, key);
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  Record(path, n);
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec == std::errc() && ptr == e) return v;
  }
  Error(path, n, std::string("expected an integer, got ") + (n.IsScalar() ? "\"" + n.Scalar() + "\"" : YamlKind(n)));
  return std::nullopt;
}

std::optional<bool> DecodeContext::Bool(const YAML::Node& parent, const char* key, const std::string& path) {
  YAML::Node n = Get(parent, key);
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  Record(path, n);
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  Error(path, n, std::string("expected true or false, got ") + (n.IsScalar() ? "\"" + n.Scalar() + "\"" : YamlKind(n)));
  return std::nullopt;
}

std::map<std::string, std::string, std::less<>> DecodeContext::StrMap(const YAML::Node& parent, const char* key,
                                                                      const std::string& path) {
  std::map<std::string, std::string, std::less<>> out;
  YAML::Node m = Map(parent, key, path);
  if (!m.IsDefined()) return out;
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (!it->first.IsScalar()) {
      Error(path, it->first, "keys must be strings");
      continue;
    }
    std::string k = it->first.Scalar();
    std::string p = path + "[" + k + "]";
    Record(p, it->second);
    if (it->second.IsNull()) {
      out[k] = "";
    } else if (!it->second.IsScalar()) {
      Error(p, it->second, std::string("expected a string, got ") + YamlKind(it->second));
    } else {
      out[k] = it->second.Scalar();
    }
  }
  return out;
}

ResourceList DecodeContext::Quantities(const YAML::Node& parent, const char* key, const std::string& path) {
  ResourceList out;
  YAML::Node m = Map(parent, key, path);
  if (!m.IsDefined()) return out;
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (!it->first.IsScalar()) {
      Error(path, it->first, "resource names must be strings");
      continue;
    }
    std::string name = it->first.Scalar();
    std::string p = path + "[" + name + "]";
    Record(p, it->second);
    if (!it->second.IsScalar()) {
      Error(p, it->second, std::string("expected a quantity, got ") + YamlKind(it->second));
      continue;
    }
    Result<Quantity> q = Quantity::Parse(it->second.Scalar());
    if (!q.ok()) {
      Error(p, it->second, q.status().message());
      continue;
    }
    out.emplace(std::move(name), *q);
  }
  return out;
}

}  // namespace gpusched

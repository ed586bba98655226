#include "gpusched/io/decode_context.h"

#include <charconv>

namespace gpusched {
namespace {

// parent[key], undefined unless parent is a map.
DocNode Get(const DocNode& parent, std::string_view key) { return parent[key]; }

bool Absent(const DocNode& n) { return !n.IsDefined() || n.IsNull(); }

DocNode Walk(const DocNode& node, std::string_view rest) {
  if (!node.IsDefined() || node.IsNull()) return DocNode();
  if (rest.empty()) return node;
  if (rest.front() == '[') {
    // "[3]" indexes a list, "[nvidia.com/gpu]" names a map key; a key may
    // hold ']' itself, so try every closing bracket that ends a segment.
    for (size_t close = rest.find(']'); close != std::string_view::npos; close = rest.find(']', close + 1)) {
      std::string_view after = rest.substr(close + 1);
      if (!after.empty() && after.front() != '.' && after.front() != '[') continue;
      if (!after.empty() && after.front() == '.') after.remove_prefix(1);
      const std::string_view inside = rest.substr(1, close - 1);
      DocNode child;
      if (node.IsSequence()) {
        size_t i = 0;
        auto [ptr, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), i);
        if (ec == std::errc() && ptr == inside.data() + inside.size()) child = node[i];
      } else {
        child = node[inside];
      }
      if (DocNode found = Walk(child, after); found.IsDefined()) return found;
    }
    return DocNode();
  }
  if (!node.IsMap()) return DocNode();
  // A key may hold dots ("status.capacity.nvidia.com/gpu"): try each key that
  // is a whole segment prefix of the rest, longest first.
  DocNode best;
  size_t best_len = 0;
  for (auto [key, value] : node.Entries()) {
    const std::string_view k = key.Scalar();
    if (!key.IsScalar() || k.empty() || k.size() > rest.size() || rest.substr(0, k.size()) != k) continue;
    if (k.size() < rest.size() && rest[k.size()] != '.' && rest[k.size()] != '[') continue;
    std::string_view after = rest.substr(k.size());
    if (!after.empty() && after.front() == '.') after.remove_prefix(1);
    DocNode found = Walk(value, after);
    if (found.IsDefined() && k.size() > best_len) {
      best = found;
      best_len = k.size();
    }
  }
  return best;
}

}  // namespace

DocNode FindPath(const DocNode& root, std::string_view path) { return Walk(root, path); }

void DecodeContext::Record(const std::string& path, const DocNode& n) { lines_.emplace(path, Line(n)); }

int DecodeContext::Find(const std::string& p) const {
  if (auto it = lines_.find(p); it != lines_.end()) return it->second;
  if (root_.IsDefined()) {
    DocNode n = FindPath(root_, p);
    return n.IsDefined() ? n.Line() : 0;
  }
  // Upstream sometimes names a map entry "status.capacity.nvidia.com/gpu"
  // (field.NewPath children) where we record "status.capacity[nvidia.com/gpu]".
  for (size_t dot = p.find('.'); dot != std::string::npos; dot = p.find('.', dot + 1)) {
    std::string alt = p.substr(0, dot) + "[" + p.substr(dot + 1) + "]";
    if (auto it = lines_.find(alt); it != lines_.end()) return it->second;
  }
  return 0;
}

int DecodeContext::LineOf(const std::string& path) const {
  std::string p = path;
  while (!p.empty()) {
    if (int line = Find(p)) return line;
    // requests[x] defaulted from limits[x]: use the limit's line.
    if (size_t r = p.rfind(".requests"); r != std::string::npos) {
      if (int line = Find(p.substr(0, r) + ".limits" + p.substr(r + 9))) return line;
    }
    size_t cut = p.find_last_of(".[");
    if (cut == std::string::npos) break;
    p.resize(cut);
  }
  return first_line_;
}

void DecodeContext::Error(const std::string& path, const DocNode& at, const std::string& message) {
  if (errors_.empty()) first_error_line_ = Line(at);
  errors_.push_back(path + ": " + message);
}

DocNode DecodeContext::Map(const DocNode& parent, std::string_view key, const std::string& path) {
  DocNode n = Get(parent, key);
  if (Absent(n)) return DocNode();
  Touch(path, n);
  if (!n.IsMap()) {
    Error(path, n, std::string("expected an object, got ") + YamlKind(n));
    return DocNode();
  }
  return n;
}

DocNode DecodeContext::Seq(const DocNode& parent, std::string_view key, const std::string& path) {
  DocNode n = Get(parent, key);
  if (Absent(n)) return DocNode();
  Touch(path, n);
  if (!n.IsSequence()) {
    Error(path, n, std::string("expected a list, got ") + YamlKind(n));
    return DocNode();
  }
  return n;
}

std::string DecodeContext::Str(const DocNode& parent, std::string_view key, const std::string& path) {
  DocNode n = Get(parent, key);
  if (Absent(n)) return "";
  Touch(path, n);
  if (!n.IsScalar()) {
    Error(path, n, std::string("expected a string, got ") + YamlKind(n));
    return "";
  }
  return std::string(n.Scalar());
}

std::optional<int64_t> DecodeContext::Int(const DocNode& parent, std::string_view key, const std::string& path) {
  DocNode n = Get(parent, key);
  if (Absent(n)) return std::nullopt;
  Touch(path, n);
  if (n.IsScalar()) {
    const std::string_view s = n.Scalar();
    int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec == std::errc() && ptr == e) return v;
  }
  Error(path, n,
        std::string("expected an integer, got ") + (n.IsScalar() ? "\"" + std::string(n.Scalar()) + "\"" : YamlKind(n)));
  return std::nullopt;
}

std::optional<bool> DecodeContext::Bool(const DocNode& parent, std::string_view key, const std::string& path) {
  DocNode n = Get(parent, key);
  if (Absent(n)) return std::nullopt;
  Touch(path, n);
  if (n.IsScalar()) {
    const std::string_view s = n.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  Error(path, n,
        std::string("expected true or false, got ") +
            (n.IsScalar() ? "\"" + std::string(n.Scalar()) + "\"" : YamlKind(n)));
  return std::nullopt;
}

std::map<std::string, std::string, std::less<>> DecodeContext::StrMap(const DocNode& parent, std::string_view key,
                                                                      const std::string& path) {
  std::map<std::string, std::string, std::less<>> out;
  DocNode m = Map(parent, key, path);
  if (!m.IsDefined()) return out;
  auto entry_path = [&](std::string_view name) { return path + "[" + std::string(name) + "]"; };
  for (auto [k, v] : m.Entries()) {
    if (!k.IsScalar()) {
      Error(path, k, "keys must be strings");
      continue;
    }
    if (!root_.IsDefined()) Record(entry_path(k.Scalar()), v);
    if (v.IsNull()) {
      out.emplace(std::string(k.Scalar()), std::string());
    } else if (!v.IsScalar()) {
      Error(entry_path(k.Scalar()), v, std::string("expected a string, got ") + YamlKind(v));
    } else {
      out.emplace_hint(out.end(), std::string(k.Scalar()), std::string(v.Scalar()));
    }
  }
  return out;
}

ResourceList DecodeContext::Quantities(const DocNode& parent, std::string_view key, const std::string& path) {
  ResourceList out;
  DocNode m = Map(parent, key, path);
  if (!m.IsDefined()) return out;
  auto entry_path = [&](std::string_view name) { return path + "[" + std::string(name) + "]"; };
  for (auto [k, v] : m.Entries()) {
    if (!k.IsScalar()) {
      Error(path, k, "resource names must be strings");
      continue;
    }
    if (!root_.IsDefined()) Record(entry_path(k.Scalar()), v);
    if (!v.IsScalar()) {
      Error(entry_path(k.Scalar()), v, std::string("expected a quantity, got ") + YamlKind(v));
      continue;
    }
    Result<Quantity> q = Quantity::Parse(v.Scalar());
    if (!q.ok()) {
      Error(entry_path(k.Scalar()), v, q.status().message());
      continue;
    }
    out.emplace_hint(out.end(), std::string(k.Scalar()), *q);
  }
  return out;
}

std::vector<std::pair<DocNode, std::string>> DecodeContext::Objects(const DocNode& parent, std::string_view key,
                                                                    const std::string& path) {
  std::vector<std::pair<DocNode, std::string>> out;
  DocNode list = Seq(parent, key, path);
  for (size_t i = 0; i < list.size(); ++i) {
    DocNode item = list[i];
    std::string p = path + "[" + std::to_string(i) + "]";
    Touch(p, item);
    if (!item.IsMap()) {
      Error(p, item, std::string("expected an object, got ") + YamlKind(item));
      continue;
    }
    out.emplace_back(item, std::move(p));
  }
  return out;
}

std::vector<std::string> DecodeContext::Strings(const DocNode& parent, std::string_view key, const std::string& path) {
  std::vector<std::string> out;
  DocNode list = Seq(parent, key, path);
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].IsScalar()) {
      Error(path + "[" + std::to_string(i) + "]", list[i], std::string("expected a string, got ") + YamlKind(list[i]));
      continue;
    }
    out.emplace_back(list[i].Scalar());
  }
  return out;
}

}  // namespace gpusched

#include "gpusched/io/kube_schema.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace gpusched {

const FieldSchema* StructSchema::Find(std::string_view json) const {
  // sigs.k8s.io/json matches keys case-sensitively.
  for (size_t i = 0; i < count; ++i) {
    const char* name = fields[i].json;
    if (name[0] == json[0] && std::strncmp(name, json.data(), json.size()) == 0 && name[json.size()] == '\0')
      return &fields[i];
  }
  return nullptr;
}

std::string StrictDecodeResult::Message() const {
  if (!type_error.empty()) return type_error;
  std::string s = "strict decoding error: ";
  for (size_t i = 0; i < strict_errors.size(); ++i) s += (i ? ", " : "") + strict_errors[i].second;
  return s;
}

int StrictDecodeResult::Line() const {
  if (!type_error.empty()) return type_error_line;
  return strict_errors.empty() ? 0 : strict_errors.front().first;
}

namespace {

// What Go's decoder calls a JSON value it cannot store ("number", "string").
const char* ValueName(const DocNode& n) {
  if (n.IsMap()) return "object";
  if (n.IsSequence()) return "array";
  switch (n.Kind()) {
    case ScalarKind::kNumber: return "number";
    case ScalarKind::kBool: return "bool";
    case ScalarKind::kString: return "string";
  }
  return "string";
}

bool FitsInteger(std::string_view text, FieldKind kind) {
  // encoding/json: strconv.ParseInt(literal, 10, 64) (ParseUint for
  // unsigned), then the field's range.
  if (kind == FieldKind::kUint32 || kind == FieldKind::kUint64) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) return false;
    return kind == FieldKind::kUint64 || v <= std::numeric_limits<uint32_t>::max();
  }
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return false;
  return kind == FieldKind::kInt64 ||
         (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max());
}

// Walks an object with its schema. The paths of errors are built only when
// there is an error: a stack of the keys and indices on the way down.
class Checker {
 public:
  explicit Checker(StrictDecodeResult& out) : out_(out) {}

  void Check(const DocNode& n, const FieldType& t) {
    if (!n.IsDefined() || n.IsNull()) return;  // null leaves any field unset
    switch (t.kind) {
      case FieldKind::kAny: return;
      case FieldKind::kString:
        if (!n.IsScalar() || n.Kind() != ScalarKind::kString) TypeError(n, ValueName(n), t);
        return;
      case FieldKind::kBool:
        if (!n.IsScalar() || n.Kind() != ScalarKind::kBool) TypeError(n, ValueName(n), t);
        return;
      case FieldKind::kFloat:
        if (!n.IsScalar() || n.Kind() != ScalarKind::kNumber) TypeError(n, ValueName(n), t);
        return;
      case FieldKind::kInt32:
      case FieldKind::kInt64:
      case FieldKind::kUint32:
      case FieldKind::kUint64:
        if (!n.IsScalar() || n.Kind() != ScalarKind::kNumber) {
          TypeError(n, ValueName(n), t);
        } else if (!FitsInteger(n.Scalar(), t.kind)) {
          TypeError(n, "number " + std::string(n.Scalar()), t);
        }
        return;
      case FieldKind::kStruct:
        if (!n.IsMap()) return TypeError(n, ValueName(n), t);
        return Struct(n, *t.schema);
      case FieldKind::kSlice:
        if (!n.IsSequence()) return TypeError(n, ValueName(n), t);
        for (size_t i = 0; i < n.size(); ++i) {
          path_.push_back(Seg{{}, i, Seg::kIndex});
          Check(n[i], *t.elem);
          path_.pop_back();
        }
        return;
      case FieldKind::kMap:
        if (!n.IsMap()) return TypeError(n, ValueName(n), t);
        for (auto [k, v] : n.Entries()) {
          path_.push_back(Seg{k.Scalar(), 0, Seg::kMapKey});
          Check(v, *t.elem);
          path_.pop_back();
        }
        return;
    }
  }

  void Struct(const DocNode& n, const StructSchema& s) {
    structs_.push_back(s.go_name);
    for (auto [k, v] : n.Entries()) {
      const std::string_view key = k.Scalar();
      const FieldSchema* f = key.empty() ? nullptr : s.Find(key);
      path_.push_back(Seg{key, 0, Seg::kField});
      if (f) {
        Check(v, f->type);
      } else if (s.strict) {
        out_.strict_errors.emplace_back(k.Line(), "unknown field \"" + StrictPath() + "\"");
      }
      path_.pop_back();
    }
    structs_.pop_back();
  }

 private:
  struct Seg {
    std::string_view key;
    size_t index;
    enum Type { kField, kMapKey, kIndex } type;
  };

  // sigs.k8s.io/json's strict path: keys joined by '.', indices as [i].
  std::string StrictPath() const {
    std::string s;
    for (const Seg& g : path_) {
      if (g.type == Seg::kIndex) {
        s += "[" + std::to_string(g.index) + "]";
      } else {
        if (!s.empty()) s += '.';
        s += g.key;
      }
    }
    return s;
  }
  // encoding/json's UnmarshalTypeError.Field: the struct fields only.
  std::string FieldPath() const {
    std::string s;
    for (const Seg& g : path_) {
      if (g.type != Seg::kField) continue;
      if (!s.empty()) s += '.';
      s += g.key;
    }
    return s;
  }

  void TypeError(const DocNode& at, const std::string& value, const FieldType& t) {
    if (!out_.type_error.empty()) return;  // Go keeps the first
    out_.type_error = "json: cannot unmarshal " + value + " into Go struct field " + std::string(structs_.back()) + "." +
                      FieldPath() + " of type " + t.go_type;
    out_.type_error_line = at.Line();
  }

  StrictDecodeResult& out_;
  std::vector<Seg> path_;
  std::vector<std::string_view> structs_;
};

// The strict path (as sigs.k8s.io/json names fields) of each map of
// `wanted` found under `root`, visiting shared nodes once.
void FindMaps(const DocNode& n, const std::string& path, const std::unordered_set<uint32_t>& wanted,
              std::unordered_map<uint32_t, std::string>& found, std::unordered_set<uint32_t>& seen) {
  if (!n.IsMap() && !n.IsSequence()) return;
  if (!seen.insert(n.index()).second) return;
  if (n.IsMap()) {
    if (wanted.count(n.index())) found.emplace(n.index(), path);
    for (auto [k, v] : n.Entries())
      FindMaps(v, path.empty() ? std::string(k.Scalar()) : path + "." + std::string(k.Scalar()), wanted, found, seen);
  } else {
    for (size_t i = 0; i < n.size(); ++i) FindMaps(n[i], path + "[" + std::to_string(i) + "]", wanted, found, seen);
  }
}

}  // namespace

std::vector<std::pair<int, std::string>> DuplicateFieldErrors(const DocNode& object) {
  std::vector<std::pair<int, std::string>> out;
  const Document* doc = object.document();
  if (!doc || doc->duplicates().empty()) return out;
  std::unordered_set<uint32_t> wanted;
  for (const auto& d : doc->duplicates()) wanted.insert(d.map);
  std::unordered_map<uint32_t, std::string> found;
  std::unordered_set<uint32_t> seen;
  FindMaps(object, "", wanted, found, seen);
  for (const auto& d : doc->duplicates()) {
    auto it = found.find(d.map);
    if (it == found.end()) continue;
    const std::string path = it->second.empty() ? d.key : it->second + "." + d.key;
    out.emplace_back(d.line, "duplicate field \"" + path + "\" (lines " + std::to_string(d.first_line) + " and " +
                                 std::to_string(d.line) + ")");
  }
  return out;
}

StrictDecodeResult StrictDecode(const DocNode& object, const StructSchema& schema) {
  StrictDecodeResult r;
  if (!object.IsMap()) return r;
  Checker(r).Struct(object, schema);
  for (auto& d : DuplicateFieldErrors(object)) r.strict_errors.push_back(std::move(d));
  // In input order, each once, at most 100 (sigs.k8s.io/json's saveStrictError).
  std::stable_sort(r.strict_errors.begin(), r.strict_errors.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::unordered_set<std::string> seen_messages;
  std::vector<std::pair<int, std::string>> unique;
  for (auto& e : r.strict_errors) {
    if (unique.size() >= 100) break;
    if (seen_messages.insert(e.second).second) unique.push_back(std::move(e));
  }
  r.strict_errors = std::move(unique);
  return r;
}

}  // namespace gpusched

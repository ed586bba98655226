// An ArgsReader (config/plugin_args.h) over a JSON value, for the plugins'
// args decoders in the sched tests, which do not link the configuration
// loader (src/io implements the real one over the parsed file). It reads
// what the value holds and records the decoders' errors and warnings with
// their paths; Go's type errors are the loader's and are tested there.
#ifndef GPUSCHED_TESTS_SCHED_PLUGINS_FAKE_ARGS_READER_H_
#define GPUSCHED_TESTS_SCHED_PLUGINS_FAKE_ARGS_READER_H_

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "gpusched/config/plugin_args.h"

namespace gpusched::testing {

class FakeArgsReader : public ArgsReader {
 public:
  explicit FakeArgsReader(nlohmann::json root) : root_(std::move(root)) { nodes_.push_back(&root_); }
  Node root() const { return Node{1}; }
  std::vector<std::string> errors, warnings;  // "path: message", "unknown field path"

  Node At(Node map, std::string_view key) override { return Child(map, key); }
  Node Map(Node parent, std::string_view key, const std::string&) override {
    Node n = Child(parent, key);
    return n.defined() && Get(n).is_object() ? n : Node{};
  }
  Node Seq(Node parent, std::string_view key, const std::string&) override {
    Node n = Child(parent, key);
    return n.defined() && Get(n).is_array() ? n : Node{};
  }
  size_t Size(Node seq) override { return Get(seq).size(); }
  Node Item(Node seq, size_t i, const std::string&) override { return Add(&Get(seq)[i]); }
  std::string Str(Node parent, std::string_view key, const std::string&) override {
    Node n = Child(parent, key);
    return n.defined() && Get(n).is_string() ? Get(n).get<std::string>() : "";
  }
  std::optional<int64_t> Int(Node parent, std::string_view key, const std::string&) override {
    Node n = Child(parent, key);
    if (!n.defined() || !Get(n).is_number_integer()) return std::nullopt;
    return Get(n).get<int64_t>();
  }
  std::optional<int32_t> Int32(Node parent, std::string_view key, const std::string& path) override {
    std::optional<int64_t> v = Int(parent, key, path);
    if (!v) return std::nullopt;
    return static_cast<int32_t>(*v);
  }
  std::optional<bool> Bool(Node parent, std::string_view key, const std::string&) override {
    Node n = Child(parent, key);
    if (!n.defined() || !Get(n).is_boolean()) return std::nullopt;
    return Get(n).get<bool>();
  }
  std::vector<std::string> Strings(Node parent, std::string_view key, const std::string&) override {
    std::vector<std::string> out;
    Node n = Child(parent, key);
    if (n.defined())
      for (const auto& s : Get(n)) out.push_back(s.get<std::string>());
    return out;
  }
  void WarnUnknown(Node map, const std::string& path, std::initializer_list<const char*> known) override {
    for (const auto& [key, value] : Get(map).items()) {
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok) warnings.push_back("unknown field " + path + "." + key);
    }
  }
  void Error(const std::string& path, Node, const std::string& message) override {
    errors.push_back(path + ": " + message);
  }

 private:
  const nlohmann::json& Get(Node n) const { return *nodes_[n.id - 1]; }
  Node Add(const nlohmann::json* j) {
    nodes_.push_back(j);
    return Node{static_cast<uint32_t>(nodes_.size())};
  }
  Node Child(Node parent, std::string_view key) {
    if (!parent.defined()) return {};
    const nlohmann::json& p = Get(parent);
    auto it = p.find(std::string(key));
    return it == p.end() ? Node{} : Add(&*it);
  }

  nlohmann::json root_;
  std::vector<const nlohmann::json*> nodes_;
};

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_PLUGINS_FAKE_ARGS_READER_H_

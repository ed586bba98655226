// ConfigDecoder (scheduler_config_decoder.h): profiles[].pluginConfig[].args.
// The args object's kind and apiVersion are checked here as the scheme
// checks them; its fields are read by the decoder of the plugin's registry
// row (config/plugin_args.h), through an ArgsReader over the parsed document
// that records errors, warnings and lines as the rest of the file is read.
// Args of a plugin whose row has no decoder are accepted with a warning.
#include <optional>
#include <string>
#include <vector>

#include "gpusched/io/kube_schema.h"
#include "gpusched/model/field_error.h"
#include "scheduler_config_decoder.h"

namespace gpusched {
namespace scheduler_config_internal {
namespace {

// Node ids are 1 + an index into `nodes_` (0 is "absent").
class DocArgsReader : public ArgsReader {
 public:
  DocArgsReader(ConfigDecoder& decoder, const DocNode& root) : decoder_(decoder), ctx_(decoder.ctx()) {
    root_ = Add(root);
  }
  Node root() const { return root_; }

  Node At(Node map, std::string_view key) override { return Add(Get(map)[key]); }
  Node Map(Node parent, std::string_view key, const std::string& path) override {
    return Add(ctx_.Map(Get(parent), key, path));
  }
  Node Seq(Node parent, std::string_view key, const std::string& path) override {
    return Add(ctx_.Seq(Get(parent), key, path));
  }
  size_t Size(Node seq) override { return Get(seq).size(); }
  Node Item(Node seq, size_t i, const std::string& path) override {
    const DocNode n = Get(seq)[i];
    return decoder_.Item(n, path) ? Add(n) : Node{};
  }
  std::string Str(Node parent, std::string_view key, const std::string& path) override {
    return ctx_.Str(Get(parent), key, path);
  }
  std::optional<int64_t> Int(Node parent, std::string_view key, const std::string& path) override {
    return ctx_.Int(Get(parent), key, path);
  }
  std::optional<int32_t> Int32(Node parent, std::string_view key, const std::string& path) override {
    return decoder_.Int32(Get(parent), std::string(key).c_str(), path);
  }
  std::optional<bool> Bool(Node parent, std::string_view key, const std::string& path) override {
    return ctx_.Bool(Get(parent), key, path);
  }
  std::vector<std::string> Strings(Node parent, std::string_view key, const std::string& path) override {
    return decoder_.Strings(Get(parent), std::string(key).c_str(), path);
  }
  void WarnUnknown(Node map, const std::string& path, std::initializer_list<const char*> known) override {
    decoder_.WarnUnknown(Get(map), path, known);
  }
  void Error(const std::string& path, Node at, const std::string& message) override {
    ctx_.Error(path, Get(at), message);
  }

 private:
  Node Add(const DocNode& n) {
    if (!n.IsDefined()) return {};
    nodes_.push_back(n);
    return Node{static_cast<uint32_t>(nodes_.size())};
  }
  DocNode Get(Node n) const { return n.defined() && n.id <= nodes_.size() ? nodes_[n.id - 1] : DocNode(); }

  ConfigDecoder& decoder_;
  DecodeContext& ctx_;
  std::vector<DocNode> nodes_;
  Node root_;
};

}  // namespace

void ConfigDecoder::DecodeArgs(const DocNode& c, const std::string& p, const std::string& plugin,
                               SchedulerProfile& prof, std::set<std::string>& decoded) {
  const std::string ap = p + ".args";
  const DocNode raw = c["args"];
  if (!raw.IsDefined() || raw.IsNull()) return;
  const InTreePlugin* row = nullptr;
  std::string readers;  // the plugins whose args gpusched reads, for the warning
  size_t reader_count = 0;
  for (const InTreePlugin& r : registry_) {
    if (r.decode_args == nullptr) continue;
    if (plugin == r.name) row = &r;
    ++reader_count;
  }
  if (row == nullptr) {
    size_t k = 0;
    for (const InTreePlugin& r : registry_) {
      if (r.decode_args == nullptr) continue;
      readers += std::string(k == 0 ? "" : k + 1 == reader_count ? " and " : ", ") + r.name;
      ++k;
    }
    ctx_.Record(ap, raw);
    ctx_.Warn(raw, ap + " (" + plugin + ") is accepted and ignored: gpusched reads the args of " + readers + " only");
    return;
  }
  const DocNode args = ctx_.Map(c, "args", ap);
  if (!args.IsDefined()) return;
  const std::string want = plugin + "Args";
  const std::string kind = ctx_.Str(args, "kind", ap + ".kind");
  if (!kind.empty() && kind != want) {
    // Upstream: decoding .profiles[i].pluginConfig[j]: args for plugin X
    // were not of type XArgs.kubescheduler.config.k8s.io, got K.group.
    ctx_.Error(p, args, "args for plugin " + plugin + " were not of type " + want + "." + kGroup + ", got " + kind +
                            "." + kGroup);
    return;
  }
  const std::string version = ctx_.Str(args, "apiVersion", ap + ".apiVersion");
  if (!version.empty() && version != kGroupVersion) {
    ctx_.Error(ap + ".apiVersion", args["apiVersion"],
               "no kind " + GoQuote(want) + " is registered for version " + GoQuote(version) + " in scheme " +
                   GoQuote(kScheme));
    return;
  }
  DocArgsReader reader(*this, args);
  if (decoded.insert(plugin).second) {
    row->decode_args(reader, reader.root(), ap, prof);
  } else {
    SchedulerProfile repeated = prof;
    row->decode_args(reader, reader.root(), ap, repeated);
  }
}

}  // namespace scheduler_config_internal
}  // namespace gpusched

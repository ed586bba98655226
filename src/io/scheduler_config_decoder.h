// ConfigDecoder: a KubeSchedulerConfiguration's fields decoded from the
// parsed document into the config structs, with the errors and warnings
// collected in a DecodeContext. Private to src/io (the loader,
// scheduler_config_loader.h, checks the document's kind and version first,
// then defaults and validates what this gives).
//
// One class, three files: scheduler_config_loader.cc decodes the top level,
// the profiles and their plugin sets; scheduler_config_plugin_args.cc the
// pluginConfig args; scheduler_config_extenders.cc the extenders stanza.
// They share the field helpers (WarnUnknown, Int32, Item, Strings).
#ifndef GPUSCHED_IO_SCHEDULER_CONFIG_DECODER_H_
#define GPUSCHED_IO_SCHEDULER_CONFIG_DECODER_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/decode_context.h"

namespace gpusched {
namespace scheduler_config_internal {

inline constexpr const char* kGroupVersion = "kubescheduler.config.k8s.io/v1";
inline constexpr const char* kGroup = "kubescheduler.config.k8s.io";
// Where the scheme that refuses an unknown kind/version was created, as
// release builds print it.
inline constexpr const char* kScheme = "pkg/scheduler/apis/config/scheme/scheme.go:30";

inline std::string Idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

// time.ParseDuration: a sequence of decimal numbers with units ns, us (or
// µs), ms, s, m, h ("1h30m", "2.5s", "-1s"); "0" alone is allowed.
std::optional<double> ParseGoDuration(std::string_view s);

class ConfigDecoder {
 public:
  // `registry`: the plugins that exist and how each reads its args.
  ConfigDecoder(DecodeContext& ctx, const std::vector<InTreePlugin>& registry) : ctx_(ctx), registry_(registry) {}

  void Decode(const DocNode& root, KubeSchedulerConfiguration& out);

  // In scheduler_config_loader.cc; the plugins' args decoders use them
  // through ArgsReader (scheduler_config_plugin_args.cc).

  // Upstream decodes strictly and refuses unknown fields; gpusched says so
  // and goes on.
  void WarnUnknown(const DocNode& map, const std::string& path, std::initializer_list<const char*> known);
  std::optional<int32_t> Int32(const DocNode& parent, const char* key, const std::string& path);
  // A list item that must be an object; records its line.
  bool Item(const DocNode& n, const std::string& path);
  std::vector<std::string> Strings(const DocNode& parent, const char* key, const std::string& path);
  DecodeContext& ctx() { return ctx_; }

 private:
  void DecodeProfile(const DocNode& n, const std::string& path, SchedulerProfile& prof);
  void DecodePlugins(const DocNode& n, const std::string& path, Plugins& out);
  // Returns whether the set was present.
  bool DecodePluginSet(const DocNode& plugins, const char* key, const std::string& parent, PluginSet& out);
  void DecodePluginList(const DocNode& set, const char* key, const std::string& path, std::vector<PluginRef>& out);

  // In scheduler_config_plugin_args.cc.

  // The args of profiles[].pluginConfig[i], handed to the decoder the
  // plugin's registry row names. Only the first entry of a plugin fills the
  // profile (`decoded` holds the plugins already read); a repeated one is
  // still checked and validation reports the repetition.
  void DecodeArgs(const DocNode& c, const std::string& p, const std::string& plugin, SchedulerProfile& prof,
                  std::set<std::string>& decoded);

  // In scheduler_config_extenders.cc.

  // One extenders[] entry (KS config/v1 Extender; []byte fields are base64,
  // httpTimeout a Go duration string as metav1.Duration reads it).
  bool DecodeExtender(const DocNode& n, const std::string& path, Extender& e);
  // A []byte field: base64 text, as encoding/json decodes it.
  std::string Bytes(const DocNode& parent, const char* key, const std::string& path);

  DecodeContext& ctx_;
  const std::vector<InTreePlugin>& registry_;
};

}  // namespace scheduler_config_internal
}  // namespace gpusched

#endif  // GPUSCHED_IO_SCHEDULER_CONFIG_DECODER_H_

// How a plugin reads its own args from a KubeSchedulerConfiguration
// (profiles[].pluginConfig[].args) without knowing the file format: the
// configuration loader (src/io) hands each args object to the decoder its
// plugin's registry row names (sched/plugins/registry.h), through this
// reader. The reader applies Go's decoding rules (a number where a string is
// expected, an int32 out of range, a list item that is not an object) and
// records every error and warning with the file's line, as the rest of the
// configuration is read; a decoder adds its own checks with Error.
//
// Upstream decodes in-tree args through the scheme (apis/config) and
// out-of-tree plugins decode theirs from runtime.Unknown
// (frameworkruntime.DecodeInto); here every plugin that reads args brings its
// decoder, and the configuration keeps the in-tree args types, their
// defaulting and validation (scheduler_config.h), as upstream's apis/config
// does.
#ifndef GPUSCHED_CONFIG_PLUGIN_ARGS_H_
#define GPUSCHED_CONFIG_PLUGIN_ARGS_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

struct SchedulerProfile;

// Args of a plugin the configuration has no field for (a plugin's own
// decoder stores them in SchedulerProfile::plugin_args under its name; its
// factory reads them back with PluginArgsOf in scheduler_config.h).
class PluginArgs {
 public:
  virtual ~PluginArgs() = default;
};

class ArgsReader {
 public:
  // A position in the args being read; id 0 is "absent" (a missing key, or
  // a value of the wrong shape, which has been reported).
  struct Node {
    uint32_t id = 0;
    bool defined() const { return id != 0; }
  };

  virtual ~ArgsReader() = default;

  // The value of `key` in `map` (absent when missing), for an error's line.
  virtual Node At(Node map, std::string_view key) = 0;
  // The object at `key`; a value of another kind is an error.
  virtual Node Map(Node parent, std::string_view key, const std::string& path) = 0;
  // The list at `key`; a value of another kind is an error.
  virtual Node Seq(Node parent, std::string_view key, const std::string& path) = 0;
  virtual size_t Size(Node seq) = 0;
  // The i-th item of `seq`, which must be an object (absent otherwise).
  virtual Node Item(Node seq, size_t i, const std::string& path) = 0;
  virtual std::string Str(Node parent, std::string_view key, const std::string& path) = 0;
  virtual std::optional<int64_t> Int(Node parent, std::string_view key, const std::string& path) = 0;
  virtual std::optional<int32_t> Int32(Node parent, std::string_view key, const std::string& path) = 0;
  virtual std::optional<bool> Bool(Node parent, std::string_view key, const std::string& path) = 0;
  virtual std::vector<std::string> Strings(Node parent, std::string_view key, const std::string& path) = 0;
  // Upstream decodes strictly and refuses unknown fields; the reader warns
  // about each key of `map` not in `known` and goes on.
  virtual void WarnUnknown(Node map, const std::string& path, std::initializer_list<const char*> known) = 0;
  // A decoding or validation error at `path`, on the line of `at`.
  virtual void Error(const std::string& path, Node at, const std::string& message) = 0;
};

// Decodes the args object `args` of profiles[i].pluginConfig[j] (`path` is
// its field path, "profiles[0].pluginConfig[1].args") into `profile`. The
// loader has checked its kind and apiVersion. Only a plugin's first
// pluginConfig entry fills the profile; a repeated one is decoded (and
// checked) into a copy that is dropped.
using ArgsDecoder = void (*)(ArgsReader& reader, ArgsReader::Node args, const std::string& path,
                             SchedulerProfile& profile);

}  // namespace gpusched

#endif  // GPUSCHED_CONFIG_PLUGIN_ARGS_H_

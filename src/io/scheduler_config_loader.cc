// LoadSchedulerConfigText/File (gpusched/io/scheduler_config_loader.h): the
// document's kind and version checked, then decoded (ConfigDecoder,
// scheduler_config_decoder.h; its top level, profiles and plugin sets are
// here, the pluginConfig args and extenders in files of their own),
// defaulted, validated and each profile checked as scheduler.New would.
#include "gpusched/io/scheduler_config_loader.h"

#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <limits>
#include <set>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_schema.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/yaml_documents.h"
#include "scheduler_config_decoder.h"

namespace gpusched {
namespace scheduler_config_internal {

void ConfigDecoder::Decode(const DocNode& root, KubeSchedulerConfiguration& out) {
  WarnUnknown(root, "",
              {"apiVersion", "kind", "parallelism", "leaderElection", "clientConnection", "enableProfiling",
               "enableContentionProfiling", "percentageOfNodesToScore", "podInitialBackoffSeconds",
               "podMaxBackoffSeconds", "profiles", "extenders", "delayCacheUntilActive"});
  // leaderElection, clientConnection, the profiling switches and
  // delayCacheUntilActive do not change where pods go; they are accepted.
  if (auto v = Int32(root, "parallelism", "parallelism")) out.parallelism = *v;
  out.percentage_of_nodes_to_score = Int32(root, "percentageOfNodesToScore", "percentageOfNodesToScore");
  if (auto v = ctx_.Int(root, "podInitialBackoffSeconds", "podInitialBackoffSeconds"))
    out.pod_initial_backoff_seconds = *v;
  if (auto v = ctx_.Int(root, "podMaxBackoffSeconds", "podMaxBackoffSeconds")) out.pod_max_backoff_seconds = *v;
  const DocNode profiles = ctx_.Seq(root, "profiles", "profiles");
  if (profiles.IsDefined()) {
    for (size_t i = 0; i < profiles.size(); ++i) {
      SchedulerProfile prof;
      prof.scheduler_name.clear();
      DecodeProfile(profiles[i], Idx("profiles", i), prof);
      out.profiles.push_back(std::move(prof));
    }
  }
  const DocNode ext = ctx_.Seq(root, "extenders", "extenders");
  if (ext.IsDefined()) {
    for (size_t i = 0; i < ext.size(); ++i) {
      Extender e;
      if (DecodeExtender(ext[i], Idx("extenders", i), e)) out.extenders.push_back(std::move(e));
    }
    if (ext.size() > 0)
      ctx_.Warn(ext, "extenders are read and validated; `gpusched schedule` and `simulate` do not call them "
                     "(`gpusched serve` is an extender)");
  }
}

void ConfigDecoder::WarnUnknown(const DocNode& map, const std::string& path, std::initializer_list<const char*> known) {
  for (auto [key_node, value] : map.Entries()) {
    if (!key_node.IsScalar()) {
      ctx_.Error(path.empty() ? "<root>" : path, key_node, "keys must be strings");
      continue;
    }
    const std::string key(key_node.Scalar());
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (ok) continue;
    const std::string field = path.empty() ? key : path + "." + key;
    ctx_.Warn(key_node, "unknown field " + GoQuote(field) +
                             " is ignored (kube-scheduler refuses it: strict decoding error: unknown field " +
                             GoQuote(field) + ")");
  }
}

std::optional<int32_t> ConfigDecoder::Int32(const DocNode& parent, const char* key, const std::string& path) {
  std::optional<int64_t> v = ctx_.Int(parent, key, path);
  if (!v) return std::nullopt;
  if (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) {
    ctx_.Error(path, parent[key], "value " + std::to_string(*v) + " is out of range for int32");
    return std::nullopt;
  }
  return static_cast<int32_t>(*v);
}

bool ConfigDecoder::Item(const DocNode& n, const std::string& path) {
  ctx_.Record(path, n);
  if (n.IsMap()) return true;
  ctx_.Error(path, n, std::string("expected an object, got ") + YamlKind(n));
  return false;
}

std::vector<std::string> ConfigDecoder::Strings(const DocNode& parent, const char* key, const std::string& path) {
  std::vector<std::string> out;
  const DocNode list = ctx_.Seq(parent, key, path);
  if (!list.IsDefined()) return out;
  for (size_t i = 0; i < list.size(); ++i) {
    const DocNode n = list[i];
    const std::string p = Idx(path, i);
    ctx_.Record(p, n);
    if (n.IsScalar()) {
      out.emplace_back(n.Scalar());
    } else if (n.IsNull()) {
      out.emplace_back();
    } else {
      ctx_.Error(p, n, std::string("expected a string, got ") + YamlKind(n));
    }
  }
  return out;
}

void ConfigDecoder::DecodeProfile(const DocNode& n, const std::string& path, SchedulerProfile& prof) {
  if (!Item(n, path)) return;
  WarnUnknown(n, path, {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"});
  const DocNode name = n["schedulerName"];
  prof.scheduler_name_set = name.IsDefined() && !name.IsNull();
  prof.scheduler_name = ctx_.Str(n, "schedulerName", path + ".schedulerName");
  prof.percentage_of_nodes_to_score = Int32(n, "percentageOfNodesToScore", path + ".percentageOfNodesToScore");
  const DocNode plugins = ctx_.Map(n, "plugins", path + ".plugins");
  if (plugins.IsDefined()) DecodePlugins(plugins, path + ".plugins", prof.plugins);
  const DocNode cfgs = ctx_.Seq(n, "pluginConfig", path + ".pluginConfig");
  if (cfgs.IsDefined()) {
    std::set<std::string> decoded;
    for (size_t i = 0; i < cfgs.size(); ++i) {
      const DocNode c = cfgs[i];
      const std::string p = Idx(path + ".pluginConfig", i);
      if (!Item(c, p)) continue;
      WarnUnknown(c, p, {"name", "args"});
      const std::string plugin = ctx_.Str(c, "name", p + ".name");
      prof.plugin_config.push_back(plugin);
      DecodeArgs(c, p, plugin, prof, decoded);
    }
  }
}

void ConfigDecoder::DecodePlugins(const DocNode& n, const std::string& path, Plugins& out) {
  WarnUnknown(n, path,
              {"multiPoint", "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
               "reserve", "permit", "preBind", "bind", "postBind"});
  DecodePluginSet(n, "multiPoint", path, out.multi_point);
  DecodePluginSet(n, "queueSort", path, out.queue_sort);
  DecodePluginSet(n, "preFilter", path, out.pre_filter);
  DecodePluginSet(n, "filter", path, out.filter);
  DecodePluginSet(n, "postFilter", path, out.post_filter);
  DecodePluginSet(n, "preScore", path, out.pre_score);
  DecodePluginSet(n, "score", path, out.score);
  DecodePluginSet(n, "reserve", path, out.reserve);
  DecodePluginSet(n, "permit", path, out.permit);
  DecodePluginSet(n, "bind", path, out.bind);
  for (const char* ignored : {"preEnqueue", "preBind", "postBind"}) {
    PluginSet unused;
    if (DecodePluginSet(n, ignored, path, unused))
      ctx_.Warn(n[ignored], path + "." + ignored + " is accepted and ignored: gpusched does not run " + ignored +
                                " plugins");
  }
}

bool ConfigDecoder::DecodePluginSet(const DocNode& plugins, const char* key, const std::string& parent,
                                    PluginSet& out) {
  const std::string path = parent + "." + key;
  const DocNode set = ctx_.Map(plugins, key, path);
  if (!set.IsDefined()) return false;
  WarnUnknown(set, path, {"enabled", "disabled"});
  DecodePluginList(set, "enabled", path + ".enabled", out.enabled);
  DecodePluginList(set, "disabled", path + ".disabled", out.disabled);
  return true;
}

void ConfigDecoder::DecodePluginList(const DocNode& set, const char* key, const std::string& path,
                                     std::vector<PluginRef>& out) {
  const DocNode list = ctx_.Seq(set, key, path);
  if (!list.IsDefined()) return;
  for (size_t i = 0; i < list.size(); ++i) {
    const DocNode e = list[i];
    const std::string p = Idx(path, i);
    if (!Item(e, p)) continue;
    WarnUnknown(e, p, {"name", "weight"});
    PluginRef ref;
    ref.name = ctx_.Str(e, "name", p + ".name");
    ref.weight = Int32(e, "weight", p + ".weight").value_or(0);
    out.push_back(std::move(ref));
  }
}

}  // namespace scheduler_config_internal

namespace {

using scheduler_config_internal::ConfigDecoder;
using scheduler_config_internal::Idx;
using scheduler_config_internal::kGroupVersion;
using scheduler_config_internal::kScheme;

// The kinds the v1 scheme registers besides KubeSchedulerConfiguration.
bool IsArgsKind(const std::string& kind) {
  static const std::set<std::string, std::less<>> kKinds = {
      "DefaultPreemptionArgs", "DynamicResourcesArgs", "InterPodAffinityArgs", "NodeAffinityArgs",
      "NodeResourcesBalancedAllocationArgs", "NodeResourcesFitArgs", "PodTopologySpreadArgs", "VolumeBindingArgs"};
  return kKinds.count(kind) > 0;
}

std::string Located(const std::string& file, int line, const std::string& message) {
  return file + ":" + std::to_string(line) + ": " + message;
}

// utilerrors.NewAggregate(...).Error(): one message as it is, several as
// "[m1, m2]", repeated messages once.
std::string Aggregate(const std::vector<std::string>& msgs) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const auto& m : msgs)
    if (seen.insert(m).second) unique.push_back(m);
  if (unique.size() == 1) return unique[0];
  std::string s = "[";
  for (size_t i = 0; i < unique.size(); ++i) s += (i ? ", " : "") + unique[i];
  return s + "]";
}

Result<KubeSchedulerConfiguration> Load(std::string_view text, const std::string& file,
                                        std::vector<std::string>* warnings,
                                        const std::vector<InTreePlugin>& registry) {
  std::vector<YamlDocument> docs = SplitYamlDocuments(text);
  if (docs.empty()) return Status::InvalidArgument(Located(file, 1, "Object 'Kind' is missing (the file is empty)"));
  if (docs.size() > 1 && warnings)
    warnings->push_back(Located(file, docs[1].first_line,
                                "only the first YAML document is read; the " +
                                    (docs.size() == 2 ? std::string("document after it is ignored")
                                                      : std::to_string(docs.size() - 1) + " documents after it are ignored")));
  const YamlDocument& doc = docs[0];
  Document tree;
  int error_line = 0;
  std::string error;
  if (!ParseYamlDocument(doc, tree, error_line, error)) return Status::ParseError(Located(file, error_line, error));
  const DocNode root = tree.root();
  // kube-scheduler decodes its configuration strictly: a key given twice is
  // an error, not a value silently replaced.
  if (auto dups = DuplicateFieldErrors(root); !dups.empty()) {
    std::string msg = "cannot decode KubeSchedulerConfiguration: strict decoding error: ";
    for (size_t i = 0; i < dups.size(); ++i) msg += (i ? ", " : "") + dups[i].second;
    return Status::InvalidArgument(Located(file, dups.front().first, msg));
  }
  DecodeContext ctx(root);
  if (!root.IsMap())
    return Status::InvalidArgument(
        Located(file, ctx.Line(root),
                std::string("expected a KubeSchedulerConfiguration (a map with apiVersion and kind), got ") +
                    YamlKind(root)));
  const std::string kind = ctx.Str(root, "kind", "kind");
  const std::string version = ctx.Str(root, "apiVersion", "apiVersion");
  if (!ctx.errors().empty())
    return Status::InvalidArgument(Located(file, ctx.first_error_line(), ctx.errors().front()));
  // The json serializer checks kind, then version; the scheme then refuses
  // what it does not know.
  if (kind.empty()) return Status::InvalidArgument(Located(file, ctx.Line(root), "Object 'Kind' is missing"));
  if (version.empty()) return Status::InvalidArgument(Located(file, ctx.Line(root), "Object 'apiVersion' is missing"));
  if (version != kGroupVersion || (kind != "KubeSchedulerConfiguration" && !IsArgsKind(kind)))
    // kube-scheduler's text, then ours: most often a manifest was passed
    // where the configuration goes.
    return Status::InvalidArgument(Located(file, ctx.LineOf(version != kGroupVersion ? "apiVersion" : "kind"),
                                           "no kind " + GoQuote(kind) + " is registered for version " +
                                               GoQuote(version) + " in scheme " + GoQuote(kScheme) +
                                               (kind == "KubeSchedulerConfiguration"
                                                    ? "; write apiVersion: " + std::string(kGroupVersion) +
                                                          ", the only version kube-scheduler v1.35 reads"
                                                    : "; --config takes a KubeSchedulerConfiguration (apiVersion: " +
                                                          std::string(kGroupVersion) + "), and manifests go with -f")));
  if (kind != "KubeSchedulerConfiguration")
    return Status::InvalidArgument(Located(file, ctx.LineOf("kind"),
                                           "couldn't decode as KubeSchedulerConfiguration, got " +
                                               std::string(kGroupVersion) + ", Kind=" + kind));

  KubeSchedulerConfiguration config;
  ConfigDecoder(ctx, registry).Decode(root, config);
  if (warnings)
    for (const auto& [line, w] : ctx.warnings()) warnings->push_back(Located(file, line, w));
  if (!ctx.errors().empty()) {
    std::string msg = "cannot decode KubeSchedulerConfiguration: ";
    for (size_t i = 0; i < ctx.errors().size(); ++i) msg += (i ? "; " : "") + ctx.errors()[i];
    return Status::InvalidArgument(Located(file, ctx.first_error_line(), msg));
  }

  SetDefaults(config);
  std::vector<FieldError> errs = ValidateSchedulerConfiguration(config);
  if (!errs.empty()) {
    std::vector<std::string> msgs;
    for (const auto& e : errs) msgs.push_back(e.ToString());
    return Status::InvalidArgument(Located(file, ctx.LineOf(errs.front().field),
                                           "invalid KubeSchedulerConfiguration: " + Aggregate(msgs)));
  }
  // What scheduler.New refuses when it builds the profiles.
  for (size_t i = 0; i < config.profiles.size(); ++i) {
    if (std::optional<std::string> err = FrameworkError(config, i, registry)) {
      return Status::InvalidArgument(Located(
          file, ctx.LineOf(Idx("profiles", i) + ".plugins"),
          "invalid KubeSchedulerConfiguration: initializing profiles: creating profile for scheduler name " +
              config.profiles[i].scheduler_name + ": " + *err));
    }
  }
  return config;
}

}  // namespace

Result<KubeSchedulerConfiguration> LoadSchedulerConfigText(std::string_view text, const std::string& file,
                                                           std::vector<std::string>* warnings,
                                                           const std::vector<InTreePlugin>& registry) {
  try {
    return Load(text, file, warnings, registry);
  } catch (const std::exception& e) {
    // Decoding only reads through guarded accessors; this is a backstop so
    // that no input can crash the loader.
    return Status::InvalidArgument(Located(file, 1, std::string("cannot decode KubeSchedulerConfiguration: ") +
                                                        e.what()));
  }
}

Result<KubeSchedulerConfiguration> LoadSchedulerConfigFile(const std::string& path,
                                                           std::vector<std::string>* warnings,
                                                           const std::vector<InTreePlugin>& registry) {
  std::string text;
  if (Status s = ReadInput(path, text); !s.ok()) return s;
  return LoadSchedulerConfigText(text, path == "-" ? "<stdin>" : path, warnings, registry);
}

}  // namespace gpusched

#include "gpusched/io/scheduler_config_loader.h"

#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <limits>
#include <set>
#include <type_traits>

#include "decode_context.h"
#include "gpusched/io/kube_schema.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/util/base64.h"

namespace gpusched {
namespace {

constexpr const char* kGroupVersion = "kubescheduler.config.k8s.io/v1";
constexpr const char* kGroup = "kubescheduler.config.k8s.io";
// Where the scheme that refuses an unknown kind/version was created, as
// release builds print it.
constexpr const char* kScheme = "pkg/scheduler/apis/config/scheme/scheme.go:30";

std::string Idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

// The kinds the v1 scheme registers besides KubeSchedulerConfiguration.
bool IsArgsKind(const std::string& kind) {
  static const std::set<std::string, std::less<>> kKinds = {
      "DefaultPreemptionArgs", "DynamicResourcesArgs", "InterPodAffinityArgs", "NodeAffinityArgs",
      "NodeResourcesBalancedAllocationArgs", "NodeResourcesFitArgs", "PodTopologySpreadArgs", "VolumeBindingArgs"};
  return kKinds.count(kind) > 0;
}

// time.ParseDuration: a sequence of decimal numbers with units ns, us (or
// µs), ms, s, m, h ("1h30m", "2.5s", "-1s"); "0" alone is allowed.
std::optional<double> ParseGoDuration(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double sign = 1;
  if (s[0] == '-' || s[0] == '+') {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (s == "0") return 0.0;
  if (s.empty()) return std::nullopt;
  double total = 0;
  while (!s.empty()) {
    size_t i = 0;
    double value = 0;
    bool digits = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') value = value * 10 + (s[i++] - '0'), digits = true;
    if (i < s.size() && s[i] == '.') {
      ++i;
      double scale = 0.1;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') value += (s[i++] - '0') * scale, scale /= 10, digits = true;
    }
    if (!digits) return std::nullopt;
    s.remove_prefix(i);
    static constexpr std::pair<std::string_view, double> kUnits[] = {
        {"ns", 1e-9}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}};
    bool found = false;
    for (const auto& [unit, factor] : kUnits) {
      if (s.substr(0, unit.size()) == unit && (unit != "m" || s.substr(0, 2) != "ms")) {
        total += value * factor;
        s.remove_prefix(unit.size());
        found = true;
        break;
      }
    }
    if (!found) return std::nullopt;  // a missing or unknown unit
  }
  return sign * total;
}

class ConfigDecoder {
 public:
  explicit ConfigDecoder(DecodeContext& ctx) : ctx_(ctx) {}

  void Decode(const DocNode& root, KubeSchedulerConfiguration& out) {
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

 private:
  // Upstream decodes strictly and refuses unknown fields; gpusched says so
  // and goes on.
  void WarnUnknown(const DocNode& map, const std::string& path, std::initializer_list<const char*> known) {
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

  std::optional<int32_t> Int32(const DocNode& parent, const char* key, const std::string& path) {
    std::optional<int64_t> v = ctx_.Int(parent, key, path);
    if (!v) return std::nullopt;
    if (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) {
      ctx_.Error(path, parent[key], "value " + std::to_string(*v) + " is out of range for int32");
      return std::nullopt;
    }
    return static_cast<int32_t>(*v);
  }

  // A list item that must be an object; records its line.
  bool Item(const DocNode& n, const std::string& path) {
    ctx_.Record(path, n);
    if (n.IsMap()) return true;
    ctx_.Error(path, n, std::string("expected an object, got ") + YamlKind(n));
    return false;
  }

  std::vector<std::string> Strings(const DocNode& parent, const char* key, const std::string& path) {
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

  void DecodeProfile(const DocNode& n, const std::string& path, SchedulerProfile& prof) {
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
      bool have_fit = false;
      bool have_balanced = false;
      for (size_t i = 0; i < cfgs.size(); ++i) {
        const DocNode c = cfgs[i];
        const std::string p = Idx(path + ".pluginConfig", i);
        if (!Item(c, p)) continue;
        WarnUnknown(c, p, {"name", "args"});
        const std::string plugin = ctx_.Str(c, "name", p + ".name");
        prof.plugin_config.push_back(plugin);
        DecodeArgs(c, p, plugin, prof, have_fit, have_balanced);
      }
    }
  }

  void DecodePlugins(const DocNode& n, const std::string& path, Plugins& out) {
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

  // Returns whether the set was present.
  bool DecodePluginSet(const DocNode& plugins, const char* key, const std::string& parent, PluginSet& out) {
    const std::string path = parent + "." + key;
    const DocNode set = ctx_.Map(plugins, key, path);
    if (!set.IsDefined()) return false;
    WarnUnknown(set, path, {"enabled", "disabled"});
    DecodePluginList(set, "enabled", path + ".enabled", out.enabled);
    DecodePluginList(set, "disabled", path + ".disabled", out.disabled);
    return true;
  }

  void DecodePluginList(const DocNode& set, const char* key, const std::string& path, std::vector<PluginRef>& out) {
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

  // The args of profiles[].pluginConfig[i]. Only the first entry of a
  // plugin fills the profile; a repeated one is still checked and
  // validation reports the repetition.
  void DecodeArgs(const DocNode& c, const std::string& p, const std::string& plugin, SchedulerProfile& prof,
                  bool& have_fit, bool& have_balanced) {
    const std::string ap = p + ".args";
    const DocNode raw = c["args"];
    if (!raw.IsDefined() || raw.IsNull()) return;
    const bool fit = plugin == "NodeResourcesFit";
    const bool balanced = plugin == "NodeResourcesBalancedAllocation";
    const bool coscheduling = plugin == "Coscheduling";
    if (!fit && !balanced && !coscheduling) {
      ctx_.Record(ap, raw);
      ctx_.Warn(raw, ap + " (" + plugin +
                         ") is accepted and ignored: gpusched reads the args of NodeResourcesFit, "
                         "NodeResourcesBalancedAllocation and Coscheduling only");
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
    if (coscheduling) {
      // scheduler-plugins: decoded, defaulted, then ValidateCoschedulingArgs
      // (apis/config/validation/validation_pluginargs.go) when the plugin
      // is created.
      WarnUnknown(args, ap, {"apiVersion", "kind", "permitWaitingTimeSeconds", "podGroupBackoffSeconds",
                             "podGroupRejectPercentage"});
      CoschedulingArgs a;
      auto read = [&](const char* key, auto& field, bool percentage) {
        std::optional<int64_t> v = ctx_.Int(args, key, ap + "." + key);
        if (!v) return;
        if (*v < 0 || (percentage && *v > 100))
          ctx_.Error(ap + "." + key, args[key],
                     "Invalid value: " + std::to_string(*v) +
                         (percentage ? ": must be between 0 and 100" : ": must be greater than 0"));
        field = static_cast<std::remove_reference_t<decltype(field)>>(*v);
      };
      read("permitWaitingTimeSeconds", a.permit_waiting_time_seconds, false);
      read("podGroupBackoffSeconds", a.pod_group_backoff_seconds, false);
      read("podGroupRejectPercentage", a.pod_group_reject_percentage, true);
      prof.coscheduling_args = a;
      return;
    }
    if (fit) {
      NodeResourcesFitArgs a;
      DecodeFitArgs(args, ap, a);
      if (!have_fit) prof.fit_args = std::move(a);
      have_fit = true;
    } else {
      NodeResourcesBalancedAllocationArgs a;
      WarnUnknown(args, ap, {"apiVersion", "kind", "resources"});
      a.resources = Resources(args, "resources", ap + ".resources");
      if (!have_balanced) prof.balanced_args = std::move(a);
      have_balanced = true;
    }
  }

  std::vector<ResourceSpec> Resources(const DocNode& parent, const char* key, const std::string& path) {
    std::vector<ResourceSpec> out;
    const DocNode list = ctx_.Seq(parent, key, path);
    if (!list.IsDefined()) return out;
    for (size_t i = 0; i < list.size(); ++i) {
      const DocNode r = list[i];
      const std::string p = Idx(path, i);
      if (!Item(r, p)) continue;
      WarnUnknown(r, p, {"name", "weight"});
      ResourceSpec spec;
      spec.name = ctx_.Str(r, "name", p + ".name");
      spec.weight = ctx_.Int(r, "weight", p + ".weight").value_or(0);
      out.push_back(std::move(spec));
    }
    return out;
  }

  void DecodeFitArgs(const DocNode& args, const std::string& ap, NodeResourcesFitArgs& a) {
    WarnUnknown(args, ap, {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"});
    a.ignored_resources = Strings(args, "ignoredResources", ap + ".ignoredResources");
    a.ignored_resource_groups = Strings(args, "ignoredResourceGroups", ap + ".ignoredResourceGroups");
    const std::string sp = ap + ".scoringStrategy";
    const DocNode ss = ctx_.Map(args, "scoringStrategy", sp);
    if (!ss.IsDefined()) return;  // defaulting supplies {LeastAllocated, cpu, memory}
    WarnUnknown(ss, sp, {"type", "resources", "requestedToCapacityRatio"});
    // A scoringStrategy without a type keeps "" (defaulting only fills a
    // missing scoringStrategy), which validation refuses.
    const std::string type = ctx_.Str(ss, "type", sp + ".type");
    if (std::optional<ScoringStrategyType> t = ParseScoringStrategy(type)) {
      a.type = *t;
    } else {
      a.unsupported_type = type;
    }
    a.resources = Resources(ss, "resources", sp + ".resources");
    const std::string rp = sp + ".requestedToCapacityRatio";
    const DocNode rtc = ctx_.Map(ss, "requestedToCapacityRatio", rp);
    if (!rtc.IsDefined()) return;
    a.has_requested_to_capacity_ratio = true;
    WarnUnknown(rtc, rp, {"shape"});
    const DocNode shape = ctx_.Seq(rtc, "shape", rp + ".shape");
    if (!shape.IsDefined()) return;
    for (size_t i = 0; i < shape.size(); ++i) {
      const DocNode pt = shape[i];
      const std::string p = Idx(rp + ".shape", i);
      if (!Item(pt, p)) continue;
      WarnUnknown(pt, p, {"utilization", "score"});
      UtilizationShapePoint point;
      point.utilization = Int32(pt, "utilization", p + ".utilization").value_or(0);
      point.score = Int32(pt, "score", p + ".score").value_or(0);
      a.shape.push_back(point);
    }
  }

  // One extenders[] entry (KS config/v1 Extender; []byte fields are base64,
  // httpTimeout a Go duration string as metav1.Duration reads it).
  bool DecodeExtender(const DocNode& n, const std::string& path, Extender& e) {
    if (!Item(n, path)) return false;
    WarnUnknown(n, path,
                {"urlPrefix", "filterVerb", "preemptVerb", "prioritizeVerb", "weight", "bindVerb", "enableHTTPS",
                 "tlsConfig", "httpTimeout", "nodeCacheCapable", "managedResources", "ignorable"});
    e.url_prefix = ctx_.Str(n, "urlPrefix", path + ".urlPrefix");
    e.filter_verb = ctx_.Str(n, "filterVerb", path + ".filterVerb");
    e.preempt_verb = ctx_.Str(n, "preemptVerb", path + ".preemptVerb");
    e.prioritize_verb = ctx_.Str(n, "prioritizeVerb", path + ".prioritizeVerb");
    e.bind_verb = ctx_.Str(n, "bindVerb", path + ".bindVerb");
    e.weight = ctx_.Int(n, "weight", path + ".weight").value_or(0);
    e.enable_https = ctx_.Bool(n, "enableHTTPS", path + ".enableHTTPS").value_or(false);
    e.node_cache_capable = ctx_.Bool(n, "nodeCacheCapable", path + ".nodeCacheCapable").value_or(false);
    e.ignorable = ctx_.Bool(n, "ignorable", path + ".ignorable").value_or(false);
    const std::string timeout = ctx_.Str(n, "httpTimeout", path + ".httpTimeout");
    if (!timeout.empty()) {
      if (std::optional<double> secs = ParseGoDuration(timeout)) {
        e.http_timeout_seconds = *secs;
      } else {
        ctx_.Error(path + ".httpTimeout", n["httpTimeout"], "time: invalid duration " + GoQuote(timeout));
      }
    }
    const std::string tp = path + ".tlsConfig";
    const DocNode tls = ctx_.Map(n, "tlsConfig", tp);
    if (tls.IsDefined()) {
      WarnUnknown(tls, tp,
                  {"insecure", "serverName", "certFile", "keyFile", "caFile", "certData", "keyData", "caData"});
      ExtenderTLSConfig t;
      t.insecure = ctx_.Bool(tls, "insecure", tp + ".insecure").value_or(false);
      t.server_name = ctx_.Str(tls, "serverName", tp + ".serverName");
      t.cert_file = ctx_.Str(tls, "certFile", tp + ".certFile");
      t.key_file = ctx_.Str(tls, "keyFile", tp + ".keyFile");
      t.ca_file = ctx_.Str(tls, "caFile", tp + ".caFile");
      t.cert_data = Bytes(tls, "certData", tp + ".certData");
      t.key_data = Bytes(tls, "keyData", tp + ".keyData");
      t.ca_data = Bytes(tls, "caData", tp + ".caData");
      e.tls_config = std::move(t);
    }
    const std::string mp = path + ".managedResources";
    const DocNode managed = ctx_.Seq(n, "managedResources", mp);
    if (managed.IsDefined()) {
      for (size_t j = 0; j < managed.size(); ++j) {
        const DocNode r = managed[j];
        const std::string p = Idx(mp, j);
        if (!Item(r, p)) continue;
        WarnUnknown(r, p, {"name", "ignoredByScheduler"});
        ExtenderManagedResource res;
        res.name = ctx_.Str(r, "name", p + ".name");
        res.ignored_by_scheduler = ctx_.Bool(r, "ignoredByScheduler", p + ".ignoredByScheduler").value_or(false);
        e.managed_resources.push_back(std::move(res));
      }
    }
    return true;
  }

  // A []byte field: base64 text, as encoding/json decodes it.
  std::string Bytes(const DocNode& parent, const char* key, const std::string& path) {
    const std::string text = ctx_.Str(parent, key, path);
    size_t bad = 0;
    std::optional<std::string> bytes = Base64Decode(text, &bad);
    if (bytes) return *bytes;
    ctx_.Error(path, parent[key], "illegal base64 data at input byte " + std::to_string(bad));
    return "";
  }

  DecodeContext& ctx_;
};

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
                                        std::vector<std::string>* warnings) {
  std::vector<YamlDocument> docs = SplitYamlDocuments(text);
  if (docs.empty()) return Status::InvalidArgument(Located(file, 1, "Object 'Kind' is missing (the file is empty)"));
  if (docs.size() > 1 && warnings)
    warnings->push_back(Located(file, docs[1].first_line,
                                "only the first YAML document is read; the " + std::to_string(docs.size() - 1) +
                                    " after it are ignored"));
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
    return Status::InvalidArgument(Located(file, ctx.LineOf(version != kGroupVersion ? "apiVersion" : "kind"),
                                           "no kind " + GoQuote(kind) + " is registered for version " +
                                               GoQuote(version) + " in scheme " + GoQuote(kScheme)));
  if (kind != "KubeSchedulerConfiguration")
    return Status::InvalidArgument(Located(file, ctx.LineOf("kind"),
                                           "couldn't decode as KubeSchedulerConfiguration, got " +
                                               std::string(kGroupVersion) + ", Kind=" + kind));

  KubeSchedulerConfiguration config;
  ConfigDecoder(ctx).Decode(root, config);
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
    if (std::optional<std::string> err = FrameworkError(config, i)) {
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
                                                           std::vector<std::string>* warnings) {
  try {
    return Load(text, file, warnings);
  } catch (const std::exception& e) {
    // Decoding only reads through guarded accessors; this is a backstop so
    // that no input can crash the loader.
    return Status::InvalidArgument(Located(file, 1, std::string("cannot decode KubeSchedulerConfiguration: ") +
                                                        e.what()));
  }
}

Result<KubeSchedulerConfiguration> LoadSchedulerConfigFile(const std::string& path,
                                                           std::vector<std::string>* warnings) {
  std::string text;
  if (Status s = ReadInput(path, text); !s.ok()) return s;
  return LoadSchedulerConfigText(text, path == "-" ? "<stdin>" : path, warnings);
}

}  // namespace gpusched

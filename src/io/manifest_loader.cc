#include "gpusched/io/manifest_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "decode_context.h"
#include "gpusched/io/json_documents.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/workload_names.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/model/validation.h"
#include "kube_decode.h"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

struct Source {
  const std::string& file;
  int first_line;
  Manifests& out;
};

std::string ObjectId(std::string_view kind, const ObjectMeta& m) {
  std::string id(kind);
  if (!m.namespace_.empty()) id += "/" + m.namespace_;
  return id + "/" + m.name;
}

// "Pod in version "v1" cannot be handled as a Pod: <errors>", the API
// server's message for a body it cannot decode, with our field paths.
std::string DecodeFailure(std::string_view kind, std::string_view version, const DecodeContext& ctx) {
  std::string msg = std::string(kind) + " in version \"" + std::string(version) + "\" cannot be handled as a " +
                    std::string(kind) + ": ";
  for (size_t i = 0; i < ctx.errors().size(); ++i) msg += (i ? "; " : "") + ctx.errors()[i];
  return msg;
}

void FlushWarnings(const Source& src, const DecodeContext& ctx, const std::string& id) {
  for (const auto& [line, text] : ctx.warnings())
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": " + text);
}

void Reject(const Source& src, std::string id, int line, std::string message) {
  src.out.rejected.push_back(InputError{std::move(id), src.file, line, std::move(message)});
}

// Gives a pod with only generateName a deterministic generated name.
void ApplyGenerateName(ObjectMeta& m, const std::string& file, int line) {
  if (m.name.empty() && !m.generate_name.empty())
    m.name = m.generate_name + SafeSuffix(Fnv1a64(file + ":" + std::to_string(line) + ":" + m.generate_name), 5);
}

// Validates, checks for duplicates and keeps one pod (plain or expanded).
bool AcceptPod(const Source& src, Pod pod, int line) {
  std::string key = pod.ns() + "/" + pod.name();
  if (!src.out.pod_keys.insert(key).second) {
    Reject(src, ObjectId("Pod", pod.meta), line, "pods \"" + pod.name() + "\" already exists");
    return false;
  }
  src.out.pods.push_back(LoadedPod{std::move(pod), src.file, line});
  return true;
}

void LoadPod(const Source& src, const DocNode& obj, DecodeContext& ctx, const std::string& version) {
  Pod pod;
  DecodePod(ctx, obj, pod);
  const int line = ctx.Line(obj);
  ApplyGenerateName(pod.meta, src.file, line);
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  const std::string id = ObjectId("Pod", pod.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure("Pod", version, ctx));
  DefaultPod(pod);
  std::vector<FieldError> errs = ValidatePod(pod);
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage("Pod", pod.name(), errs));
  if (pod.phase == "Succeeded" || pod.phase == "Failed") {
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": status.phase is " + pod.phase +
                               ": a terminated pod holds no resources and is not scheduled");
    return;
  }
  AcceptPod(src, std::move(pod), line);
}

void LoadNode(const Source& src, const DocNode& obj, DecodeContext& ctx, const std::string& version) {
  Node node;
  DecodeNode(ctx, obj, node);
  const int line = ctx.Line(obj);
  const std::string id = ObjectId("Node", node.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure("Node", version, ctx));
  std::vector<FieldError> errs = ValidateNode(node);
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage("Node", node.name(), errs));
  if (!src.out.node_keys.insert(node.name()).second)
    return Reject(src, id, line, "nodes \"" + node.name() + "\" already exists");
  if (!node.EffectiveAllocatable().count(std::string(kResourcePods)))
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id +
                               ": no \"pods\" in status.allocatable or status.capacity: kube-scheduler "
                               "treats the node as full (\"Too many pods\"); kubelets report pods: \"110\"");
  src.out.nodes.push_back(LoadedNode{std::move(node), src.file, line});
}

// Deployment, ReplicaSet, StatefulSet (spec.replicas, default 1) and Job
// (min(parallelism, completions), default 1) become that many pods.
void LoadWorkload(const Source& src, const DocNode& obj, DecodeContext& ctx, const std::string& kind,
                  const std::string& version) {
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  const int line = ctx.Line(obj);
  ApplyGenerateName(meta, src.file, line);
  if (meta.namespace_.empty()) meta.namespace_ = kDefaultNamespace;
  const std::string id = ObjectId(kind, meta);
  Pod tmpl;
  int64_t count = 1;
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    if (kind == "Job") {
      int64_t parallelism = ctx.Int(spec, "parallelism", "spec.parallelism").value_or(1);
      std::optional<int64_t> completions = ctx.Int(spec, "completions", "spec.completions");
      count = completions ? std::min(parallelism, *completions) : parallelism;
    } else {
      count = ctx.Int(spec, "replicas", "spec.replicas").value_or(1);
    }
    const DocNode tpl = ctx.Map(spec, "template", "spec.template");
    if (tpl.IsDefined()) {
      DecodeObjectMeta(ctx, tpl, "spec.template.metadata", tmpl.meta);
      DecodePodSpec(ctx, tpl, "spec.template.spec", tmpl);
    }
  }
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, version, ctx));
  std::vector<FieldError> errs;
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  }
  if (count < 0) {
    const char* field = kind == "Job" ? "spec.parallelism" : "spec.replicas";
    errs.push_back(FieldError::Invalid(field, std::to_string(count), "must be greater than or equal to 0"));
  }
  tmpl.meta.namespace_ = meta.namespace_;
  // The API server defaults requests from limits on Pods only (SetDefaults_Pod),
  // so a template is validated as written; its pods get the defaults.
  std::vector<FieldError> spec_errs = ValidatePod(tmpl, "spec.template.spec", /*validate_meta=*/false);
  errs.insert(errs.end(), spec_errs.begin(), spec_errs.end());
  if (!errs.empty()) return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage(kind, meta.name, errs));
  DefaultPod(tmpl);
  if (count == 0) {
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": 0 replicas: no pods");
    return;
  }
  constexpr int64_t kMaxReplicas = 1'000'000;
  if (count > kMaxReplicas) {
    return Reject(src, id, ctx.LineOf(kind == "Job" ? "spec.parallelism" : "spec.replicas"),
                  kind + " " + meta.name + ": " + std::to_string(count) + " replicas is more than gpusched expands (" +
                      std::to_string(kMaxReplicas) + ")");
  }
  for (int64_t i = 0; i < count; ++i) {
    Pod p = tmpl;
    p.meta.name = ExpandedPodName(kind, meta.namespace_, meta.name, i);
    p.meta.generate_name.clear();
    p.owner = kind + "/" + meta.name;
    AcceptPod(src, std::move(p), line);
  }
}

void LoadObject(const Source& src, const DocNode& obj, int depth);

void LoadList(const Source& src, const DocNode& obj, DecodeContext& ctx, int depth) {
  const DocNode items = ctx.Seq(obj, "items", "items");
  if (!ctx.errors().empty()) return Reject(src, "List", ctx.first_error_line(), ctx.errors().front());
  for (DocNode item : items) LoadObject(src, item, depth + 1);
}

void LoadObject(const Source& src, const DocNode& obj, int depth) {
  DecodeContext ctx(obj);
  if (!obj.IsMap()) {
    return Reject(src, "", ctx.Line(obj),
                  std::string("expected a Kubernetes object (a map with apiVersion and kind), got ") + YamlKind(obj));
  }
  const std::string kind = ctx.Str(obj, "kind", "kind");
  const std::string version = ctx.Str(obj, "apiVersion", "apiVersion");
  if (!ctx.errors().empty()) return Reject(src, "", ctx.first_error_line(), ctx.errors().front());
  if (kind.empty()) return Reject(src, "", ctx.Line(obj), "Object 'Kind' is missing");
  if (kind == "Pod") return LoadPod(src, obj, ctx, version.empty() ? "v1" : version);
  if (kind == "Node") return LoadNode(src, obj, ctx, version.empty() ? "v1" : version);
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "Job")
    return LoadWorkload(src, obj, ctx, kind, version.empty() ? "apps/v1" : version);
  if (kind == "List" || (kind.size() > 4 && kind.ends_with("List"))) {
    if (depth > 8) return Reject(src, kind, ctx.Line(obj), "Lists nested more than 8 deep");
    return LoadList(src, obj, ctx, depth);
  }
  if (kind == "PriorityClass") {
    ObjectMeta meta;
    DecodeObjectMeta(ctx, obj, "metadata", meta);
    std::optional<int64_t> value = ctx.Int(obj, "value", "value");
    Manifests::PriorityClass pc;
    pc.global_default = ctx.Bool(obj, "globalDefault", "globalDefault").value_or(false);
    pc.preemption_policy = ctx.Str(obj, "preemptionPolicy", "preemptionPolicy");
    const std::string id = "PriorityClass/" + meta.name;
    if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), ctx.errors().front());
    if (!value) return Reject(src, id, ctx.Line(obj), "The PriorityClass \"" + meta.name + "\" is invalid: value: Required value");
    if (*value > 1000000000 && meta.name.rfind("system-", 0) != 0)
      return Reject(src, id, ctx.LineOf("value"),
                    "The PriorityClass \"" + meta.name + "\" is invalid: value: Forbidden: maximum allowed value of a "
                    "user defined priority is 1000000000");
    pc.value = static_cast<int32_t>(*value);
    if (!src.out.priority_classes.emplace(meta.name, pc).second)
      return Reject(src, id, ctx.Line(obj), "priorityclasses.scheduling.k8s.io \"" + meta.name + "\" already exists");
    return;
  }
  ObjectMeta meta;
  DecodeObjectMeta(ctx, obj, "metadata", meta);
  std::string why = (kind == "DaemonSet" || kind == "CronJob")
                        ? " is not expanded into pods by gpusched (yet); write its pods or a Job instead"
                        : " does not take part in scheduling";
  src.out.warnings.push_back(src.file + ":" + std::to_string(ctx.Line(obj)) + ": skipping " + kind + " \"" +
                             meta.name + "\": kind " + kind + why);
}

// What one top-level JSON value has added to `out`, so that a List refused
// as a whole (a syntax error in its last item, no kind) takes back the items
// already loaded from it: kubectl decodes a List whole or not at all.
struct Snapshot {
  size_t pods = 0, nodes = 0, rejected = 0, warnings = 0;
  std::map<std::string, Manifests::PriorityClass, std::less<>> priority_classes;

  static Snapshot Of(const Manifests& m) {
    return Snapshot{m.pods.size(), m.nodes.size(), m.rejected.size(), m.warnings.size(), m.priority_classes};
  }
  void Restore(Manifests& m) const {
    for (size_t i = pods; i < m.pods.size(); ++i) m.pod_keys.erase(m.pods[i].pod.ns() + "/" + m.pods[i].pod.name());
    for (size_t i = nodes; i < m.nodes.size(); ++i) m.node_keys.erase(m.nodes[i].node.name());
    m.pods.resize(pods);
    m.nodes.resize(nodes);
    m.rejected.resize(rejected);
    m.warnings.resize(warnings);
    m.priority_classes = priority_classes;
  }
};

void LoadJson(std::string_view text, size_t capacity, const std::string& file, Manifests& out) {
  Snapshot before;
  int line = 1;
  JsonStreamEvents events;
  events.begin = [&](int first_line) {
    before = Snapshot::Of(out);
    line = first_line;
  };
  events.list = [&](size_t count) {
    out.pods.reserve(out.pods.size() + count);
    out.pod_keys.reserve(out.pod_keys.size() + count);
  };
  events.item = [&](const DocNode& item) { LoadObject(Source{file, line, out}, item, 1); };
  events.end = [&](const DocNode& value, size_t streamed) {
    const size_t rejected = out.rejected.size();
    LoadObject(Source{file, line, out}, value, 0);
    // A List whose own fields are refused takes its streamed items with it.
    if (streamed > 0 && out.rejected.size() > rejected) {
      InputError why = out.rejected.back();
      before.Restore(out);
      out.rejected.push_back(std::move(why));
    }
  };
  events.error = [&](int at, const std::string& message) {
    before.Restore(out);
    out.rejected.push_back(InputError{"", file, at, message});
  };
  ParseJsonStream(text.data(), text.size(), capacity, 1, events);
}

// Copies `text` into `out` with each byte that does not start a valid UTF-8
// sequence replaced by U+FFFD; false (and no copy) when all of it is valid.
bool ReplaceInvalidUtf8(std::string_view text, std::string& out) {
  auto valid_at = [&](size_t i) -> size_t {  // length of the valid sequence at i, 0 if none
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) return 1;
    const size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    const auto c1 = static_cast<unsigned char>(text[i + 1]);
    // The second byte's range excludes overlong forms and surrogates.
    const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (c1 < lo || c1 > hi) return 0;
    for (size_t k = 2; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
    return n;
  };
  size_t i = 0;
  while (i < text.size()) {
    // Plain ASCII runs are the common case.
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t n = valid_at(i);
    if (n == 0) break;
    i += n;
  }
  if (i == text.size()) return false;
  out.reserve(text.size() + text.size() / 8 + 64);
  out.assign(text.substr(0, i));
  while (i < text.size()) {
    size_t n = valid_at(i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return true;
}

bool IsManifestFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

// One file's objects, without the cross-file Priority admission step.
// `capacity`: bytes readable from text.data() (see ParseJsonStream).
void LoadText(std::string_view text, size_t capacity, const std::string& file, Manifests& out);

void LoadManifestText(std::string_view text, const std::string& file, Manifests& out) {
  LoadText(text, 0, file, out);
  ResolvePriorities(out);
}

void ResolvePriorities(Manifests& m) {
  // pkg/apis/scheduling: SystemCriticalPriority = 2000000000.
  std::map<std::string, Manifests::PriorityClass, std::less<>> classes = {
      {"system-cluster-critical", {2000000000, false, ""}}, {"system-node-critical", {2000001000, false, ""}}};
  for (const auto& [name, pc] : m.priority_classes) classes[name] = pc;
  const std::string* global = nullptr;
  for (const auto& [name, pc] : m.priority_classes)
    if (pc.global_default) global = &name;
  std::vector<LoadedPod> kept;
  kept.reserve(m.pods.size());
  for (auto& lp : m.pods) {
    Pod& p = lp.pod;
    if (!p.priority) {
      std::string name = p.priority_class_name;
      if (name.empty() && global) name = *global;
      if (!name.empty()) {
        auto it = classes.find(name);
        if (it == classes.end()) {
          m.rejected.push_back(InputError{ObjectId("Pod", p.meta), lp.file, lp.line,
                                          "pods \"" + p.name() + "\" is forbidden: no PriorityClass with name " + name +
                                              " was found"});
          m.pod_keys.erase(p.ns() + "/" + p.name());
          continue;
        }
        p.priority = it->second.value;
        if (p.priority_class_name.empty()) p.priority_class_name = name;
        if (p.preemption_policy.empty()) p.preemption_policy = it->second.preemption_policy;
      }
    }
    kept.push_back(std::move(lp));
  }
  m.pods = std::move(kept);
}

void LoadText(std::string_view text, size_t capacity, const std::string& file, Manifests& out) {
  // kubectl reads files through a UTF-8 decoder that drops a byte order mark
  // and turns every byte that is not UTF-8 into U+FFFD (cli-runtime's
  // FileVisitor: unicode.BOMOverride(unicode.UTF8.NewDecoder())).
  std::string replaced;
  if (ReplaceInvalidUtf8(text, replaced)) {
    text = replaced;
    capacity = replaced.capacity();
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    text.remove_prefix(3);
    capacity -= std::min<size_t>(capacity, 3);
  }
  if (LooksLikeJson(text)) return LoadJson(text, capacity, file, out);
  std::vector<YamlDocument> docs = SplitYamlDocuments(text);
  Document tree;
  for (const YamlDocument& doc : docs) {
    Source src{file, doc.first_line, out};
    int error_line = 0;
    std::string error;
    if (!ParseYamlDocument(doc, tree, error_line, error)) {
      out.rejected.push_back(InputError{"", file, error_line, error});
      continue;
    }
    LoadObject(src, tree.root(), 0);
  }
}

Status LoadManifestPaths(const std::vector<std::string>& paths, const LoadOptions& options, Manifests& out) {
  for (const std::string& path : paths) {
    std::string text;
    if (path == "-") {
      if (Status s = ReadInput("-", text); !s.ok()) return s.Prefixed("error: ");
      LoadText(text, text.capacity(), "<stdin>", out);
      continue;
    }
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return Status::NotFound("error: the path \"" + path + "\" does not exist");
    if (fs::is_directory(st)) {
      std::vector<fs::path> files;
      auto collect = [&](auto&& it) {
        for (const auto& e : it)
          if (e.is_regular_file() && IsManifestFile(e.path())) files.push_back(e.path());
      };
      if (options.recursive) {
        collect(fs::recursive_directory_iterator(path, ec));
      } else {
        collect(fs::directory_iterator(path, ec));
      }
      if (ec) return Status::IOError("error: cannot read directory \"" + path + "\": " + ec.message());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        if (Status s = ReadInput(f.string(), text); !s.ok()) return s.Prefixed("error: ");
        LoadText(text, text.capacity(), f.string(), out);
      }
      continue;
    }
    if (Status s = ReadInput(path, text); !s.ok()) return s.Prefixed("error: ");
    LoadText(text, text.capacity(), path, out);
  }
  ResolvePriorities(out);
  return Status::Ok();
}

}  // namespace gpusched

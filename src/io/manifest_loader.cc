#include "gpusched/io/manifest_loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "controller_decode.h"
#include "decode_context.h"
#include "gpusched/io/controller_expansion.h"
#include "dra_decode.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/template_key.h"
#include "gpusched/io/workload_names.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/model/hami.h"
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

// Gives an object with only generateName a deterministic name, derived from
// what it is (kind, namespace, generateName and `content`, the canonical
// text of its spec) and numbered among identical ones: the same objects get
// the same names whatever their files are called and in whichever order
// they come.
void ApplyGenerateName(ObjectMeta& m, std::string_view kind, const std::string& content, Manifests& out) {
  if (!m.name.empty() || m.generate_name.empty()) return;
  std::string key = std::string(kind) + "/" + m.namespace_ + "/" + m.generate_name + "/" + content;
  const int n = out.generated_names[Fnv1a64(key)]++;
  m.name = m.generate_name + SafeSuffix(Fnv1a64(key + "#" + std::to_string(n)), 5);
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

void LoadPod(const Source& src, const YAML::Node& obj, DecodeContext& ctx, const std::string& version) {
  Pod pod;
  DecodePod(ctx, obj, pod);
  std::vector<FieldError> ownership = DecodeOwnerReferences(ctx, obj, pod.controller_ref);
  const int line = ctx.Line(obj);
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  ApplyGenerateName(pod.meta, "Pod", TemplateKey(pod) + "|" + pod.node_name + "|" + pod.phase, src.out);
  const std::string id = ObjectId("Pod", pod.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure("Pod", version, ctx));
  DefaultPod(pod);
  std::vector<FieldError> errs = ValidatePod(pod);
  InsertMetadataErrors(errs, std::move(ownership));
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage("Pod", pod.name(), errs));
  if (pod.phase == "Succeeded" || pod.phase == "Failed") {
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": status.phase is " + pod.phase +
                               ": a terminated pod holds no resources and is not scheduled");
    // Kept aside: its controller counts it (a Job's completions).
    src.out.terminal_pods.push_back(LoadedPod{std::move(pod), src.file, line});
    return;
  }
  AcceptPod(src, std::move(pod), line);
}

void LoadNode(const Source& src, const YAML::Node& obj, DecodeContext& ctx, const std::string& version) {
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
  if (IsHamiNode(node))
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id + ": " + HamiNodeNote(node));
  if (!node.EffectiveAllocatable().count(std::string(kResourcePods)))
    src.out.warnings.push_back(src.file + ":" + std::to_string(line) + ": " + id +
                               ": no \"pods\" in status.allocatable or status.capacity: kube-scheduler "
                               "treats the node as full (\"Too many pods\"); kubelets report pods: \"110\"");
  src.out.nodes.push_back(LoadedNode{std::move(node), src.file, line});
}

// A workload controller: decoded, validated, and kept for ExpandControllers,
// which runs once every file is read.
void LoadController(const Source& src, const YAML::Node& obj, DecodeContext& ctx, ControllerKind kind,
                    const std::string& version) {
  Controller c;
  std::vector<FieldError> decoded = DecodeController(ctx, obj, kind, c);
  const int line = ctx.Line(obj);
  if (c.meta.namespace_.empty()) c.meta.namespace_ = kDefaultNamespace;
  ApplyGenerateName(c.meta, KindName(kind),
                    TemplateKey(c.tmpl) + "|" + std::to_string(c.replicas) + "|" + std::to_string(c.parallelism) + "|" +
                        std::to_string(c.completions.value_or(-1)),
                    src.out);
  const std::string kind_name(KindName(kind));
  const std::string id = ObjectId(kind_name, c.meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind_name, version, ctx));
  std::vector<FieldError> errs = ValidateController(c, std::move(decoded));
  if (!errs.empty())
    return Reject(src, id, ctx.LineOf(errs.front().field), InvalidObjectMessage(kind_name, c.name(), errs));
  c.tmpl.meta.namespace_ = c.meta.namespace_;
  DefaultPod(c.tmpl);
  src.out.controllers.push_back(LoadedController{std::move(c), src.file, line});
}

// resource.k8s.io objects: decoded into Manifests::dra and counted (DRA
// allocation is not modelled; sched/pre_enqueue.h uses them to say what
// kube-scheduler's DynamicResources plugin would).
void LoadDraObject(const Source& src, const YAML::Node& obj, DecodeContext& ctx, const std::string& kind,
                   const std::string& version) {
  DraObjects& dra = src.out.dra;
  ObjectMeta meta;
  ClaimSpec claim;
  ResourceSliceInfo slice;
  const bool is_claim = kind == "ResourceClaim" || kind == "ResourceClaimTemplate";
  if (is_claim) {
    claim = DecodeClaimObject(ctx, obj, kind);
    if (claim.meta.namespace_.empty()) claim.meta.namespace_ = kDefaultNamespace;
    meta = claim.meta;
  } else if (kind == "ResourceSlice") {
    slice = DecodeResourceSlice(ctx, obj);
    meta.name = slice.name;
  } else {
    DecodeObjectMeta(ctx, obj, "metadata", meta);
  }
  const std::string id = ObjectId(kind, meta);
  FlushWarnings(src, ctx, id);
  if (!ctx.errors().empty()) return Reject(src, id, ctx.first_error_line(), DecodeFailure(kind, version, ctx));
  std::vector<FieldError> errs;
  if (meta.name.empty()) errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  if (!meta.name.empty() && !errs.empty())
    return Reject(src, id, ctx.LineOf("metadata.name"), InvalidObjectMessage(kind, meta.name, errs));
  if (!errs.empty()) return Reject(src, id, ctx.Line(obj), InvalidObjectMessage(kind, meta.name, errs));
  const std::string exists = DraResourceName(kind) + " \"" + meta.name + "\" already exists";
  const int line = ctx.Line(obj);
  if (is_claim) {
    auto& objects = kind == "ResourceClaim" ? dra.claims : dra.templates;
    if (!objects.emplace(meta.namespace_ + "/" + meta.name, std::move(claim)).second) Reject(src, id, line, exists);
  } else if (kind == "ResourceSlice") {
    for (const ResourceSliceInfo& s : dra.slices)
      if (s.name == slice.name) return Reject(src, id, line, exists);
    dra.slices.push_back(std::move(slice));
  } else if (!dra.device_classes.insert(meta.name).second) {
    Reject(src, id, line, exists);
  }
}

// One line that says what was read of resource.k8s.io and what gpusched
// does with it.
void NoteDraObjects(Manifests& out) {
  if (out.dra.empty()) return;
  out.warnings.push_back("read " + out.dra.Summary() +
                         ": gpusched does not allocate DRA devices yet, so pods with spec.resourceClaims stay "
                         "pending with the reason kube-scheduler gives (see their diagnosis)");
}

void LoadObject(const Source& src, const YAML::Node& obj, int depth);

void LoadList(const Source& src, const YAML::Node& obj, DecodeContext& ctx, int depth) {
  const YAML::Node items = ctx.Seq(obj, "items", "items");
  if (!ctx.errors().empty()) return Reject(src, "List", ctx.first_error_line(), ctx.errors().front());
  if (!items.IsDefined()) return;
  for (size_t i = 0; i < items.size(); ++i) LoadObject(src, items[i], depth + 1);
}

void LoadObject(const Source& src, const YAML::Node& obj, int depth) {
  DecodeContext ctx(src.first_line);
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
  if (std::optional<ControllerKind> ck = ParseControllerKind(kind))
    return LoadController(src, obj, ctx, *ck, version.empty() ? std::string(KindGroup(*ck)) + "/v1" : version);
  if (IsDraKind(kind, version)) return LoadDraObject(src, obj, ctx, kind, version);
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
  src.out.warnings.push_back(src.file + ":" + std::to_string(ctx.Line(obj)) + ": skipping " + kind + " \"" +
                             meta.name + "\": kind " + kind + " does not take part in scheduling");
}

bool LooksLikeJson(std::string_view text) {
  size_t p = text.find_first_not_of(" \t\r\n");
  return p != std::string_view::npos && (text[p] == '{' || text[p] == '[');
}

bool IsManifestFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

// One file's objects, without the cross-file Priority admission step.
void LoadText(std::string_view text, const std::string& file, Manifests& out);

void LoadManifestText(std::string_view text, const std::string& file, Manifests& out) {
  LoadText(text, file, out);
  ExpandControllers(out);
  ResolvePriorities(out);
  NoteDraObjects(out);
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

void LoadText(std::string_view text, const std::string& file, Manifests& out) {
  std::vector<YamlDocument> docs;
  if (LooksLikeJson(text)) {
    docs.push_back(YamlDocument{std::string(text), 1});
  } else {
    docs = SplitYamlDocuments(text);
  }
  for (const YamlDocument& doc : docs) {
    Source src{file, doc.first_line, out};
    YAML::Node root;
    int error_line = 0;
    std::string error;
    if (!ParseYamlDocument(doc, root, error_line, error)) {
      out.rejected.push_back(InputError{"", file, error_line, error});
      continue;
    }
    try {
      LoadObject(src, root, 0);
    } catch (const YAML::Exception& e) {
      // Decoding only reads through guarded accessors; this is a backstop so
      // that no input can crash the loader.
      out.rejected.push_back(InputError{"", file, doc.first_line, std::string("cannot decode document: ") + e.what()});
    }
  }
}

Status LoadManifestPaths(const std::vector<std::string>& paths, const LoadOptions& options, Manifests& out) {
  for (const std::string& path : paths) {
    std::string text;
    if (path == "-") {
      if (Status s = ReadInput("-", text); !s.ok()) return s.Prefixed("error: ");
      LoadText(text, "<stdin>", out);
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
        LoadText(text, f.string(), out);
      }
      continue;
    }
    if (Status s = ReadInput(path, text); !s.ok()) return s.Prefixed("error: ");
    LoadText(text, path, out);
  }
  ExpandControllers(out);
  ResolvePriorities(out);
  NoteDraObjects(out);
  return Status::Ok();
}

}  // namespace gpusched

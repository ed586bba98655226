#include "gpusched/io/manifest_loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "gpusched/controllers/gang_inputs.h"
#include "gpusched/controllers/operator_expansion.h"
#include "gpusched/io/json_documents.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/yaml_documents.h"
#include "object_loader.h"
#include "spread_objects_decode.h"
#include "volume_decode.h"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

// What one top-level JSON value has added to `out`, so that a List refused
// as a whole (a syntax error in its last item, no kind) takes back the items
// already loaded from it: kubectl decodes a List whole or not at all.
struct Snapshot {
  size_t pods = 0, nodes = 0, rejected = 0, warnings = 0, controllers = 0, terminal_pods = 0;
  std::map<std::string, Manifests::PriorityClass, std::less<>> priority_classes;
  std::map<std::string, Manifests::Skipped> skipped;
  DraObjects dra;

  static Snapshot Of(const Manifests& m) {
    return Snapshot{m.pods.size(),        m.nodes.size(),         m.rejected.size(), m.warnings.size(),
                    m.controllers.size(), m.terminal_pods.size(), m.priority_classes, m.skipped,
                    m.dra};
  }
  void Restore(Manifests& m) const {
    m.controllers.resize(controllers);
    m.terminal_pods.resize(terminal_pods);
    m.dra = dra;
    for (size_t i = pods; i < m.pods.size(); ++i) m.pod_keys.erase(m.pods[i].pod.ns() + "/" + m.pods[i].pod.name());
    for (size_t i = nodes; i < m.nodes.size(); ++i) m.node_keys.erase(m.nodes[i].node.name());
    m.pods.resize(pods);
    m.nodes.resize(nodes);
    m.rejected.resize(rejected);
    m.warnings.resize(warnings);
    m.priority_classes = priority_classes;
    m.skipped = skipped;
  }
};

void LoadJson(std::string_view text, size_t capacity, const std::string& file, Manifests& out) {
  Snapshot before;
  JsonStreamEvents events;
  events.begin = [&](int) { before = Snapshot::Of(out); };
  events.list = [&](size_t count) {
    out.pods.reserve(out.pods.size() + count);
    out.pod_keys.reserve(out.pod_keys.size() + count);
  };
  events.item = [&](const DocNode& item) { LoadObject(Source{file, out}, item, 1); };
  events.end = [&](const DocNode& value, size_t streamed) {
    const size_t rejected = out.rejected.size();
    LoadObject(Source{file, out}, value, 0);
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
  // The loader reads its text once: what the parser has read may go.
  ParseJsonStream(text.data(), text.size(), capacity, 1, events, /*release_read=*/true);
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
  NoteSpreadSelectors(out);  // PodTopologySpread's default selectors, before expansion uses up the controllers
  ExpandWorkloads(out);  // operators, then ExpandControllers
  FlushSkipped(out);
  ResolvePriorities(out);
  GroupGangs(out);  // once every object is read: a group and its pods may be in different files
  FinishVolumeObjects(out);
}

void ResolvePriorities(Manifests& m) {
  // pkg/apis/scheduling: SystemCriticalPriority = 2000000000.
  std::map<std::string, Manifests::PriorityClass, std::less<>> classes = {
      {"system-cluster-critical", {2000000000, false, ""}}, {"system-node-critical", {2000001000, false, ""}}};
  for (const auto& [name, pc] : m.priority_classes) classes[name] = pc;
  const std::string* global = nullptr;
  for (const auto& [name, pc] : m.priority_classes)
    if (pc.global_default) global = &name;
  // Pods refused here leave the list in place (the list may hold millions).
  size_t kept = 0;
  for (size_t i = 0; i < m.pods.size(); ++i) {
    LoadedPod& lp = m.pods[i];
    Pod& p = lp.pod;
    bool refused = false;
    if (!p.priority) {
      std::string name = p.priority_class_name;
      if (name.empty() && global) name = *global;
      if (!name.empty()) {
        auto it = classes.find(name);
        if (it == classes.end()) {
          m.rejected.push_back(InputError{"Pod/" + p.ns() + "/" + p.name(), lp.file, lp.line,
                                          "pods \"" + p.name() + "\" is forbidden: no PriorityClass with name " + name +
                                              " was found"});
          m.pod_keys.erase(p.ns() + "/" + p.name());
          refused = true;
        } else {
          p.priority = it->second.value;
          if (p.priority_class_name.empty()) p.priority_class_name = name;
          if (p.preemption_policy.empty()) p.preemption_policy = it->second.preemption_policy;
        }
      }
    }
    if (refused) continue;
    if (kept != i) m.pods[kept] = std::move(lp);
    ++kept;
  }
  m.pods.resize(kept);
}

void LoadText(std::string_view text, size_t capacity, const std::string& file, Manifests& out) {
  // kubectl reads files through a UTF-8 decoder that drops a byte order mark
  // and turns every byte that is not UTF-8 into U+FFFD (cli-runtime's
  // FileVisitor: unicode.BOMOverride(unicode.UTF8.NewDecoder())).
  std::string replaced;
  if (!IsValidUtf8(text) && ReplaceInvalidUtf8(text, replaced)) {
    text = replaced;
    capacity = replaced.capacity();
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    text.remove_prefix(3);
    capacity -= std::min<size_t>(capacity, 3);
  }
  if (LooksLikeJson(text)) return LoadJson(text, capacity, file, out);
  // One document at a time: parsed, loaded, its tree dropped (reused).
  Document tree;
  ForEachYamlDocument(text, [&](const YamlDocument& doc) {
    int error_line = 0;
    std::string error;
    if (!ParseYamlDocument(doc, tree, error_line, error)) {
      out.rejected.push_back(InputError{"", file, error_line, error});
      return;
    }
    LoadObject(Source{file, out}, tree.root(), 0);
  });
}

namespace {

// Nothing at all to read: kubectl says "error: no objects passed to apply";
// here the inputs are named, and what most often empties them.
Status NoObjects(const std::vector<std::string>& inputs) {
  std::string names;
  bool stdin_only = inputs.size() == 1 && inputs[0] == "<stdin>";
  for (size_t i = 0; i < inputs.size(); ++i)
    names += (i == 0 ? "" : i + 1 == inputs.size() ? " and " : ", ") +
             (inputs[i] == "<stdin>" ? std::string("standard input") : "\"" + inputs[i] + "\"");
  std::string msg = "error: no objects passed: " + names + (inputs.size() == 1 ? " holds" : " hold") + " no object";
  if (stdin_only) {
    msg += " (when it comes from a pipe, the command before it failed or found nothing: run it alone to see "
           "its output)";
  } else {
    msg += " (an empty file, or an empty List); pass Nodes and Pods, e.g. from `kubectl get nodes,pods -A -o json`";
  }
  return Status::InvalidArgument(msg);
}

}  // namespace

Status LoadManifestPaths(const std::vector<std::string>& paths, const LoadOptions& options, Manifests& out) {
  std::vector<std::string> inputs;  // every file read, for the error when none holds an object
  for (const std::string& path : paths) {
    std::string text;
    if (path == "-") {
      if (Status s = ReadInput("-", text); !s.ok()) return s.Prefixed("error: ");
      LoadText(text, text.capacity(), "<stdin>", out);
      inputs.push_back("<stdin>");
      continue;
    }
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      // kubectl's text; a flag taken for the path (`-f -q`) is said so.
      std::string msg = "error: the path \"" + path + "\" does not exist";
      if (path.size() > 1 && path.front() == '-')
        msg += " (\"" + path + "\" looks like a flag: -f takes the path right after it)";
      return Status::NotFound(msg);
    }
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
        inputs.push_back(f.string());
      }
      continue;
    }
    if (Status s = ReadInput(path, text); !s.ok()) return s.Prefixed("error: ");
    LoadText(text, text.capacity(), path, out);
    inputs.push_back(path);
  }
  // A file that does not parse was read: its error is in `rejected`.
  if (out.objects_read == 0 && out.rejected.empty() && !inputs.empty()) return NoObjects(inputs);
  NoteSpreadSelectors(out);  // PodTopologySpread's default selectors, before expansion uses up the controllers
  ExpandWorkloads(out);  // operators, then ExpandControllers
  FlushSkipped(out);
  ResolvePriorities(out);
  GroupGangs(out);  // once every object is read: a group and its pods may be in different files
  FinishVolumeObjects(out);
  // Objects, but none that is or makes a Pod, and no Node: kubectl was
  // most likely asked for other kinds (services, configmaps). A controller
  // or operator that made no pod, and an object refused, have said why
  // themselves.
  if (out.nodes.empty() && out.pods.empty() && out.controller_pods.empty() && out.operator_pods.empty() &&
      out.rejected.empty() && out.objects_read > 0)
    out.warnings.push_back("the input holds no Node and no Pod (" + std::to_string(out.objects_read) +
                           (out.objects_read == 1 ? " object" : " objects") +
                           " read): nothing to schedule and nowhere to schedule it; pass Nodes and Pods, e.g. from "
                           "`kubectl get nodes,pods -A -o json`");
  return Status::Ok();
}

}  // namespace gpusched

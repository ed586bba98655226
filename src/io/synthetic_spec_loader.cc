#include "gpusched/io/synthetic_spec_loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <type_traits>

#include "decode_context.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/workload_loader.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/model/validation.h"
#include "kube_decode.h"

namespace gpusched {
namespace {

// True when map[key] is there and not null (`key:` alone means absent).
bool Present(const YAML::Node& map, const char* key) {
  if (!map.IsMap()) return false;
  const YAML::Node n = map[key];
  return n.IsDefined() && !n.IsNull();
}

// A number as upstream's field errors render one: unquoted, shortest form.
std::string RenderNumber(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc() ? end : buf);
}

// Reads typed fields of the spec, collecting every problem as
// "file:line: field: message" (the line of the field, or of its map when the
// field is missing). Paths are recorded so that validation errors found
// later can be given the line of their field.
class SpecReader {
 public:
  SpecReader(const std::string& file, int first_line) : file_(file), ctx_(first_line) {}

  DecodeContext& ctx() { return ctx_; }
  const std::vector<std::string>& errors() const { return errors_; }

  void Error(int line, const std::string& message) {
    errors_.push_back(file_ + ":" + std::to_string(line) + ": " + message);
  }
  void Error(const YAML::Node& at, const FieldError& e) { Error(ctx_.Line(at), e.ToString()); }
  void Error(const FieldError& e) { Error(ctx_.LineOf(e.field), e.ToString()); }

  // Rejects keys of `map` not in `allowed`.
  void CheckKeys(const YAML::Node& map, const std::string& prefix, std::initializer_list<std::string_view> allowed) {
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
      bool known = false;
      for (std::string_view a : allowed) known = known || key == a;
      if (!known) Error(ctx_.Line(it->first), "unknown field \"" + prefix + key + "\"");
    }
  }

  // map[key] when present and not null (its line recorded under `path`).
  YAML::Node Get(const YAML::Node& map, const char* key, const std::string& path) {
    if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    YAML::Node n = map[key];
    if (!n.IsDefined() || n.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
    ctx_.Record(path, n);
    return n;
  }
  YAML::Node Map(const YAML::Node& map, const char* key, const std::string& path) {
    return Shaped(Get(map, key, path), path, YAML::NodeType::Map, "an object");
  }
  YAML::Node Seq(const YAML::Node& map, const char* key, const std::string& path) {
    return Shaped(Get(map, key, path), path, YAML::NodeType::Sequence, "a list");
  }
  // A scalar, or nullopt (an error when it is something else).
  std::optional<std::string> Str(const YAML::Node& map, const char* key, const std::string& path) {
    YAML::Node n = Get(map, key, path);
    if (!n.IsDefined()) return std::nullopt;
    if (!n.IsScalar()) {
      Error(ctx_.Line(n), path + ": expected a string, got " + YamlKind(n));
      return std::nullopt;
    }
    return n.Scalar();
  }
  std::optional<double> Number(const YAML::Node& map, const char* key, const std::string& path) {
    std::optional<std::string> s = Str(map, key, path);
    if (!s) return std::nullopt;
    double v = 0;
    auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || ptr != s->data() + s->size() || !std::isfinite(v)) {
      Error(map[key], FieldError::Invalid(path, *s, "must be a number"));
      return std::nullopt;
    }
    return v;
  }
  template <typename Int>
  std::optional<Int> Integer(const YAML::Node& map, const char* key, const std::string& path) {
    std::optional<std::string> s = Str(map, key, path);
    if (!s) return std::nullopt;
    Int v = 0;
    auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || ptr != s->data() + s->size()) {
      const char* detail = std::is_signed_v<Int> ? "must be an integer" : "must be a non-negative integer";
      Error(map[key], FieldError::Invalid(path, *s, detail));
      return std::nullopt;
    }
    return v;
  }
  std::optional<double> Seconds(const YAML::Node& map, const char* key, const std::string& path) {
    std::optional<std::string> s = Str(map, key, path);
    if (!s) return std::nullopt;
    std::optional<double> v = ParseSimSeconds(*s);
    if (!v) Error(map[key], InvalidSimSeconds(path, *s));
    return v;
  }
  std::optional<Quantity> Quant(const YAML::Node& map, const char* key, const std::string& path) {
    std::optional<std::string> s = Str(map, key, path);
    if (!s) return std::nullopt;
    Result<Quantity> q = Quantity::Parse(*s);
    if (!q.ok()) {
      Error(map[key], FieldError::Invalid(path, *s, q.status().message()));
      return std::nullopt;
    }
    return *q;
  }
  std::vector<std::string> StrList(const YAML::Node& map, const char* key, const std::string& path) {
    std::vector<std::string> out;
    YAML::Node seq = Seq(map, key, path);
    if (!seq.IsDefined()) return out;
    for (size_t i = 0; i < seq.size(); ++i) {
      const std::string p = path + "[" + std::to_string(i) + "]";
      ctx_.Record(p, seq[i]);
      if (!seq[i].IsScalar()) {
        Error(ctx_.Line(seq[i]), p + ": expected a string, got " + YamlKind(seq[i]));
        continue;
      }
      out.push_back(seq[i].Scalar());
    }
    return out;
  }

 private:
  YAML::Node Shaped(const YAML::Node& n, const std::string& path, YAML::NodeType::value type, const char* what) {
    if (!n.IsDefined() || n.Type() == type) return n;
    Error(ctx_.Line(n), path + ": expected " + what + ", got " + YamlKind(n));
    return YAML::Node(YAML::NodeType::Undefined);
  }

  const std::string& file_;
  DecodeContext ctx_;
  std::vector<std::string> errors_;
};

std::optional<LogNormalDuration> ReadDuration(SpecReader& r, const YAML::Node& parent, const std::string& path) {
  YAML::Node d = r.Map(parent, "duration", path);
  if (!d.IsDefined()) return std::nullopt;
  r.CheckKeys(d, path + ".", {"median", "sigma"});
  LogNormalDuration out;
  std::optional<double> median = r.Seconds(d, "median", path + ".median");
  if (!Present(d, "median")) r.Error(d, FieldError::Required(path + ".median", ""));
  out.median_seconds = median.value_or(0);
  out.sigma = r.Number(d, "sigma", path + ".sigma").value_or(out.sigma);
  return out;
}

void ReadMix(SpecReader& r, const YAML::Node& root, SyntheticSpec& spec) {
  YAML::Node mix = r.Seq(root, "mix", "mix");
  if (!mix.IsDefined()) return;
  for (size_t i = 0; i < mix.size(); ++i) {
    const std::string p = "mix[" + std::to_string(i) + "]";
    const YAML::Node e = mix[i];
    r.ctx().Record(p, e);
    if (!e.IsMap()) {
      r.Error(r.ctx().Line(e), p + ": expected an object, got " + YamlKind(e));
      continue;
    }
    r.CheckKeys(e, p + ".", {"name", "weight", "gpus", "gpuMilli", "cpu", "memory", "gpuModels", "duration"});
    SyntheticMixEntry entry;
    entry.name = r.Str(e, "name", p + ".name").value_or("");
    entry.weight = r.Number(e, "weight", p + ".weight").value_or(entry.weight);
    entry.gpus = r.Integer<int64_t>(e, "gpus", p + ".gpus").value_or(0);
    const int64_t milli = r.Integer<int64_t>(e, "gpuMilli", p + ".gpuMilli").value_or(0);
    // Out-of-range values stay out of range, for validation to report.
    entry.gpu_milli = static_cast<int32_t>(std::clamp<int64_t>(milli, INT32_MIN, INT32_MAX));
    entry.cpu = r.Quant(e, "cpu", p + ".cpu").value_or(Quantity());
    entry.memory = r.Quant(e, "memory", p + ".memory").value_or(Quantity());
    entry.gpu_models = r.StrList(e, "gpuModels", p + ".gpuModels");
    entry.duration = ReadDuration(r, e, p + ".duration");
    spec.mix.push_back(std::move(entry));
  }
}

// The node of an `add` event: a Node manifest, decoded and validated as the
// manifest loader does; errors are reported under `path`.
bool ReadEventNode(SpecReader& r, const YAML::Node& n, const std::string& path, int first_line, Node& node) {
  DecodeContext ctx(first_line);
  const std::string kind = ctx.Str(n, "kind", "kind");
  if (!kind.empty() && kind != "Node") {
    r.Error(n["kind"], FieldError::NotSupported(path + ".kind", kind, {"Node"}));
    return false;
  }
  DecodeNode(ctx, n, node);
  if (!ctx.errors().empty()) {
    for (const std::string& e : ctx.errors()) r.Error(ctx.first_error_line(), path + "." + e);
    return false;
  }
  std::vector<FieldError> errs = ValidateNode(node);
  if (!errs.empty()) {
    // A field that is not there (metadata.name) has no line of its own; the
    // manifest's is the best there is (LineOf would give the document's).
    const int line = std::max(ctx.LineOf(errs.front().field), ctx.Line(n));
    r.Error(line, path + ": " + InvalidObjectMessage("Node", node.name(), errs));
    return false;
  }
  return true;
}

void ReadNodeEvents(SpecReader& r, const YAML::Node& root, int first_line, SyntheticSpec& spec) {
  YAML::Node events = r.Seq(root, "nodeEvents", "nodeEvents");
  if (!events.IsDefined()) return;
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string p = "nodeEvents[" + std::to_string(i) + "]";
    const YAML::Node e = events[i];
    r.ctx().Record(p, e);
    if (!e.IsMap()) {
      r.Error(r.ctx().Line(e), p + ": expected an object, got " + YamlKind(e));
      continue;
    }
    r.CheckKeys(e, p + ".", {"time", "action", "node"});
    NodeEvent ev;
    std::optional<double> time = r.Seconds(e, "time", p + ".time");
    if (!Present(e, "time")) r.Error(e, FieldError::Required(p + ".time", ""));
    ev.time = time.value_or(0);
    const std::optional<std::string> action = r.Str(e, "action", p + ".action");
    if (!action) {
      if (!Present(e, "action")) r.Error(e, FieldError::Required(p + ".action", "add or remove"));
      continue;
    }
    if (*action != "add" && *action != "remove") {
      r.Error(e["action"], FieldError::NotSupported(p + ".action", *action, {"add", "remove"}));
      continue;
    }
    ev.kind = *action == "add" ? NodeEvent::Kind::kAdd : NodeEvent::Kind::kRemove;
    const std::string np = p + ".node";
    const YAML::Node n = r.Get(e, "node", np);
    if (!n.IsDefined()) {
      r.Error(e, FieldError::Required(np, ev.kind == NodeEvent::Kind::kAdd ? "a Node manifest" : "the node's name"));
      continue;
    }
    if (ev.kind == NodeEvent::Kind::kRemove && n.IsScalar()) {
      ev.name = n.Scalar();
    } else if (!n.IsMap()) {
      r.Error(r.ctx().Line(n), np + ": expected " +
                                   (ev.kind == NodeEvent::Kind::kAdd ? std::string("a Node manifest (an object)")
                                                                     : std::string("a node name or a Node manifest")) +
                                   ", got " + YamlKind(n));
      continue;
    } else if (!ReadEventNode(r, n, np, first_line, ev.node)) {
      continue;
    } else {
      ev.name = ev.node.name();
    }
    spec.node_events.push_back(std::move(ev));
  }
}

void ReadSpec(SpecReader& r, const YAML::Node& root, int first_line, SyntheticSpec& spec) {
  const std::optional<std::string> version = r.Str(root, "apiVersion", "apiVersion");
  const std::optional<std::string> kind = r.Str(root, "kind", "kind");
  if (!version) r.Error(root, FieldError::Required("apiVersion", ""));
  else if (*version != kSyntheticApiVersion)
    r.Error(root["apiVersion"], FieldError::NotSupported("apiVersion", *version, {std::string(kSyntheticApiVersion)}));
  if (!kind) r.Error(root, FieldError::Required("kind", ""));
  else if (*kind != kSyntheticKind)
    r.Error(root["kind"], FieldError::NotSupported("kind", *kind, {std::string(kSyntheticKind)}));
  // Another kind of file: the rest of it would only add noise.
  if (!r.errors().empty()) return;
  r.CheckKeys(root, "", {"apiVersion", "kind", "metadata", "seed", "pods", "arrivalRatePerHour", "meanInterarrival",
                         "duration", "mix", "nodeEvents"});
  spec.seed = r.Integer<uint64_t>(root, "seed", "seed");
  const std::optional<int64_t> pods = r.Integer<int64_t>(root, "pods", "pods");
  if (!Present(root, "pods")) r.Error(root, FieldError::Required("pods", ""));
  spec.pods = pods.value_or(0);

  const std::optional<double> rate = r.Number(root, "arrivalRatePerHour", "arrivalRatePerHour");
  const std::optional<double> interval = r.Seconds(root, "meanInterarrival", "meanInterarrival");
  const bool has_rate = Present(root, "arrivalRatePerHour");
  const bool has_interval = Present(root, "meanInterarrival");
  if (has_rate && has_interval) {
    r.Error(root["meanInterarrival"],
            FieldError::Forbidden("meanInterarrival", "may not be set together with arrivalRatePerHour"));
  } else if (!has_rate && !has_interval) {
    r.Error(root, FieldError::Required("arrivalRatePerHour", "one of arrivalRatePerHour or meanInterarrival"));
  } else if (rate) {
    if (*rate <= 0) {
      r.Error(root["arrivalRatePerHour"], FieldError{FieldError::Type::kInvalid, "arrivalRatePerHour",
                                                     RenderNumber(*rate), "must be greater than 0"});
    } else {
      r.ctx().Record("meanInterarrival", root["arrivalRatePerHour"]);
      spec.mean_interarrival_seconds = 3600.0 / *rate;
    }
  } else if (interval) {
    spec.mean_interarrival_seconds = *interval;
  }
  spec.duration = ReadDuration(r, root, "duration");
  ReadMix(r, root, spec);
  ReadNodeEvents(r, root, first_line, spec);
}

Status Failure(Status::Code code, const std::vector<std::string>& lines) {
  std::string msg;
  for (const auto& l : lines) msg += (msg.empty() ? "" : "\n") + l;
  return code == Status::Code::kParseError ? Status::ParseError(msg) : Status::InvalidArgument(msg);
}

}  // namespace

Result<SyntheticSpec> LoadSyntheticSpecText(std::string_view text, const std::string& file) {
  std::vector<YamlDocument> docs = SplitYamlDocuments(text);
  if (docs.empty()) return Status::ParseError(file + ": no " + std::string(kSyntheticKind) + " document");
  if (docs.size() > 1)
    return Status::ParseError(file + ":" + std::to_string(docs[1].first_line) + ": expected one " +
                              std::string(kSyntheticKind) + " document, found " + std::to_string(docs.size()));
  const YamlDocument& doc = docs[0];
  YAML::Node root;
  int error_line = 0;
  std::string error;
  if (!ParseYamlDocument(doc, root, error_line, error))
    return Status::ParseError(file + ":" + std::to_string(error_line) + ": " + error);
  SpecReader r(file, doc.first_line);
  if (!root.IsMap()) {
    r.Error(r.ctx().Line(root), std::string("expected a ") + std::string(kSyntheticKind) + " object, got " +
                                    YamlKind(root));
    return Failure(Status::Code::kInvalidArgument, r.errors());
  }
  SyntheticSpec spec;
  spec.file = file;
  try {
    ReadSpec(r, root, doc.first_line, spec);
  } catch (const YAML::Exception& e) {
    // Reading goes through guarded accessors; this is a backstop so that no
    // input can crash the loader.
    r.Error(doc.first_line, std::string("cannot decode document: ") + e.what());
  }
  if (!r.errors().empty()) return Failure(Status::Code::kInvalidArgument, r.errors());
  for (const FieldError& e : ValidateSyntheticSpec(spec)) r.Error(e);
  if (!r.errors().empty()) return Failure(Status::Code::kInvalidArgument, r.errors());
  return spec;
}

Result<SyntheticSpec> LoadSyntheticSpecFile(const std::string& path) {
  std::string text;
  if (Status s = ReadInput(path, text); !s.ok()) return s.Prefixed("error: ");
  return LoadSyntheticSpecText(text, path == "-" ? "<stdin>" : path);
}

}  // namespace gpusched

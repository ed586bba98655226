#include "gpusched/siminput/synthetic_spec_loader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <type_traits>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/kube_decode.h"
#include "gpusched/io/read_input.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/model/validation.h"
#include "gpusched/siminput/workload_loader.h"
#include "gpusched/util/did_you_mean.h"

namespace gpusched {
namespace {

// True when map[key] is there and not null (`key:` alone means absent).
bool Present(const DocNode& map, const char* key) {
  const DocNode n = map[key];
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
  SpecReader(const std::string& file, DocNode root) : file_(file), ctx_(root) {}

  DecodeContext& ctx() { return ctx_; }
  const std::vector<std::string>& errors() const { return errors_; }

  void Error(int line, const std::string& message) {
    errors_.push_back(file_ + ":" + std::to_string(line) + ": " + message);
  }
  void Error(const DocNode& at, const FieldError& e) { Error(ctx_.Line(at), e.ToString()); }
  void Error(const FieldError& e) { Error(ctx_.LineOf(e.field), e.ToString()); }

  // Rejects keys of `map` not in `allowed`.
  void CheckKeys(const DocNode& map, const std::string& prefix, std::initializer_list<std::string_view> allowed) {
    for (auto [key_node, value] : map.Entries()) {
      const std::string key(key_node.Scalar());
      bool known = false;
      for (std::string_view a : allowed) known = known || key == a;
      if (known) continue;
      // The field meant: a near name, else every field of this map.
      std::vector<std::string> names(allowed.begin(), allowed.end());
      std::string hint = DidYouMean(NearNames(key, names));
      if (hint.empty()) {
        hint = "known fields here: ";
        for (size_t i = 0; i < names.size(); ++i) hint += (i ? ", " : "") + names[i];
      }
      Error(ctx_.Line(key_node), "unknown field \"" + prefix + key + "\" (" + hint + ")");
    }
  }

  // map[key] when present and not null (its line recorded under `path`).
  DocNode Get(const DocNode& map, const char* key, const std::string& path) {
    DocNode n = map[key];
    if (!n.IsDefined() || n.IsNull()) return DocNode();
    ctx_.Record(path, n);
    return n;
  }
  DocNode Map(const DocNode& map, const char* key, const std::string& path) {
    return Shaped(Get(map, key, path), path, DocType::kMap, "an object");
  }
  DocNode Seq(const DocNode& map, const char* key, const std::string& path) {
    return Shaped(Get(map, key, path), path, DocType::kSequence, "a list");
  }
  // A scalar, or nullopt (an error when it is something else).
  std::optional<std::string> Str(const DocNode& map, const char* key, const std::string& path) {
    DocNode n = Get(map, key, path);
    if (!n.IsDefined()) return std::nullopt;
    if (!n.IsScalar()) {
      Error(ctx_.Line(n), path + ": expected a string, got " + YamlKind(n));
      return std::nullopt;
    }
    return std::string(n.Scalar());
  }
  std::optional<double> Number(const DocNode& map, const char* key, const std::string& path) {
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
  std::optional<Int> Integer(const DocNode& map, const char* key, const std::string& path) {
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
  std::optional<double> Seconds(const DocNode& map, const char* key, const std::string& path) {
    std::optional<std::string> s = Str(map, key, path);
    if (!s) return std::nullopt;
    std::optional<double> v = ParseSimSeconds(*s);
    if (!v) Error(map[key], InvalidSimSeconds(path, *s));
    return v;
  }
  std::optional<Quantity> Quant(const DocNode& map, const char* key, const std::string& path) {
    std::optional<std::string> s = Str(map, key, path);
    if (!s) return std::nullopt;
    Result<Quantity> q = Quantity::Parse(*s);
    if (!q.ok()) {
      Error(map[key], FieldError::Invalid(path, *s, q.status().message()));
      return std::nullopt;
    }
    return *q;
  }
  std::vector<std::string> StrList(const DocNode& map, const char* key, const std::string& path) {
    std::vector<std::string> out;
    DocNode seq = Seq(map, key, path);
    if (!seq.IsDefined()) return out;
    for (size_t i = 0; i < seq.size(); ++i) {
      const std::string p = path + "[" + std::to_string(i) + "]";
      ctx_.Record(p, seq[i]);
      if (!seq[i].IsScalar()) {
        Error(ctx_.Line(seq[i]), p + ": expected a string, got " + YamlKind(seq[i]));
        continue;
      }
      out.emplace_back(seq[i].Scalar());
    }
    return out;
  }

 private:
  DocNode Shaped(const DocNode& n, const std::string& path, DocType type, const char* what) {
    if (!n.IsDefined() || n.Type() == type) return n;
    Error(ctx_.Line(n), path + ": expected " + what + ", got " + YamlKind(n));
    return DocNode();
  }

  const std::string& file_;
  DecodeContext ctx_;
  std::vector<std::string> errors_;
};

std::optional<LogNormalDuration> ReadDuration(SpecReader& r, const DocNode& parent, const std::string& path) {
  DocNode d = r.Map(parent, "duration", path);
  if (!d.IsDefined()) return std::nullopt;
  r.CheckKeys(d, path + ".", {"median", "sigma"});
  LogNormalDuration out;
  std::optional<double> median = r.Seconds(d, "median", path + ".median");
  if (!Present(d, "median")) r.Error(d, FieldError::Required(path + ".median", ""));
  out.median_seconds = median.value_or(0);
  out.sigma = r.Number(d, "sigma", path + ".sigma").value_or(out.sigma);
  return out;
}

void ReadMix(SpecReader& r, const DocNode& root, SyntheticSpec& spec) {
  DocNode mix = r.Seq(root, "mix", "mix");
  if (!mix.IsDefined()) return;
  for (size_t i = 0; i < mix.size(); ++i) {
    const std::string p = "mix[" + std::to_string(i) + "]";
    const DocNode e = mix[i];
    r.ctx().Record(p, e);
    if (!e.IsMap()) {
      r.Error(r.ctx().Line(e), p + ": expected an object, got " + YamlKind(e));
      continue;
    }
    r.CheckKeys(e, p + ".", {"name", "weight", "gpus", "gpuMilli", "cpu", "memory", "gpuModels", "duration",
                              "resourceClaimTemplate"});
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
    entry.resource_claim_template = r.Str(e, "resourceClaimTemplate", p + ".resourceClaimTemplate").value_or("");
    spec.mix.push_back(std::move(entry));
  }
}

// The node of an `add` event: a Node manifest, decoded and validated as the
// manifest loader does; errors are reported under `path`.
bool ReadEventNode(SpecReader& r, const DocNode& n, const std::string& path, Node& node) {
  DecodeContext ctx(n);
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

void ReadNodeEvents(SpecReader& r, const DocNode& root, SyntheticSpec& spec) {
  DocNode events = r.Seq(root, "nodeEvents", "nodeEvents");
  if (!events.IsDefined()) return;
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string p = "nodeEvents[" + std::to_string(i) + "]";
    const DocNode e = events[i];
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
    const DocNode n = r.Get(e, "node", np);
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
    } else if (!ReadEventNode(r, n, np, ev.node)) {
      continue;
    } else {
      ev.name = ev.node.name();
    }
    spec.node_events.push_back(std::move(ev));
  }
}

void ReadSpec(SpecReader& r, const DocNode& root, SyntheticSpec& spec) {
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
  ReadNodeEvents(r, root, spec);
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
  Document tree;
  int error_line = 0;
  std::string error;
  if (!ParseYamlDocument(doc, tree, error_line, error))
    return Status::ParseError(file + ":" + std::to_string(error_line) + ": " + error);
  const DocNode root = tree.root();
  SpecReader r(file, root);
  if (!root.IsMap()) {
    r.Error(r.ctx().Line(root), std::string("expected a ") + std::string(kSyntheticKind) + " object, got " +
                                    YamlKind(root));
    return Failure(Status::Code::kInvalidArgument, r.errors());
  }
  SyntheticSpec spec;
  spec.file = file;
  ReadSpec(r, root, spec);
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

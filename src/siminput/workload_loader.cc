#include "gpusched/siminput/workload_loader.h"

#include <iterator>
#include <string>
#include <utility>


namespace gpusched {
namespace {

// The annotation `key` of `meta` in seconds; nullopt when absent or invalid
// (then an error is appended to `errs`).
std::optional<double> AnnotationSeconds(const ObjectMeta& meta, std::string_view key, std::vector<FieldError>& errs) {
  auto it = meta.annotations.find(key);
  if (it == meta.annotations.end()) return std::nullopt;
  const std::string& v = it->second;
  std::optional<double> secs = ParseSimSeconds(v);
  if (!secs) errs.push_back(InvalidSimSeconds("metadata.annotations[" + std::string(key) + "]", v));
  return secs;
}

std::string ObjectId(std::string_view kind, const ObjectMeta& m) {
  return std::string(kind) + "/" + (m.namespace_.empty() ? "" : m.namespace_ + "/") + m.name;
}

}  // namespace

std::optional<double> ParseSimSeconds(std::string_view text) { return ParseDurationSeconds(text); }

FieldError InvalidSimSeconds(std::string field, std::string_view text) {
  const bool negative = text.starts_with('-') && ParseSimSeconds(text.substr(1));
  return FieldError::Invalid(std::move(field), text,
                             negative ? "must be greater than or equal to 0"
                                      : "must be a number of seconds or a duration such as 90s, 5m or 1h30m");
}

Status LoadManifestWorkload(Manifests m, std::vector<Node>& initial_nodes, Workload& out) {
  out.rejected.insert(out.rejected.end(), std::make_move_iterator(m.rejected.begin()),
                      std::make_move_iterator(m.rejected.end()));
  out.warnings.insert(out.warnings.end(), std::make_move_iterator(m.warnings.begin()),
                      std::make_move_iterator(m.warnings.end()));
  out.pods.reserve(out.pods.size() + m.pods.size());
  SourceFile file;  // shared by the pods of one file (they come file by file)
  for (LoadedPod& lp : m.pods) {
    std::vector<FieldError> errs;
    const std::optional<double> arrival = AnnotationSeconds(lp.pod.meta, kAnnotationArrivalTime, errs);
    const std::optional<double> duration = AnnotationSeconds(lp.pod.meta, kAnnotationDuration, errs);
    if (!errs.empty()) {
      out.rejected.push_back(
          InputError{ObjectId("Pod", lp.pod.meta), lp.file, lp.line, InvalidObjectMessage("Pod", lp.pod.name(), errs)});
      continue;
    }
    if (file.str() != lp.file) file = SourceFile(lp.file);
    out.pods.push_back(WorkloadPod{std::move(lp.pod), arrival.value_or(0), duration.value_or(-1), file, lp.line});
  }
  for (LoadedNode& ln : m.nodes) {
    Node& node = ln.node;
    std::vector<FieldError> errs;
    const std::optional<double> add = AnnotationSeconds(node.meta, kAnnotationNodeAddTime, errs);
    const std::optional<double> remove = AnnotationSeconds(node.meta, kAnnotationNodeRemoveTime, errs);
    if (add && remove && *remove < *add) {
      errs.push_back(FieldError::Invalid("metadata.annotations[" + std::string(kAnnotationNodeRemoveTime) + "]",
                                         node.meta.annotations.find(kAnnotationNodeRemoveTime)->second,
                                         "must not be before " + std::string(kAnnotationNodeAddTime) + " (" +
                                             node.meta.annotations.find(kAnnotationNodeAddTime)->second + ")"));
    }
    if (!errs.empty()) {
      out.rejected.push_back(
          InputError{ObjectId("Node", node.meta), ln.file, ln.line, InvalidObjectMessage("Node", node.name(), errs)});
      continue;
    }
    std::string name = node.name();
    if (add) {
      NodeEvent e;
      e.time = *add;
      e.kind = NodeEvent::Kind::kAdd;
      e.name = name;
      e.node = std::move(node);
      out.node_events.push_back(std::move(e));
    } else {
      initial_nodes.push_back(std::move(node));
    }
    if (remove) {
      NodeEvent e;
      e.time = *remove;
      e.kind = NodeEvent::Kind::kRemove;
      e.name = std::move(name);
      out.node_events.push_back(std::move(e));
    }
  }
  return Status::Ok();
}

}  // namespace gpusched

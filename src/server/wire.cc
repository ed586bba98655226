#include "gpusched/server/wire.h"

#include <charconv>

#include "gpusched/io/json_documents.h"
#include "gpusched/server/go_json.h"

namespace gpusched {
namespace {

// "json: cannot unmarshal <kind> into Go struct field <Struct>.<Field> of
// type <type>" (encoding/json's UnmarshalTypeError).
Status TypeError(const DocNode& n, std::string_view field, std::string_view type) {
  return Status::InvalidArgument("json: cannot unmarshal " + std::string(GoJsonKind(n)) + " into Go struct field " +
                                 std::string(field) + " of type " + std::string(type));
}

bool IsNull(const DocNode& n) { return !n.IsDefined() || n.IsNull(); }

bool IsString(const DocNode& n) { return n.IsScalar() && n.Kind() == ScalarKind::kString; }

// An int64 as encoding/json reads one: a JSON number without fraction or
// exponent that fits.
std::optional<int64_t> Int64(const DocNode& n) {
  if (!n.IsScalar() || n.Kind() != ScalarKind::kNumber) return std::nullopt;
  const std::string_view s = n.Scalar();
  size_t i = s[0] == '-' ? 1 : 0;
  if (i >= s.size()) return std::nullopt;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const int d = s[i] - '0';
    if (v > (INT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return s[0] == '-' ? -v : v;
}

Status DecodeStringField(const DocNode& body, std::string_view name, std::string_view type, std::string& out) {
  const DocNode n = GoField(body, name);
  if (IsNull(n)) return Status::Ok();
  if (!IsString(n)) return TypeError(n, std::string(type) + "." + std::string(name), "string");
  out.assign(n.Scalar());
  return Status::Ok();
}

Status DecodePod(const DocNode& body, std::string_view type, DocNode& pod) {
  const DocNode n = GoField(body, "Pod");
  if (IsNull(n)) return Status::InvalidArgument(std::string(type) + ".Pod is null: there is no pod to schedule");
  if (!n.IsMap()) return TypeError(n, std::string(type) + ".Pod", "v1.Pod");
  pod = n;
  return Status::Ok();
}

// MetaVictims / Victims: {"Pods":[...], "NumPDBViolations":n}; a pod is a
// MetaPod {"UID":...} or, with `full`, a v1.Pod whose metadata.uid is read.
Status DecodeVictims(const DocNode& v, bool full, std::string_view field, MetaVictims& out) {
  const std::string type = full ? "Victims" : "MetaVictims";
  if (IsNull(v)) return Status::Ok();
  if (!v.IsMap()) return TypeError(v, field, "*v1." + type);
  const DocNode pods = GoField(v, "Pods");
  if (!IsNull(pods)) {
    if (!pods.IsSequence()) return TypeError(pods, type + ".Pods", full ? "[]*v1.Pod" : "[]*v1.MetaPod");
    for (DocNode p : pods) {
      if (IsNull(p)) continue;
      if (!p.IsMap()) return TypeError(p, type + ".Pods", full ? "v1.Pod" : "v1.MetaPod");
      DocNode uid;
      if (full) {
        const DocNode meta = p["metadata"];
        if (!IsNull(meta) && !meta.IsMap()) return TypeError(meta, "Pod.metadata", "v1.ObjectMeta");
        uid = meta["uid"];
        if (!IsNull(uid) && !IsString(uid)) return TypeError(uid, "Pod.metadata.uid", "types.UID");
      } else {
        uid = GoField(p, "UID");
        if (!IsNull(uid) && !IsString(uid)) return TypeError(uid, "MetaPod.UID", "string");
      }
      out.pod_uids.emplace_back(IsNull(uid) ? std::string_view() : uid.Scalar());
    }
  }
  const DocNode pdb = GoField(v, "NumPDBViolations");
  if (!IsNull(pdb)) {
    std::optional<int64_t> n = Int64(pdb);
    if (!n) return TypeError(pdb, type + ".NumPDBViolations", "int64");
    out.num_pdb_violations = *n;
  }
  return Status::Ok();
}

Status DecodeVictimsMap(const DocNode& m, bool full, NodeToMetaVictims& out) {
  const std::string field = full ? "ExtenderPreemptionArgs.NodeNameToVictims" : "ExtenderPreemptionArgs.NodeNameToMetaVictims";
  if (!m.IsMap()) return TypeError(m, field, full ? "map[string]*v1.Victims" : "map[string]*v1.MetaVictims");
  for (auto [k, v] : m.Entries()) {
    MetaVictims victims;
    if (Status s = DecodeVictims(v, full, field, victims); !s.ok()) return s;
    out[std::string(k.Scalar())] = std::move(victims);
  }
  return Status::Ok();
}

}  // namespace

Status WithJsonBody(std::string_view body, const std::function<void(const DocNode&)>& f) {
  int values = 0;
  std::string error;
  // Something after the first value makes the body an error whatever the
  // value is: `f` is then not called, so that a refused request has no
  // effect (the reader hands the first value over before it meets the rest).
  bool trailing = false;
  if (size_t at = body.find_first_not_of(" \t\r\n", body.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
      at != std::string_view::npos) {
    const size_t end = JsonValueEnd(body, at);
    trailing = end != std::string_view::npos && body.find_first_not_of(" \t\r\n", end) != std::string_view::npos;
  }
  JsonStreamEvents events;
  events.end = [&](const DocNode& value, size_t) {
    if (++values == 1 && error.empty() && !trailing) f(value);
  };
  events.error = [&](int, const std::string& message) {
    if (error.empty()) error = message;
  };
  if (!LooksLikeJson(body)) {
    for (char c : body) {
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
        return Status::InvalidArgument("the body is not a JSON object or array");
    }
    return Status::InvalidArgument("the body is empty: expected a JSON object");
  }
  ParseJsonStream(body, 1, events);
  if (!error.empty()) return Status::InvalidArgument(error);
  if (values == 0) return Status::InvalidArgument("the body is empty: expected a JSON object");
  if (values > 1) return Status::InvalidArgument("the body holds " + std::to_string(values) + " JSON values, not one");
  return Status::Ok();
}

Status DecodeExtenderArgs(const DocNode& body, ExtenderArgs& out) {
  if (!body.IsMap()) return Status::InvalidArgument("json: cannot unmarshal " + std::string(GoJsonKind(body)) +
                                                    " into Go value of type v1.ExtenderArgs");
  if (Status s = DecodePod(body, "ExtenderArgs", out.pod); !s.ok()) return s;
  const DocNode nodes = GoField(body, "Nodes");
  if (!IsNull(nodes)) {
    if (!nodes.IsMap()) return TypeError(nodes, "ExtenderArgs.Nodes", "v1.NodeList");
    out.has_nodes = true;
    const DocNode items = nodes["items"];
    if (!IsNull(items)) {
      if (!items.IsSequence()) return TypeError(items, "NodeList.items", "[]v1.Node");
      out.node_items.reserve(items.size());
      for (DocNode item : items) {
        if (!item.IsMap()) return TypeError(item, "NodeList.items", "v1.Node");
        out.node_items.push_back(item);
      }
    }
  }
  const DocNode names = GoField(body, "NodeNames");
  if (!IsNull(names)) {
    if (!names.IsSequence()) return TypeError(names, "ExtenderArgs.NodeNames", "[]string");
    out.has_node_names = true;
    out.node_names.reserve(names.size());
    for (DocNode n : names) {
      if (IsNull(n)) {
        out.node_names.emplace_back();
        continue;
      }
      if (!IsString(n)) return TypeError(n, "ExtenderArgs.NodeNames", "string");
      out.node_names.push_back(n.Scalar());
    }
  }
  return Status::Ok();
}

std::string_view NodeItemName(const DocNode& item) {
  const DocNode name = item["metadata"]["name"];
  return IsString(name) ? name.Scalar() : std::string_view();
}

Status DecodeExtenderBindingArgs(const DocNode& body, ExtenderBindingArgs& out) {
  if (!body.IsMap()) return Status::InvalidArgument("json: cannot unmarshal " + std::string(GoJsonKind(body)) +
                                                    " into Go value of type v1.ExtenderBindingArgs");
  const std::string t = "ExtenderBindingArgs";
  for (auto [field, dest] : {std::pair<const char*, std::string*>{"PodName", &out.pod_name},
                             {"PodNamespace", &out.pod_namespace},
                             {"PodUID", &out.pod_uid},
                             {"Node", &out.node}}) {
    if (Status s = DecodeStringField(body, field, t, *dest); !s.ok()) return s;
  }
  return Status::Ok();
}

Status DecodeExtenderPreemptionArgs(const DocNode& body, ExtenderPreemptionArgs& out) {
  if (!body.IsMap()) return Status::InvalidArgument("json: cannot unmarshal " + std::string(GoJsonKind(body)) +
                                                    " into Go value of type v1.ExtenderPreemptionArgs");
  if (Status s = DecodePod(body, "ExtenderPreemptionArgs", out.pod); !s.ok()) return s;
  const DocNode meta = GoField(body, "NodeNameToMetaVictims");
  const DocNode full = GoField(body, "NodeNameToVictims");
  // Both are decoded (a wrong type in either is an error, as in Go); the
  // meta form is the one kube-scheduler means when both are set.
  NodeToMetaVictims from_full;
  if (!IsNull(full)) {
    if (Status s = DecodeVictimsMap(full, true, from_full); !s.ok()) return s;
    out.has_victims = true;
  }
  if (!IsNull(meta)) {
    if (Status s = DecodeVictimsMap(meta, false, out.victims); !s.ok()) return s;
    out.has_victims = true;
  } else {
    out.victims = std::move(from_full);
  }
  return Status::Ok();
}

std::string EncodeFilterResult(const ExtenderFilterResult& r) {
  std::string out = "{\"Nodes\":";
  if (r.names) {
    out += "null,\"NodeNames\":[";
    size_t size = out.size();
    for (std::string_view n : r.node_names) size += n.size() + 3;
    out.reserve(size + 64);
    for (size_t i = 0; i < r.node_names.size(); ++i) {
      if (i) out += ',';
      AppendGoJsonString(out, r.node_names[i]);
    }
    out += ']';
  } else {
    out += "{\"metadata\":{},\"items\":[";
    for (size_t i = 0; i < r.nodes.size(); ++i) {
      if (i) out += ',';
      AppendDocJson(out, r.nodes[i]);
    }
    out += "]},\"NodeNames\":null";
  }
  out += ",\"FailedNodes\":";
  AppendStringMap(out, r.failed);
  out += ",\"FailedAndUnresolvableNodes\":";
  AppendStringMap(out, r.failed_unresolvable);
  out += ",\"Error\":";
  AppendGoJsonString(out, r.error);
  out += '}';
  return out;
}

std::string EncodeHostPriorityList(const std::vector<HostPriority>& list) {
  std::string out = "[";
  size_t size = 2;
  for (const HostPriority& h : list) size += h.host.size() + 32;
  out.reserve(size);
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    out += "{\"Host\":";
    AppendGoJsonString(out, list[i].host);
    out += ",\"Score\":";
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, list[i].score).ptr;
    out.append(digits, end);
    out += '}';
  }
  out += ']';
  return out;
}

std::string EncodeBindingResult(std::string_view error) {
  std::string out = "{\"Error\":";
  AppendGoJsonString(out, error);
  out += '}';
  return out;
}

std::string EncodePreemptionResult(const NodeToMetaVictims& victims) {
  std::string out = "{\"NodeNameToMetaVictims\":{";
  bool first = true;
  for (const auto& [node, v] : victims) {
    if (!first) out += ',';
    first = false;
    AppendGoJsonString(out, node);
    out += ":{\"Pods\":";
    if (v.pod_uids.empty()) {
      out += "null";
    } else {
      out += '[';
      for (size_t i = 0; i < v.pod_uids.size(); ++i) {
        if (i) out += ',';
        out += "{\"UID\":";
        AppendGoJsonString(out, v.pod_uids[i]);
        out += '}';
      }
      out += ']';
    }
    out += ",\"NumPDBViolations\":" + std::to_string(v.num_pdb_violations) + "}";
  }
  out += "}}";
  return out;
}

}  // namespace gpusched

#include "gpusched/io/kube_decode.h"

#include <algorithm>

#include "image_decode.h"
#include "pod_affinity_decode.h"
#include "pod_extras_decode.h"
#include <climits>
#include <limits>

namespace gpusched {
namespace {

void DecodeContainers(DecodeContext& ctx, const DocNode& spec, const char* key, const std::string& path,
                      std::vector<Container>& out) {
  PathBuf p;
  for (const auto& [c, item] : ctx.Objects(spec, key, path)) {
    p.Reset(item);
    Container ct;
    ct.name = ctx.Str(c, "name", p.At(".name"));
    ct.image = ctx.Str(c, "image", p.At(".image"));
    ct.restart_policy = ctx.Str(c, "restartPolicy", p.At(".restartPolicy"));
    const DocNode res = ctx.Map(c, "resources", p.At(".resources"));
    if (res.IsDefined()) {
      ct.requests = ctx.Quantities(res, "requests", p.At(".resources.requests"));
      ct.limits = ctx.Quantities(res, "limits", p.At(".resources.limits"));
      ct.claims = DecodeContainerClaims(ctx, res, p.At(".resources.claims"));
    }
    out.push_back(std::move(ct));
  }
}

void DecodeTolerations(DecodeContext& ctx, const DocNode& spec, const std::string& path,
                       std::vector<Toleration>& out) {
  PathBuf p;
  for (const auto& [t, item] : ctx.Objects(spec, "tolerations", path)) {
    p.Reset(item);
    Toleration tol;
    tol.key = ctx.Str(t, "key", p.At(".key"));
    tol.op = ctx.Str(t, "operator", p.At(".operator"));
    tol.value = ctx.Str(t, "value", p.At(".value"));
    tol.effect = ctx.Str(t, "effect", p.At(".effect"));
    ctx.Int(t, "tolerationSeconds", p.At(".tolerationSeconds"));
    out.push_back(std::move(tol));
  }
}

void DecodeRequirements(DecodeContext& ctx, const DocNode& term, const char* key, const std::string& path,
                        std::vector<NodeSelectorRequirement>& out) {
  for (const auto& [r, p] : ctx.Objects(term, key, path)) {
    NodeSelectorRequirement req;
    req.key = ctx.Str(r, "key", p + ".key");
    req.op = ctx.Str(r, "operator", p + ".operator");
    const DocNode values = ctx.Seq(r, "values", p + ".values");
    for (size_t k = 0; k < values.size(); ++k) {
      const DocNode v = values[k];
      if (!v.IsScalar()) {
        ctx.Error(p + ".values[" + std::to_string(k) + "]", v, std::string("expected a string, got ") + YamlKind(v));
        continue;
      }
      req.values.emplace_back(v.Scalar());
    }
    out.push_back(std::move(req));
  }
}

NodeSelectorTerm DecodeTerm(DecodeContext& ctx, const DocNode& term, const std::string& path) {
  NodeSelectorTerm t;
  DecodeRequirements(ctx, term, "matchExpressions", path + ".matchExpressions", t.match_expressions);
  DecodeRequirements(ctx, term, "matchFields", path + ".matchFields", t.match_fields);
  return t;
}

NodeAffinity DecodeNodeAffinity(DecodeContext& ctx, const DocNode& na, const std::string& path) {
  NodeAffinity a;
  const std::string rpath = path + ".requiredDuringSchedulingIgnoredDuringExecution";
  const DocNode req = ctx.Map(na, "requiredDuringSchedulingIgnoredDuringExecution", rpath);
  if (req.IsDefined()) {
    a.has_required = true;
    const DocNode terms = ctx.Seq(req, "nodeSelectorTerms", rpath + ".nodeSelectorTerms");
    for (size_t i = 0; i < terms.size(); ++i) {
      const std::string p = rpath + ".nodeSelectorTerms[" + std::to_string(i) + "]";
      // A null term is an empty one (it matches nothing).
      if (!terms[i].IsMap() && !terms[i].IsNull()) {
        ctx.Error(p, terms[i], std::string("expected an object, got ") + YamlKind(terms[i]));
        continue;
      }
      a.required.push_back(DecodeTerm(ctx, terms[i], p));
    }
  }
  const std::string ppath = path + ".preferredDuringSchedulingIgnoredDuringExecution";
  for (const auto& [e, p] : ctx.Objects(na, "preferredDuringSchedulingIgnoredDuringExecution", ppath)) {
    PreferredSchedulingTerm t;
    auto w = ctx.Int(e, "weight", p + ".weight");
    t.weight = w ? static_cast<int32_t>(std::clamp<int64_t>(*w, INT32_MIN, INT32_MAX)) : 0;
    const DocNode pt = ctx.Map(e, "preference", p + ".preference");
    if (pt.IsDefined()) t.preference = DecodeTerm(ctx, pt, p + ".preference");
    a.preferred.push_back(std::move(t));
  }
  return a;
}

bool Digits(std::string_view s, size_t at, size_t n, int64_t& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// Days from 1970-01-01 to the proleptic Gregorian date.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// A time field of a pod (status.startTime, metadata.deletionTimestamp):
// null or absent is none; anything but an RFC 3339 string is refused, as
// the API server refuses the object.
std::optional<int64_t> DecodeTime(DecodeContext& ctx, const DocNode& parent, std::string_view key,
                                  const std::string& path) {
  const DocNode n = parent[key];
  if (!n.IsDefined() || n.IsNull()) return std::nullopt;
  if (!n.IsScalar()) {
    ctx.Error(path, n, std::string("expected an RFC 3339 time string, got ") + YamlKind(n));
    return std::nullopt;
  }
  const std::string text = ctx.Str(parent, key, path);
  std::optional<int64_t> t = ParseRfc3339(text);
  if (!t) ctx.Error(path, n, "cannot parse \"" + text + "\" as an RFC 3339 time (such as 2025-01-02T15:04:05Z)");
  return t;
}

}  // namespace

std::optional<int64_t> ParseRfc3339(std::string_view s) {
  int64_t year, month, day, hour, minute, second;
  if (s.size() < 20 || !Digits(s, 0, 4, year) || s[4] != '-' || !Digits(s, 5, 2, month) || s[7] != '-' ||
      !Digits(s, 8, 2, day) || s[10] != 'T' || !Digits(s, 11, 2, hour) || s[13] != ':' ||
      !Digits(s, 14, 2, minute) || s[16] != ':' || !Digits(s, 17, 2, second))
    return std::nullopt;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return std::nullopt;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day < 1 || day > kDays[month - 1] + (month == 2 && leap)) return std::nullopt;
  if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  size_t i = 19;
  int64_t nanos = 0;
  if (i < s.size() && (s[i] == '.' || s[i] == ',') && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') {
    ++i;
    int64_t scale = 100000000;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      nanos += (s[i] - '0') * scale;  // digits past the ninth are dropped, as Go does
      scale /= 10;
      ++i;
    }
  }
  int64_t offset = 0;  // seconds east of UTC
  if (i + 1 == s.size() && s[i] == 'Z') {
    ++i;
  } else if (i + 6 == s.size() && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
    int64_t oh, om;
    if (!Digits(s, i + 1, 2, oh) || !Digits(s, i + 4, 2, om) || oh > 23 || om > 59) return std::nullopt;
    offset = (oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    return std::nullopt;
  }
  const int64_t secs = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  // int64 nanoseconds span 1677-09-21 to 2262-04-11.
  constexpr int64_t kMaxSecs = std::numeric_limits<int64_t>::max() / 1000000000 - 1;
  if (secs >= kMaxSecs) return kMaxSecs * 1000000000;
  if (secs <= -kMaxSecs) return -kMaxSecs * 1000000000;
  return secs * 1000000000 + nanos;
}

void DecodeObjectMeta(DecodeContext& ctx, const DocNode& obj, const std::string& path, ObjectMeta& meta) {
  const DocNode m = ctx.Map(obj, "metadata", path);
  if (!m.IsDefined()) return;
  PathBuf p(path);
  meta.name = ctx.Str(m, "name", p.At(".name"));
  meta.generate_name = ctx.Str(m, "generateName", p.At(".generateName"));
  meta.namespace_ = ctx.Str(m, "namespace", p.At(".namespace"));
  meta.uid = ctx.Str(m, "uid", p.At(".uid"));
  meta.labels = ctx.StrMap(m, "labels", p.At(".labels"));
  meta.annotations = ctx.StrMap(m, "annotations", p.At(".annotations"));
}

void DecodePodSpec(DecodeContext& ctx, const DocNode& parent, const std::string& path, Pod& pod) {
  const DocNode spec = ctx.Map(parent, "spec", path);
  if (!spec.IsDefined()) return;
  PathBuf p(path);
  DecodeContainers(ctx, spec, "containers", p.At(".containers"), pod.containers);
  DecodeContainers(ctx, spec, "initContainers", p.At(".initContainers"), pod.init_containers);
  pod.overhead = ctx.Quantities(spec, "overhead", p.At(".overhead"));
  pod.node_name = ctx.Str(spec, "nodeName", p.At(".nodeName"));
  if (auto prio = ctx.Int(spec, "priority", p.At(".priority"))) {
    if (*prio < std::numeric_limits<int32_t>::min() || *prio > std::numeric_limits<int32_t>::max()) {
      ctx.Error(path + ".priority", spec["priority"], "value out of range for int32");
    } else {
      pod.priority = static_cast<int32_t>(*prio);
    }
  }
  pod.priority_class_name = ctx.Str(spec, "priorityClassName", p.At(".priorityClassName"));
  pod.preemption_policy = ctx.Str(spec, "preemptionPolicy", p.At(".preemptionPolicy"));
  std::string sched = ctx.Str(spec, "schedulerName", p.At(".schedulerName"));
  if (!sched.empty()) pod.scheduler_name = std::move(sched);
  pod.node_selector = ctx.StrMap(spec, "nodeSelector", p.At(".nodeSelector"));
  DecodeTolerations(ctx, spec, p.At(".tolerations"), pod.tolerations);
  const DocNode aff = ctx.Map(spec, "affinity", p.At(".affinity"));
  if (aff.IsDefined()) {
    const DocNode na = ctx.Map(aff, "nodeAffinity", path + ".affinity.nodeAffinity");
    if (na.IsDefined()) pod.node_affinity = DecodeNodeAffinity(ctx, na, path + ".affinity.nodeAffinity");
    pod.pod_affinity = DecodePodAffinitySpec(ctx, aff, path + ".affinity");
  }
  DecodePodSpecExtras(ctx, spec, path, pod);
}

void DecodePod(DecodeContext& ctx, const DocNode& obj, Pod& pod) {
  DecodeObjectMeta(ctx, obj, "metadata", pod.meta);
  if (const DocNode m = obj["metadata"]; m.IsMap())
    pod.deleting = DecodeTime(ctx, m, "deletionTimestamp", "metadata.deletionTimestamp").has_value();
  DecodePodSpec(ctx, obj, "spec", pod);
  ApplyMatchLabelKeys(pod);  // the API server's PrepareForCreate
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    pod.phase = ctx.Str(status, "phase", "status.phase");
    pod.start_time_ns = DecodeTime(ctx, status, "startTime", "status.startTime");
    pod.nominated_node_name = ctx.Str(status, "nominatedNodeName", "status.nominatedNodeName");
    // podTerminatingByPreemption reads the first DisruptionTarget condition.
    bool seen = false;
    for (const auto& [c, p] : ctx.Objects(status, "conditions", "status.conditions")) {
      const std::string type = ctx.Str(c, "type", p + ".type");
      const std::string st = ctx.Str(c, "status", p + ".status");
      const std::string reason = ctx.Str(c, "reason", p + ".reason");
      if (seen || type != "DisruptionTarget") continue;
      seen = true;
      pod.disrupted_by_scheduler = st == "True" && reason == "PreemptionByScheduler";
    }
    DecodeResourceClaimStatuses(ctx, status, "status.resourceClaimStatuses", pod);
  }
}

std::vector<NodeSelectorTerm> DecodeNodeSelectorTerms(DecodeContext& ctx, const DocNode& parent,
                                                      const std::string& path) {
  std::vector<NodeSelectorTerm> out;
  const DocNode terms = ctx.Seq(parent, "nodeSelectorTerms", path);
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    if (!terms[i].IsMap() && !terms[i].IsNull()) {
      ctx.Error(p, terms[i], std::string("expected an object, got ") + YamlKind(terms[i]));
      continue;
    }
    out.push_back(DecodeTerm(ctx, terms[i], p));
  }
  return out;
}

void DecodeNode(DecodeContext& ctx, const DocNode& obj, Node& node) {
  DecodeObjectMeta(ctx, obj, "metadata", node.meta);
  const DocNode spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    node.unschedulable = ctx.Bool(spec, "unschedulable", "spec.unschedulable").value_or(false);
    for (const auto& [t, p] : ctx.Objects(spec, "taints", "spec.taints"))
      node.taints.push_back(
          Taint{ctx.Str(t, "key", p + ".key"), ctx.Str(t, "value", p + ".value"), ctx.Str(t, "effect", p + ".effect")});
  }
  const DocNode status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    node.capacity = ctx.Quantities(status, "capacity", "status.capacity");
    const DocNode alloc = status["allocatable"];
    node.has_allocatable = alloc.IsDefined() && !alloc.IsNull();
    node.allocatable = ctx.Quantities(status, "allocatable", "status.allocatable");
    DecodeNodeImages(ctx, status, "status.images", node);  // ImageLocality
  }
}

}  // namespace gpusched

#include "kube_decode.h"

#include <algorithm>

#include "pod_extras_decode.h"
#include <climits>
#include <limits>

namespace gpusched {
namespace {

void DecodeContainers(DecodeContext& ctx, const YAML::Node& spec, const char* key, const std::string& path,
                      std::vector<Container>& out) {
  const YAML::Node list = ctx.Seq(spec, key, path);
  if (!list.IsDefined()) return;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node c = list[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ctx.Record(p, c);
    if (!c.IsMap()) {
      ctx.Error(p, c, std::string("expected an object, got ") + YamlKind(c));
      continue;
    }
    Container ct;
    ct.name = ctx.Str(c, "name", p + ".name");
    ct.image = ctx.Str(c, "image", p + ".image");
    ct.restart_policy = ctx.Str(c, "restartPolicy", p + ".restartPolicy");
    const YAML::Node res = ctx.Map(c, "resources", p + ".resources");
    if (res.IsDefined()) {
      ct.requests = ctx.Quantities(res, "requests", p + ".resources.requests");
      ct.limits = ctx.Quantities(res, "limits", p + ".resources.limits");
      ct.claims = DecodeContainerClaims(ctx, res, p + ".resources.claims");
    }
    out.push_back(std::move(ct));
  }
}

void DecodeTolerations(DecodeContext& ctx, const YAML::Node& spec, const std::string& path,
                       std::vector<Toleration>& out) {
  const YAML::Node list = ctx.Seq(spec, "tolerations", path);
  if (!list.IsDefined()) return;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node t = list[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ctx.Record(p, t);
    if (!t.IsMap()) {
      ctx.Error(p, t, std::string("expected an object, got ") + YamlKind(t));
      continue;
    }
    Toleration tol;
    tol.key = ctx.Str(t, "key", p + ".key");
    tol.op = ctx.Str(t, "operator", p + ".operator");
    tol.value = ctx.Str(t, "value", p + ".value");
    tol.effect = ctx.Str(t, "effect", p + ".effect");
    ctx.Int(t, "tolerationSeconds", p + ".tolerationSeconds");
    out.push_back(std::move(tol));
  }
}

void DecodeRequirements(DecodeContext& ctx, const YAML::Node& term, const char* key, const std::string& path,
                        std::vector<NodeSelectorRequirement>& out) {
  const YAML::Node list = ctx.Seq(term, key, path);
  if (!list.IsDefined()) return;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node r = list[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ctx.Record(p, r);
    if (!r.IsMap()) {
      ctx.Error(p, r, std::string("expected an object, got ") + YamlKind(r));
      continue;
    }
    NodeSelectorRequirement req;
    req.key = ctx.Str(r, "key", p + ".key");
    req.op = ctx.Str(r, "operator", p + ".operator");
    const YAML::Node values = ctx.Seq(r, "values", p + ".values");
    if (values.IsDefined()) {
      for (size_t k = 0; k < values.size(); ++k) {
        const YAML::Node v = values[k];
        if (!v.IsScalar()) {
          ctx.Error(p + ".values[" + std::to_string(k) + "]", v, std::string("expected a string, got ") + YamlKind(v));
          continue;
        }
        req.values.push_back(v.Scalar());
      }
    }
    out.push_back(std::move(req));
  }
}

NodeSelectorTerm DecodeTerm(DecodeContext& ctx, const YAML::Node& term, const std::string& path) {
  NodeSelectorTerm t;
  DecodeRequirements(ctx, term, "matchExpressions", path + ".matchExpressions", t.match_expressions);
  DecodeRequirements(ctx, term, "matchFields", path + ".matchFields", t.match_fields);
  return t;
}

NodeAffinity DecodeNodeAffinity(DecodeContext& ctx, const YAML::Node& na, const std::string& path) {
  NodeAffinity a;
  const std::string rpath = path + ".requiredDuringSchedulingIgnoredDuringExecution";
  const YAML::Node req = ctx.Map(na, "requiredDuringSchedulingIgnoredDuringExecution", rpath);
  if (req.IsDefined()) {
    a.has_required = true;
    const YAML::Node terms = ctx.Seq(req, "nodeSelectorTerms", rpath + ".nodeSelectorTerms");
    if (terms.IsDefined()) {
      for (size_t i = 0; i < terms.size(); ++i) {
        const std::string p = rpath + ".nodeSelectorTerms[" + std::to_string(i) + "]";
        ctx.Record(p, terms[i]);
        if (!terms[i].IsMap() && !terms[i].IsNull()) {
          ctx.Error(p, terms[i], std::string("expected an object, got ") + YamlKind(terms[i]));
          continue;
        }
        a.required.push_back(DecodeTerm(ctx, terms[i], p));
      }
    }
  }
  const std::string ppath = path + ".preferredDuringSchedulingIgnoredDuringExecution";
  const YAML::Node pref = ctx.Seq(na, "preferredDuringSchedulingIgnoredDuringExecution", ppath);
  if (pref.IsDefined()) {
    for (size_t i = 0; i < pref.size(); ++i) {
      const YAML::Node e = pref[i];
      const std::string p = ppath + "[" + std::to_string(i) + "]";
      ctx.Record(p, e);
      if (!e.IsMap()) {
        ctx.Error(p, e, std::string("expected an object, got ") + YamlKind(e));
        continue;
      }
      PreferredSchedulingTerm t;
      auto w = ctx.Int(e, "weight", p + ".weight");
      t.weight = w ? static_cast<int32_t>(std::clamp<int64_t>(*w, INT32_MIN, INT32_MAX)) : 0;
      const YAML::Node pt = ctx.Map(e, "preference", p + ".preference");
      if (pt.IsDefined()) t.preference = DecodeTerm(ctx, pt, p + ".preference");
      a.preferred.push_back(std::move(t));
    }
  }
  return a;
}

}  // namespace

void DecodeObjectMeta(DecodeContext& ctx, const YAML::Node& obj, const std::string& path, ObjectMeta& meta) {
  const YAML::Node m = ctx.Map(obj, "metadata", path);
  if (!m.IsDefined()) return;
  meta.name = ctx.Str(m, "name", path + ".name");
  meta.generate_name = ctx.Str(m, "generateName", path + ".generateName");
  meta.namespace_ = ctx.Str(m, "namespace", path + ".namespace");
  meta.uid = ctx.Str(m, "uid", path + ".uid");
  meta.labels = ctx.StrMap(m, "labels", path + ".labels");
  meta.annotations = ctx.StrMap(m, "annotations", path + ".annotations");
}

void DecodePodSpec(DecodeContext& ctx, const YAML::Node& parent, const std::string& path, Pod& pod) {
  const YAML::Node spec = ctx.Map(parent, "spec", path);
  if (!spec.IsDefined()) return;
  DecodeContainers(ctx, spec, "containers", path + ".containers", pod.containers);
  DecodeContainers(ctx, spec, "initContainers", path + ".initContainers", pod.init_containers);
  pod.overhead = ctx.Quantities(spec, "overhead", path + ".overhead");
  pod.node_name = ctx.Str(spec, "nodeName", path + ".nodeName");
  if (auto prio = ctx.Int(spec, "priority", path + ".priority")) {
    if (*prio < std::numeric_limits<int32_t>::min() || *prio > std::numeric_limits<int32_t>::max()) {
      ctx.Error(path + ".priority", spec["priority"], "value out of range for int32");
    } else {
      pod.priority = static_cast<int32_t>(*prio);
    }
  }
  pod.priority_class_name = ctx.Str(spec, "priorityClassName", path + ".priorityClassName");
  pod.preemption_policy = ctx.Str(spec, "preemptionPolicy", path + ".preemptionPolicy");
  std::string sched = ctx.Str(spec, "schedulerName", path + ".schedulerName");
  if (!sched.empty()) pod.scheduler_name = sched;
  pod.node_selector = ctx.StrMap(spec, "nodeSelector", path + ".nodeSelector");
  DecodeTolerations(ctx, spec, path + ".tolerations", pod.tolerations);
  const YAML::Node aff = ctx.Map(spec, "affinity", path + ".affinity");
  if (aff.IsDefined()) {
    const YAML::Node na = ctx.Map(aff, "nodeAffinity", path + ".affinity.nodeAffinity");
    if (na.IsDefined()) pod.node_affinity = DecodeNodeAffinity(ctx, na, path + ".affinity.nodeAffinity");
    // Said out loud rather than silently ignored.
    for (const char* k : {"podAffinity", "podAntiAffinity"})
      if (aff[k].IsDefined() && !aff[k].IsNull())
        ctx.Warn(aff[k], path + ".affinity." + k + " is not evaluated yet (nodeAffinity, nodeSelector and "
                             "tolerations are)");
  }
  if (spec["topologySpreadConstraints"].IsDefined() && !spec["topologySpreadConstraints"].IsNull())
    ctx.Warn(spec["topologySpreadConstraints"],
             path + ".topologySpreadConstraints is not evaluated yet (PodTopologySpread does not run)");
  DecodePodSpecExtras(ctx, spec, path, pod);
}

void DecodePod(DecodeContext& ctx, const YAML::Node& obj, Pod& pod) {
  DecodeObjectMeta(ctx, obj, "metadata", pod.meta);
  DecodePodSpec(ctx, obj, "spec", pod);
  const YAML::Node status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    pod.phase = ctx.Str(status, "phase", "status.phase");
    DecodeResourceClaimStatuses(ctx, status, "status.resourceClaimStatuses", pod);
  }
}

void DecodeNode(DecodeContext& ctx, const YAML::Node& obj, Node& node) {
  DecodeObjectMeta(ctx, obj, "metadata", node.meta);
  const YAML::Node spec = ctx.Map(obj, "spec", "spec");
  if (spec.IsDefined()) {
    node.unschedulable = ctx.Bool(spec, "unschedulable", "spec.unschedulable").value_or(false);
    const YAML::Node taints = ctx.Seq(spec, "taints", "spec.taints");
    if (taints.IsDefined()) {
      for (size_t i = 0; i < taints.size(); ++i) {
        const YAML::Node t = taints[i];
        const std::string p = "spec.taints[" + std::to_string(i) + "]";
        ctx.Record(p, t);
        if (!t.IsMap()) {
          ctx.Error(p, t, std::string("expected an object, got ") + YamlKind(t));
          continue;
        }
        node.taints.push_back(
            Taint{ctx.Str(t, "key", p + ".key"), ctx.Str(t, "value", p + ".value"), ctx.Str(t, "effect", p + ".effect")});
      }
    }
  }
  const YAML::Node status = ctx.Map(obj, "status", "status");
  if (status.IsDefined()) {
    node.capacity = ctx.Quantities(status, "capacity", "status.capacity");
    const YAML::Node alloc = status["allocatable"];
    node.has_allocatable = alloc.IsDefined() && !alloc.IsNull();
    node.allocatable = ctx.Quantities(status, "allocatable", "status.allocatable");
  }
}

}  // namespace gpusched

#include "gpusched/model/gang.h"

#include <algorithm>
#include <unordered_map>

namespace gpusched {
namespace {

std::string Key3(GangApi api, std::string_view ns, std::string_view name) {
  std::string k = std::to_string(static_cast<int>(api));
  k += '\0';
  k += ns;
  k += '\0';
  k += name;
  return k;
}

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

std::string_view GangApiName(GangApi api) {
  switch (api) {
    case GangApi::kWorkloadV1alpha1: return "Workload scheduling.k8s.io/v1alpha1";
    case GangApi::kPodGroupV1alpha2: return "PodGroup scheduling.k8s.io/v1alpha2";
    case GangApi::kCoscheduling: return "PodGroup scheduling.x-k8s.io/v1alpha1";
    case GangApi::kVolcano: return "PodGroup scheduling.volcano.sh/v1beta1";
    case GangApi::kKai: return "PodGroup scheduling.run.ai/v2alpha2";
    case GangApi::kOperator: return "no group object";
  }
  return "";
}

std::string_view GangEnforcer(GangApi api) {
  switch (api) {
    case GangApi::kWorkloadV1alpha1:
    case GangApi::kPodGroupV1alpha2: return "kube-scheduler GangScheduling";
    case GangApi::kCoscheduling: return "scheduler-plugins Coscheduling";
    case GangApi::kVolcano: return "Volcano";
    case GangApi::kKai: return "KAI";
    case GangApi::kOperator: return "";
  }
  return "";
}

std::vector<GangLink> GangLinksOf(const Pod& pod) {
  std::vector<GangLink> out;
  const PodSpecExtras& x = pod.Extras();
  if (x.workload_ref) {
    GangLink l;
    l.api = GangApi::kWorkloadV1alpha1;
    l.name = x.workload_ref->name;
    l.pod_group = x.workload_ref->pod_group;
    l.replica_key = x.workload_ref->pod_group_replica_key;
    out.push_back(std::move(l));
  }
  if (!x.scheduling_group.empty()) {
    GangLink l;
    l.api = GangApi::kPodGroupV1alpha2;
    l.name = x.scheduling_group;
    out.push_back(std::move(l));
  }
  const auto& labels = pod.meta.labels;
  const auto& ann = pod.meta.annotations;
  if (auto it = labels.find(kCoschedulingPodGroupLabel); it != labels.end() && !it->second.empty()) {
    GangLink l;
    l.api = GangApi::kCoscheduling;
    l.name = it->second;
    out.push_back(std::move(l));
  }
  // Volcano's GetPodGroupName reads scheduling.k8s.io/group-name first, then
  // the scheduling.volcano.sh one (pkg/scheduler/api/helpers).
  auto vol = ann.find(kVolcanoGroupNameAnnotation);
  if (vol == ann.end() || vol->second.empty()) vol = ann.find(kVolcanoGroupNameAnnotationAlt);
  if (vol != ann.end() && !vol->second.empty()) {
    GangLink l;
    l.api = GangApi::kVolcano;
    l.name = vol->second;
    if (auto t = ann.find(kVolcanoTaskSpecAnnotation); t != ann.end()) l.subgroup = t->second;
    out.push_back(std::move(l));
  }
  if (auto it = ann.find(kKaiPodGroupAnnotation); it != ann.end() && !it->second.empty()) {
    GangLink l;
    l.api = GangApi::kKai;
    l.name = it->second;
    if (auto s = labels.find(kKaiSubGroupLabel); s != labels.end()) l.subgroup = s->second;
    out.push_back(std::move(l));
  }
  return out;
}

void ValidateGangPodFields(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs) {
  const PodSpecExtras& x = pod.Extras();
  if (x.workload_ref) {
    const WorkloadReference& w = *x.workload_ref;
    const std::string p = spec_path + ".workloadRef";
    if (w.name.empty()) {
      errs.push_back(FieldError::Required(p + ".name", ""));
    } else {
      for (const auto& m : IsDNS1123Subdomain(w.name)) errs.push_back(FieldError::Invalid(p + ".name", w.name, m));
    }
    if (w.pod_group.empty()) {
      errs.push_back(FieldError::Required(p + ".podGroup", ""));
    } else {
      for (const auto& m : IsDNS1123Label(w.pod_group))
        errs.push_back(FieldError::Invalid(p + ".podGroup", w.pod_group, m));
    }
    if (!w.pod_group_replica_key.empty())
      for (const auto& m : IsDNS1123Label(w.pod_group_replica_key))
        errs.push_back(FieldError::Invalid(p + ".podGroupReplicaKey", w.pod_group_replica_key, m));
  }
  if (!x.scheduling_group.empty())
    for (const auto& m : IsDNS1123Subdomain(x.scheduling_group))
      errs.push_back(FieldError::Invalid(spec_path + ".schedulingGroup.podGroupName", x.scheduling_group, m));
}

std::vector<const Gang*> GangSet::GangsOf(std::string_view pod) const {
  std::vector<const Gang*> out;
  auto it = by_pod_.find(pod);
  if (it == by_pod_.end()) return out;
  for (size_t g : it->second) out.push_back(&gangs[g]);
  return out;
}

const Gang* GangSet::GangOf(std::string_view pod, GangApi api) const {
  for (const Gang* g : GangsOf(pod))
    if (g->api == api) return g;
  return nullptr;
}

void GangSet::Index() {
  by_pod_.clear();
  for (size_t g = 0; g < gangs.size(); ++g)
    for (const GangMember& m : gangs[g].members) by_pod_[m.pod].push_back(g);
}

GangSet GroupIntoGangs(const std::vector<PodGroupDecl>& decls, const std::vector<const Pod*>& pods) {
  GangSet out;
  std::unordered_map<std::string, size_t> by_key;     // api/ns/name -> decl
  std::unordered_map<std::string, size_t> gang_of;    // api/ns/name (declared groups) -> gang
  std::unordered_map<std::string, size_t> replicas;   // Workload gang key -> gang
  auto gang_from = [](const PodGroupDecl& d) {
    Gang g;
    g.api = d.api;
    g.ns = d.ns;
    g.name = d.name;
    g.key = d.ns + "/" + d.name;
    g.min_count = d.min_count;
    g.subgroups = d.subgroups;
    g.min_resources = d.min_resources;
    g.timeout_seconds = d.timeout_seconds;
    g.queue = d.queue;
    g.priority_class_name = d.priority_class_name;
    g.owner = d.owner;
    g.implied = d.implied;
    g.restarts_whole_group = d.restarts_whole_group;
    g.file = d.file;
    g.line = d.line;
    return g;
  };
  for (size_t i = 0; i < decls.size(); ++i) {
    const PodGroupDecl& d = decls[i];
    const std::string k = Key3(d.api, d.ns, d.name);
    if (!by_key.emplace(k, i).second) continue;
    // Workload pod groups become gangs per replica key, as pods come; the
    // others are one gang each (basic ones none).
    if (d.api == GangApi::kWorkloadV1alpha1 || !d.gang) continue;
    gang_of.emplace(k, out.gangs.size());
    Gang g = gang_from(d);
    if (d.api == GangApi::kOperator)
      for (const std::string& m : d.members) g.members.push_back(GangMember{m, ""});
    out.gangs.push_back(std::move(g));
  }
  std::vector<Gang> workload_gangs;
  for (const Pod* pod : pods) {
    const std::string pod_key = pod->ns() + "/" + pod->name();
    for (const GangLink& l : GangLinksOf(*pod)) {
      auto d = by_key.find(Key3(l.api, pod->ns(), l.name));
      if (d == by_key.end()) {
        GangRefProblem p;
        p.pod = pod_key;
        p.api = l.api;
        p.group = l.name;
        switch (l.api) {
          case GangApi::kWorkloadV1alpha1:
            // gangscheduling.go (v1.35) PreEnqueue, "pods's" as upstream spells it.
            p.effect = GangRefProblem::Effect::kPreEnqueueRejected;
            p.message = "waiting for pods's workload " + Quoted(l.name) + " to appear in scheduling queue";
            break;
          case GangApi::kPodGroupV1alpha2:
            p.effect = GangRefProblem::Effect::kPreEnqueueRejected;
            p.message = "waiting for pods's pod group " + Quoted(l.name) + " to appear in scheduling queue";
            break;
          case GangApi::kCoscheduling:
            // coscheduling.go Permit: core.PodGroupNotFound.
            p.effect = GangRefProblem::Effect::kPermitRejected;
            p.message = "PodGroup not found";
            break;
          case GangApi::kVolcano:
            p.effect = GangRefProblem::Effect::kIgnored;
            p.message = "Volcano ignores a job whose PodGroup " + Quoted(l.name) +
                        " does not exist: the pod stays Pending without an event";
            break;
          case GangApi::kKai:
            p.effect = GangRefProblem::Effect::kIgnored;
            p.message = "KAI schedules PodGroups and PodGroup " + Quoted(l.name) +
                        " does not exist: the pod stays Pending without an event";
            break;
          case GangApi::kOperator: break;
        }
        out.problems.push_back(std::move(p));
        continue;
      }
      const PodGroupDecl& decl = decls[d->second];
      if (l.api != GangApi::kWorkloadV1alpha1) {
        if (!decl.gang) continue;  // basic: scheduled one by one
        Gang& g = out.gangs[gang_of.at(Key3(l.api, pod->ns(), l.name))];
        g.members.push_back(GangMember{pod_key, l.subgroup});
        continue;
      }
      const PodGroupDecl::WorkloadGroup* wg = nullptr;
      for (const auto& x : decl.workload_groups)
        if (x.name == l.pod_group) wg = &x;
      if (!wg) {
        GangRefProblem p;
        p.pod = pod_key;
        p.api = l.api;
        p.group = l.name + "/" + l.pod_group;
        p.effect = GangRefProblem::Effect::kPreEnqueueRejected;
        p.message = "pod group " + Quoted(l.pod_group) + " doesn't exist for a workload " + Quoted(l.name);
        out.problems.push_back(std::move(p));
        continue;
      }
      if (!wg->gang) continue;
      std::string key = pod->ns() + "/" + l.name + "/" + l.pod_group;
      if (!l.replica_key.empty()) key += "/" + l.replica_key;
      auto [it, fresh] = replicas.emplace(key, workload_gangs.size());
      if (fresh) {
        Gang g = gang_from(decl);
        g.key = key;
        g.pod_group = l.pod_group;
        g.replica_key = l.replica_key;
        g.min_count = wg->min_count;
        workload_gangs.push_back(std::move(g));
      }
      workload_gangs[it->second].members.push_back(GangMember{pod_key, ""});
    }
  }
  // Workload gangs by key, whatever order their pods came in.
  std::sort(workload_gangs.begin(), workload_gangs.end(), [](const Gang& a, const Gang& b) { return a.key < b.key; });
  for (Gang& g : workload_gangs) out.gangs.push_back(std::move(g));
  out.Index();
  return out;
}

}  // namespace gpusched

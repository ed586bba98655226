// Helpers shared by the gang and operator tests: canonical text of what the
// loader made of the input (pods with their owner, links and GPUs; gangs;
// operator reports; PDBs; rejections and warnings), compared exactly.
#ifndef GPUSCHED_TESTS_IO_GANG_TEST_UTIL_H_
#define GPUSCHED_TESTS_IO_GANG_TEST_UTIL_H_

#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/eviction.h"
#include "gpusched/model/gang.h"

namespace gpusched::gang_test {

inline Manifests Load(const std::string& text, const std::string& file = "t.yaml") {
  Manifests m;
  LoadManifestText(text, file, m);
  return m;
}

inline std::string Rejections(const Manifests& m) {
  std::string s;
  for (const auto& r : m.rejected) s += r.object + " | " + r.ToString() + "\n";
  return s;
}

inline std::string Warnings(const Manifests& m) {
  std::string s;
  for (const auto& w : m.warnings) s += w + "\n";
  return s;
}

// The labels and annotations operators and pod-groupers set, as "k=v".
inline std::string Links(const Pod& p) {
  static const char* kKeys[] = {kCoschedulingPodGroupLabel, kKaiSubGroupLabel, "training.kubeflow.org/replica-type",
                                "training.kubeflow.org/replica-index", "training.kubeflow.org/job-role",
                                "leaderworkerset.sigs.k8s.io/group-index", "leaderworkerset.sigs.k8s.io/worker-index",
                                "jobset.sigs.k8s.io/job-index", "volcano.sh/task-index"};
  static const char* kAnnotations[] = {kVolcanoGroupNameAnnotation, kVolcanoTaskSpecAnnotation, kKaiPodGroupAnnotation};
  std::string s;
  for (const char* k : kKeys)
    if (auto it = p.meta.labels.find(k); it != p.meta.labels.end()) s += " " + std::string(k) + "=" + it->second;
  for (const char* k : kAnnotations)
    if (auto it = p.meta.annotations.find(k); it != p.meta.annotations.end())
      s += " @" + std::string(k) + "=" + it->second;
  const PodSpecExtras& x = p.Extras();
  if (x.workload_ref)
    s += " workloadRef=" + x.workload_ref->name + "/" + x.workload_ref->pod_group +
         (x.workload_ref->pod_group_replica_key.empty() ? "" : "/" + x.workload_ref->pod_group_replica_key);
  if (!x.scheduling_group.empty()) s += " schedulingGroup=" + x.scheduling_group;
  return s;
}

inline std::string Pods(const Manifests& m) {
  std::string s;
  for (const LoadedPod& lp : m.pods) {
    const Pod& p = lp.pod;
    s += p.ns() + "/" + p.name();
    if (!p.owner.empty()) s += " owner=" + p.owner;
    if (p.controller_ref) s += " ref=" + p.controller_ref->kind + "/" + p.controller_ref->name;
    if (p.scheduler_name != kDefaultSchedulerName) s += " scheduler=" + p.scheduler_name;
    s += Links(p) + "\n";
  }
  return s;
}

inline std::string Gangs(const Manifests& m) {
  std::string s;
  for (const Gang& g : m.gangs.gangs) {
    s += g.key + " [" + std::string(GangApiName(g.api)) + "] min " + std::to_string(g.min_count);
    if (g.timeout_seconds) s += " timeout " + std::to_string(static_cast<int64_t>(*g.timeout_seconds)) + "s";
    if (!g.queue.empty()) s += " queue " + g.queue;
    if (!g.priority_class_name.empty()) s += " priority " + g.priority_class_name;
    if (!g.owner.empty()) s += " owner " + g.owner;
    if (g.implied) s += " implied";
    if (g.restarts_whole_group) s += " restarts-whole";
    for (const GangSubgroup& sg : g.subgroups)
      s += " {" + sg.name + " " + std::to_string(sg.min_count) + (sg.parent.empty() ? "" : " in " + sg.parent) + "}";
    for (const auto& [name, q] : g.min_resources) s += " min " + name + "=" + q.String();
    s += ":";
    for (const GangMember& mb : g.members) s += " " + mb.pod + (mb.subgroup.empty() ? "" : "(" + mb.subgroup + ")");
    s += "\n";
  }
  for (const GangRefProblem& p : m.gangs.problems) s += "problem " + p.pod + ": " + p.message + "\n";
  return s;
}

inline std::string Operators(const Manifests& m) {
  std::string s;
  for (const OperatorPods& r : m.operator_pods) {
    s += OperatorId(r.kind, r.ns, r.name) + " (" + r.file + ":" + std::to_string(r.line) + "): " + r.summary + "\n";
    s += "  had:";
    for (const std::string& p : r.had) s += " " + p;
    s += "\n  created:";
    for (const std::string& p : r.created) s += " " + p;
    s += "\n";
    if (!r.children.empty()) {
      s += "  children:";
      for (const std::string& c : r.children) s += " " + c;
      s += "\n";
    }
  }
  return s;
}

}  // namespace gpusched::gang_test

#endif  // GPUSCHED_TESTS_IO_GANG_TEST_UTIL_H_

#include "gpusched/io/gang_inputs.h"

#include <string>
#include <unordered_map>
#include <utility>

namespace gpusched {
namespace {

// Members of `g` that count for subgroup `s`: those in it or in a subgroup
// below it (KAI's subGroups nest through `parent`).
int64_t MembersIn(const Gang& g, const std::string& s) {
  std::unordered_map<std::string, std::string> parent;
  for (const GangSubgroup& sg : g.subgroups) parent.emplace(sg.name, sg.parent);
  int64_t n = 0;
  for (const GangMember& m : g.members) {
    std::string at = m.subgroup;
    // Bounded by the number of subgroups: a parent cycle ends the walk.
    for (size_t depth = 0; !at.empty() && depth <= g.subgroups.size(); ++depth) {
      if (at == s) {
        ++n;
        break;
      }
      auto it = parent.find(at);
      if (it == parent.end()) break;
      at = it->second;
    }
  }
  return n;
}

// Where the subgroup minimum `i` of `g` comes from: the object and its field.
std::pair<std::string, std::string> SubgroupSource(const Gang& g, size_t i) {
  const GangSubgroup& sg = g.subgroups[i];
  const std::string index = std::to_string(i);
  if (g.api == GangApi::kVolcano) {
    // A Volcano Job's PodGroup: createOrUpdatePodGroup copies each task's
    // minAvailable into minTaskMember.
    if (g.implied) return {g.owner, "spec.tasks[" + index + "].minAvailable"};
    return {"PodGroup/" + g.ns + "/" + g.name, "spec.minTaskMember." + sg.name};
  }
  if (g.implied)
    return {g.owner, "subGroups[" + index + "].minMember of the PodGroup " + g.name + " the KAI pod-grouper creates"};
  return {"PodGroup/" + g.ns + "/" + g.name, "spec.subGroups[" + index + "].minMember"};
}

// Volcano's minTaskMember and KAI's subGroups are read (Gang::subgroups) but
// the all-or-nothing check counts only the gang's minimum. Where a subgroup's
// minimum is not implied by it (some placement of the gang's minimum leaves
// the subgroup short), say so: Volcano holds a job whose task minimum is not
// met (volcano-sh/volcano pkg/scheduler/api/job_info.go CheckTaskReady,
// counting a pod for the task its annotation volcano.sh/task-spec names,
// getTaskID) unless minMember is below the minima's sum (then CheckTaskReady
// checks none of them), and KAI a subgroup below its minMember.
void WarnUnenforcedSubgroups(Manifests& m) {
  for (const Gang& g : m.gangs.gangs) {
    if (g.api != GangApi::kVolcano && g.api != GangApi::kKai) continue;
    if (g.api == GangApi::kVolcano) {
      int64_t sum = 0;
      for (const GangSubgroup& sg : g.subgroups) sum += sg.min_count;
      if (g.min_count < sum) continue;
    }
    const int64_t total = static_cast<int64_t>(g.members.size());
    for (size_t i = 0; i < g.subgroups.size(); ++i) {
      const GangSubgroup& sg = g.subgroups[i];
      if (sg.min_count <= 0) continue;
      const int64_t in = MembersIn(g, sg.name);
      // The fewest of its members any placement of min_count members holds.
      if (static_cast<int64_t>(g.min_count) - (total - in) >= sg.min_count) continue;
      const auto [object, field] = SubgroupSource(g, i);
      const bool volcano = g.api == GangApi::kVolcano;
      const std::string what = volcano ? "task" : "subgroup";
      m.warnings.push_back(g.file + ":" + std::to_string(g.line) + ": " + object + ": " + field + " (" +
                           std::to_string(sg.min_count) + ") is read but not enforced: gpusched binds gang " + g.key +
                           " once " + std::to_string(g.min_count) + " of its " + std::to_string(total) +
                           " members fit, whatever their " + what + "s; " + (volcano ? "Volcano" : "KAI") +
                           " also holds it until " + what + " " + sg.name + " has " + std::to_string(sg.min_count) +
                           " of its " + std::to_string(in) + " placed");
    }
  }
}

}  // namespace

void GroupGangs(Manifests& m) {
  if (m.pod_groups.empty()) {
    // Links to groups that do not exist still matter.
    bool linked = false;
    for (const LoadedPod& lp : m.pods) linked = linked || !GangLinksOf(lp.pod).empty();
    if (!linked) {
      m.gangs = GangSet{};
      return;
    }
  }
  std::vector<PodGroupDecl> decls;
  decls.reserve(m.pod_groups.size());
  for (const PodGroupDecl& d : m.pod_groups) {
    PodGroupDecl copy = d;
    if (copy.api == GangApi::kOperator) {
      std::vector<std::string> kept;
      for (std::string& p : copy.members)
        if (m.pod_keys.count(p)) kept.push_back(std::move(p));
      copy.members = std::move(kept);
    }
    decls.push_back(std::move(copy));
  }
  std::vector<const Pod*> pods;
  pods.reserve(m.pods.size());
  std::unordered_map<std::string, const LoadedPod*> where;
  for (const LoadedPod& lp : m.pods) pods.push_back(&lp.pod);
  m.gangs = GroupIntoGangs(decls, pods);
  WarnUnenforcedSubgroups(m);
  if (m.gangs.problems.empty()) return;
  for (const LoadedPod& lp : m.pods) where.emplace(lp.pod.ns() + "/" + lp.pod.name(), &lp);
  for (const GangRefProblem& p : m.gangs.problems) {
    const LoadedPod* lp = where.at(p.pod);
    m.warnings.push_back(lp->file + ":" + std::to_string(lp->line) + ": Pod/" + p.pod + ": names " +
                         std::string(GangApiName(p.api)) + " \"" + p.group + "\", which is not in the input: " +
                         p.message);
  }
}

}  // namespace gpusched

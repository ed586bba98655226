#include "gpusched/controllers/gang_inputs.h"

#include <string>
#include <unordered_map>
#include <utility>

#include "gpusched/model/gang_readiness.h"

namespace gpusched {
namespace {

// Where the subgroup `i` of `g` comes from: the object and its field.
std::pair<std::string, std::string> SubgroupSource(const Gang& g, size_t i) {
  const std::string index = std::to_string(i);
  if (g.implied)
    return {g.owner, "subGroups[" + index + "].minMember of the PodGroup " + g.name + " the KAI pod-grouper creates"};
  return {"PodGroup/" + g.ns + "/" + g.name, "spec.subGroups[" + index + "].minMember"};
}

// Volcano's task minimums and KAI's subgroups are enforced (GangReady,
// model/gang_readiness.h). What KAI does with a PodGroup that has subGroups
// and gpusched cannot mirror, or that surprises, is said here:
// - a member whose subgroup label names no leaf subgroup (none, an unknown
//   one, or one with children) is in no PodSet: KAI's AddTaskInfo
//   (pkg/scheduler/api/podgroup_info/job_info.go) drops it with "SubGroup
//   not found" and never schedules it, while gpusched places it with its
//   gang (counting it for no subgroup);
// - the PodGroup's minMember, and a parent subgroup's, are not checked when
//   they ask more than the leaf subgroups under them (setSubGroups keeps the
//   PodGroup's minMember for the "default" PodSet only; a SubGroupSet has no
//   minimum): gpusched does as KAI, and says so.
void WarnKaiSubgroups(ClusterObjects& m, const std::unordered_map<std::string, const LoadedPod*>& where) {
  for (const Gang& g : m.gangs.gangs) {
    if (g.api != GangApi::kKai || g.subgroups.empty()) continue;
    std::unordered_map<std::string, int64_t> leaf_min;  // leaf subgroup -> its enforced minimum
    for (const GangMinimum& mm : EnforcedMinimums(g)) leaf_min.emplace(mm.subgroup, mm.min);
    for (const GangMember& mem : g.members) {
      if (leaf_min.count(mem.subgroup)) continue;
      auto it = where.find(mem.pod);
      const std::string at = it == where.end() ? g.file + ":" + std::to_string(g.line)
                                               : it->second->file + ":" + std::to_string(it->second->line);
      m.warnings.push_back(
          at + ": Pod/" + mem.pod + ": " +
          (mem.subgroup.empty() ? std::string("has no label ") + kKaiSubGroupLabel
                                : std::string("its label ") + kKaiSubGroupLabel + " \"" + mem.subgroup +
                                      "\" names no subgroup without children") +
          " of PodGroup " + g.key + ", which has subGroups: KAI leaves it out of the job (SubGroup not found) and "
          "never schedules it; gpusched places it with its gang, counting it for no subgroup's minMember");
    }
    // The leaf minimums under each subgroup (itself when a leaf), summed.
    std::unordered_map<std::string, std::string> parent;
    for (const GangSubgroup& sg : g.subgroups) parent.emplace(sg.name, sg.parent);
    std::unordered_map<std::string, int64_t> under;
    int64_t all = 0;
    for (const auto& [leaf, min] : leaf_min) {
      all += min;
      std::string at = leaf;
      // Bounded by the number of subgroups: a parent cycle ends the walk.
      for (size_t depth = 0; !at.empty() && depth <= g.subgroups.size(); ++depth) {
        under[at] += min;
        auto p = parent.find(at);
        if (p == parent.end()) break;
        at = p->second;
      }
    }
    const std::string where_g = g.file + ":" + std::to_string(g.line) + ": ";
    if (g.min_count > all) {
      const std::string object = g.implied ? g.owner : "PodGroup/" + g.ns + "/" + g.name;
      const std::string field =
          g.implied ? "minMember of the PodGroup " + g.name + " the KAI pod-grouper creates" : "spec.minMember";
      m.warnings.push_back(where_g + object + ": " + field + " (" + std::to_string(g.min_count) +
                           ") is not checked: with subGroups KAI checks only the minMember of each subgroup without "
                           "children (" + std::to_string(all) + " in all), and so does gpusched");
    }
    for (size_t i = 0; i < g.subgroups.size(); ++i) {
      const GangSubgroup& sg = g.subgroups[i];
      if (leaf_min.count(sg.name) || sg.min_count <= under[sg.name]) continue;
      const auto [object, field] = SubgroupSource(g, i);
      m.warnings.push_back(where_g + object + ": " + field + " (" + std::to_string(sg.min_count) +
                           ") is not checked: subgroup " + sg.name + " has subgroups of its own, and KAI checks only "
                           "the minMember of those without children (" + std::to_string(under[sg.name]) +
                           " under it), and so does gpusched");
    }
  }
}

}  // namespace

void GroupGangs(ClusterObjects& m) {
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
  for (const LoadedPod& lp : m.pods) where.emplace(lp.pod.ns() + "/" + lp.pod.name(), &lp);
  WarnKaiSubgroups(m, where);
  if (m.gangs.problems.empty()) return;
  for (const GangRefProblem& p : m.gangs.problems) {
    const LoadedPod* lp = where.at(p.pod);
    m.warnings.push_back(lp->file + ":" + std::to_string(lp->line) + ": Pod/" + p.pod + ": names " +
                         std::string(GangApiName(p.api)) + " \"" + p.group + "\", which is not in the input: " +
                         p.message);
  }
}

}  // namespace gpusched

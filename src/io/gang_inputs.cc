#include "gpusched/io/gang_inputs.h"

#include <unordered_map>

namespace gpusched {

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

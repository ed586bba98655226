#include "gpusched/report/explain_ranking.h"

#include <algorithm>
#include <map>
#include <utility>

namespace gpusched {

ExplainRanking RankExplainedNodes(const PodExplain& e, const ClusterState& cluster) {
  ExplainRanking out;
  std::vector<size_t> feasible, not_evaluated;
  std::map<std::pair<std::string, std::string>, size_t> group_of;
  for (size_t k = 0; k < e.nodes.size(); ++k) {
    const NodeExplain& ne = e.nodes[k];
    if (ne.node >= cluster.size() || !cluster.present(ne.node)) continue;
    if (!ne.evaluated) {
      not_evaluated.push_back(k);
    } else if (ne.feasible) {
      feasible.push_back(k);
    } else {
      std::string reasons;
      for (size_t i = 0; i < ne.reasons.size(); ++i) reasons += (i ? ", " : "") + ne.reasons[i];
      auto [it, added] = group_of.emplace(std::make_pair(ne.failed_plugin, reasons), out.failed.size());
      if (added) out.failed.push_back({ne.failed_plugin, std::move(reasons), {}});
      out.failed[it->second].nodes.push_back(k);
    }
  }
  auto chosen = [&](size_t k) { return e.chosen && e.nodes[k].node == *e.chosen; };
  std::stable_sort(feasible.begin(), feasible.end(), [&](size_t a, size_t b) {
    if (chosen(a) != chosen(b)) return chosen(a);
    const NodeExplain &x = e.nodes[a], &y = e.nodes[b];
    if (x.scored != y.scored) return x.scored;
    return x.total > y.total;
  });
  for (auto& g : out.failed) {
    std::stable_sort(g.nodes.begin(), g.nodes.end(),
                     [&](size_t a, size_t b) { return e.nodes[a].gpus_free > e.nodes[b].gpus_free; });
  }
  // Groups were made in node order: equal sizes keep it.
  std::stable_sort(out.failed.begin(), out.failed.end(),
                   [](const FilterFailureGroup& a, const FilterFailureGroup& b) { return a.nodes.size() > b.nodes.size(); });
  out.feasible = feasible.size();
  out.not_evaluated = not_evaluated.size();
  out.order = std::move(feasible);
  for (const auto& g : out.failed) {
    out.failed_nodes += g.nodes.size();
    out.order.insert(out.order.end(), g.nodes.begin(), g.nodes.end());
  }
  out.order.insert(out.order.end(), not_evaluated.begin(), not_evaluated.end());
  return out;
}

}  // namespace gpusched

// The nodes of one pod's explanation in the order a person reads them: the
// chosen node, the other feasible ones by total score (highest first), then
// those a filter rejected, grouped by filter and reasons (largest group
// first; within a group the node with the most free GPUs first, the closest
// to fitting), then the nodes the scan never reached. Nodes removed from the
// cluster are left out.
#ifndef GPUSCHED_REPORT_EXPLAIN_RANKING_H_
#define GPUSCHED_REPORT_EXPLAIN_RANKING_H_

#include <cstddef>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/explain.h"

namespace gpusched {

struct FilterFailureGroup {
  std::string filter;   // the plugin that rejected them
  std::string reasons;  // its reasons, ", "-joined
  std::vector<size_t> nodes;  // indices into PodExplain::nodes, in rank order
};

struct ExplainRanking {
  std::vector<size_t> order;  // indices into PodExplain::nodes, best first
  size_t feasible = 0;
  std::vector<FilterFailureGroup> failed;  // in rank order
  size_t failed_nodes = 0;
  size_t not_evaluated = 0;
};

ExplainRanking RankExplainedNodes(const PodExplain& e, const ClusterState& cluster);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_EXPLAIN_RANKING_H_

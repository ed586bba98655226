// Explanation of one scheduling decision, node by node: which filter failed
// and why, each score plugin's raw, normalized and weighted score, and which
// node won and why. Filled only when asked for (--explain, `gpusched explain`).
#ifndef GPUSCHED_SCHED_API_EXPLAIN_H_
#define GPUSCHED_SCHED_API_EXPLAIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusched/sched/api/status.h"

namespace gpusched {

struct PluginScore {
  std::string plugin;
  int64_t raw = 0;
  int64_t normalized = 0;
  int64_t weight = 0;
  int64_t weighted = 0;  // normalized * weight
};

struct NodeExplain {
  size_t node = 0;
  bool evaluated = false;  // filters ran on it (percentageOfNodesToScore may stop the scan earlier)
  bool feasible = false;
  bool scored = false;
  std::string failed_plugin;
  SchedStatus::Code code = SchedStatus::Code::kSuccess;
  std::vector<std::string> reasons;
  std::string detail;  // the failing filter's own words (FilterPlugin::ExplainNode), "" when none
  std::vector<PluginScore> scores;
  int64_t total = 0;
  int64_t gpus_free = 0;   // when the pod was considered
  int64_t gpus_total = 0;
};

struct PodExplain {
  std::vector<NodeExplain> nodes;   // one per node, in node order
  int64_t nodes_to_find = 0;        // feasible nodes the scan looked for
  size_t start_index = 0;           // where the scan started
  std::optional<size_t> chosen;
  std::string why;                  // "only feasible node", "highest score 250", "tie among 3 at 250: ..."
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_EXPLAIN_H_

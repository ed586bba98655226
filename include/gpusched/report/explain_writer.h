// Rendering of PodExplain: the readable report of `gpusched explain` (what
// the pod asks for, the nodes counted by outcome, the top nodes ranked as
// explain_ranking.h orders them, then a plain-words diagnosis), and the
// "explain" JSON object that `gpusched schedule --explain -o json` adds to
// every pod.
#ifndef GPUSCHED_REPORT_EXPLAIN_WRITER_H_
#define GPUSCHED_REPORT_EXPLAIN_WRITER_H_

#include <nlohmann/json.hpp>
#include <ostream>

#include "gpusched/report/run_report.h"
#include "gpusched/sched/api/explain.h"

namespace gpusched {

nlohmann::ordered_json ExplainJson(const PodExplain& e, const ClusterState& cluster);

struct ExplainOptions {
  // Rows of the node table (`--nodes N`); the rest are counted by outcome.
  size_t max_nodes = 20;
  // Past this many nodes, "free GPUs then" counts nodes by free GPUs
  // instead of naming each.
  size_t max_named_free = 8;
};

inline constexpr size_t kAllNodes = static_cast<size_t>(-1);  // `--nodes all`

// Explains input pod `pod` (an index into r.pods). The pod must have been
// scheduled with explain on (it has a PodExplain) or be pre-bound/refused.
void WriteExplain(std::ostream& out, const RunReport& r, size_t pod, const ExplainOptions& options = {});

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_EXPLAIN_WRITER_H_

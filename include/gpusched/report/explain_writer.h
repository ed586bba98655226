// Rendering of PodExplain: the readable per-node table of `gpusched explain`
// with a plain-words diagnosis after it, and the "explain" JSON object that
// `gpusched schedule --explain -o json` adds to every pod.
#ifndef GPUSCHED_REPORT_EXPLAIN_WRITER_H_
#define GPUSCHED_REPORT_EXPLAIN_WRITER_H_

#include <nlohmann/json.hpp>
#include <ostream>

#include "gpusched/report/run_report.h"
#include "gpusched/sched/explain.h"

namespace gpusched {

nlohmann::ordered_json ExplainJson(const PodExplain& e, const ClusterState& cluster);

// Explains input pod `pod` (an index into r.pods). The pod must have been
// scheduled with explain on (it has a PodExplain) or be pre-bound/refused.
void WriteExplain(std::ostream& out, const RunReport& r, size_t pod);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_EXPLAIN_WRITER_H_

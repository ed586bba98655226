// The simulation's machine-readable outputs: per policy a time series CSV and
// a per-pod CSV, and one summary.json over all policies. Numbers have fixed
// decimals (CSV) or are rounded to 3 decimals (JSON) so reruns diff cleanly.
//
//   <dir>/<policy>/timeseries.csv  SeriesCsv
//   <dir>/<policy>/pods.csv        PodsCsv
//   <dir>/summary.json             SummaryJson
#ifndef GPUSCHED_REPORT_SIM_WRITERS_H_
#define GPUSCHED_REPORT_SIM_WRITERS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/sim/sim_result.h"
#include "gpusched/util/status.h"

namespace gpusched {

// Header time,gpu_alloc_pct,gpu_unalloc_pct,frag_pct,frag_of_idle_pct,pending,
// running,arrived_gpu_milli,gpu_milli_used,gpu_milli_total; one row per sample;
// time with 3 decimals, percentages with 4. Lines end in "\n".
std::string SeriesCsv(const SimResult& run);

// Header name,state,arrival,start,finish,node,attempts,evictions,reason; one
// row per pod in workload order. state is finished|running|pending|rejected;
// times have 3 decimals, start and finish are empty when the pod never
// started or finished. Fields with a comma, quote, CR or LF are quoted as RFC
// 4180 says (quotes doubled); lines end in "\n".
std::string PodsCsv(const SimResult& run);

// A field as RFC 4180 wants it: unchanged, or quoted with quotes doubled.
std::string CsvField(std::string_view s);

// {"policies": [{"policy", "pods", "finished", "running", "pending",
// "rejected", "scheduling_attempts", "end_time", "mean_gpu_alloc_pct",
// "mean_frag_pct", "queueing_delay": {count,p50,p90,p99,max,mean}, "jct":
// {...}}]} in run order, from each run's SimSummary.
nlohmann::json SummaryJson(const std::vector<SimResult>& runs);

// The directory a policy's files go to: its name with every character outside
// [A-Za-z0-9._-] replaced by '_' ("." and ".." and "" become "_"), so a name
// can neither escape `dir` nor need quoting in a shell.
std::string PolicyDirName(std::string_view policy);

// Writes the three kinds of file, creating directories as needed. Two runs
// whose policies map to the same directory are refused (InvalidArgument)
// before anything is written; a directory or file that cannot be created is
// an IOError naming its path.
Status WriteSimOutputs(const std::string& dir, const std::vector<SimResult>& runs);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_SIM_WRITERS_H_

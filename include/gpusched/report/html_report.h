// The simulation report: one self-contained HTML file (inline CSS and inline
// SVG; no script, no font, no image and no link to anything outside it) that
// compares policies over one workload: metrics over time, queueing-delay
// CDFs, per-node occupancy heatmaps and a summary table. Opens offline, can be
// mailed or attached to a ticket as is, and is byte-identical for the same
// input.
#ifndef GPUSCHED_REPORT_HTML_REPORT_H_
#define GPUSCHED_REPORT_HTML_REPORT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "gpusched/report/experiment_chart.h"
#include "gpusched/sim/sim_result.h"

namespace gpusched {

struct ReportOptions {
  std::string title = "gpusched simulation report";
  std::string subtitle;  // one line under the title (the workload, the cluster); plain text
  // The paper experiment's chart (RenderExperimentChart), shown when non-empty.
  std::vector<ExperimentSeries> experiment;
  std::string experiment_title = "Unallocated GPUs as workload arrives";
  size_t max_points = 2000;  // per line, as drawn
  // Heatmaps: every snapshot of every policy, unless that would exceed
  // max_heatmap_cells cells in all (about 100 bytes each: the default keeps the
  // heatmaps near 4 MB); then each policy shows evenly spaced snapshots, the
  // first and last included (a single one: the busiest). 0 = no per-policy cap.
  size_t max_snapshots_per_policy = 0;
  size_t max_heatmap_cells = 40000;
};

std::string RenderHtmlReport(const std::vector<SimResult>& runs, const ReportOptions& opts);

// Which of `count` snapshots a policy shows when it may show `allowed`:
// ascending indices, every one if allowed >= count. `used_milli[i]` is
// snapshot i's total used GPU milli, to pick the busiest when allowed is 1.
std::vector<size_t> PickSnapshots(const std::vector<int64_t>& used_milli, size_t allowed);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_HTML_REPORT_H_

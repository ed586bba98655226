// The paper experiment's chart (FGD, "Beware of Fragmentation", ATC'23, Fig.
// 7 style): the share of cluster GPUs left unallocated (y) as the arrived
// workload grows (x, in % of cluster GPU capacity), one line per policy with
// a band of one standard deviation across repeated runs. The data is passed
// already aggregated, so the report does not care how the runs were made.
#ifndef GPUSCHED_REPORT_EXPERIMENT_CHART_H_
#define GPUSCHED_REPORT_EXPERIMENT_CHART_H_

#include <string>
#include <vector>

namespace gpusched {

struct ExperimentPoint {
  double x = 0;       // arrived GPU requests, % of cluster GPU capacity
  double y_mean = 0;  // unallocated GPU %, mean over runs
  double y_sd = 0;    // its standard deviation (0: no band)
};

struct ExperimentSeries {
  std::string policy;
  std::vector<ExperimentPoint> points;  // x ascending
};

// An inline <svg> (no xmlns: meant for an HTML5 page; a standalone .svg file
// needs xmlns="http://www.w3.org/2000/svg" added to the root element).
// `x_from` > 0 zooms: the x axis starts there (points left of it are
// dropped) and the y axis fits the data instead of spanning 0..100.
std::string RenderExperimentChart(const std::vector<ExperimentSeries>& series,
                                  const std::string& title = "Unallocated GPUs as workload arrives",
                                  double x_from = 0);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_EXPERIMENT_CHART_H_

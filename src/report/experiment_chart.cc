#include "gpusched/report/experiment_chart.h"

#include "gpusched/report/svg_chart.h"

namespace gpusched {

std::string RenderExperimentChart(const std::vector<ExperimentSeries>& series, const std::string& title,
                                  double x_from) {
  LineChartSpec spec;
  spec.title = title;
  spec.x_label = "arrived GPU requests (% of cluster GPU capacity)";
  spec.y_label = "unallocated GPUs (%)";
  spec.width = 900;
  spec.height = 420;
  spec.markers = true;
  // A percentage of the cluster: a band reaching below 0 or above 100 is
  // clipped rather than stretching the axis to -50..150.
  spec.y_min = 0;
  if (x_from > 0) {
    spec.x_min = x_from;
  } else {
    spec.y_max = 100;
  }
  std::vector<ChartSeries> lines;
  for (const auto& s : series) {
    ChartSeries c;
    c.name = s.policy;
    bool any_sd = false;
    for (const auto& p : s.points) {
      if (p.x < x_from) continue;
      c.points.push_back({p.x, p.y_mean});
      c.band.push_back(p.y_sd);
      any_sd = any_sd || p.y_sd != 0;
    }
    if (!any_sd) c.band.clear();
    lines.push_back(std::move(c));
  }
  return RenderLineChart(spec, lines);
}

}  // namespace gpusched

// Inline SVG line charts for the HTML report: one colored line per series, a
// legend, labeled axes with nice ticks. The SVG carries its own presentation
// attributes (no stylesheet, no ids, no xmlns), so any number of charts can sit
// in one HTML5 page and each renders the same anywhere it is pasted.
#ifndef GPUSCHED_REPORT_SVG_CHART_H_
#define GPUSCHED_REPORT_SVG_CHART_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpusched {

struct ChartPoint {
  double x = 0;
  double y = 0;
};

struct ChartSeries {
  std::string name;                // legend text (escaped when drawn)
  std::vector<ChartPoint> points;  // x ascending
  // Empty, or one half-width per point: a shaded band y +- band[i] (the
  // experiment's standard deviation across seeds).
  std::vector<double> band;
};

struct LineChartSpec {
  std::string title;
  std::string x_label;  // with its unit: "simulated time (h)"
  std::string y_label;
  int width = 660;
  int height = 320;
  std::optional<double> x_min;  // fixed left end (a zoomed chart); else min(0, smallest x)
  std::optional<double> y_min;  // fixed bottom; else min(0, the data's nice floor)
  std::optional<double> y_max;  // fixed top (100 for a percentage); else the data's nice ceiling
  bool integer_y = false;       // counts: no fractional y ticks
  bool step = false;            // hold each value until the next point (a CDF)
  bool markers = false;         // a dot on every drawn point (a handful of points)
  size_t max_points = 2000;     // per series, as drawn (see DownsampleIndices)
};

// The i-th series' color: the ten Tableau colors, which stay distinct for
// color-blind readers better than a rainbow; from the eleventh series on the
// colors repeat and the line is dashed (SeriesDash).
std::string SeriesColor(size_t i);
// "" for the first ten series, a stroke-dasharray value after.
std::string SeriesDash(size_t i);

// The x axis starts at min(0, smallest x) and the y axis at y_min or min(0,
// smallest y); x gets about one tick per 90 px of plot. Values outside the
// axes are clamped to the plot edge.
std::string RenderLineChart(const LineChartSpec& spec, const std::vector<ChartSeries>& series);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_SVG_CHART_H_

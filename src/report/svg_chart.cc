#include "gpusched/report/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpusched/report/chart_axis.h"
#include "gpusched/report/downsample.h"
#include "gpusched/report/fixed_format.h"
#include "gpusched/report/html_escape.h"

namespace gpusched {
namespace {

// Layout, in pixels. The legend wraps onto as many rows as it needs between
// the title and the plot.
constexpr double kMarginLeft = 64;
constexpr double kMarginRight = 20;
constexpr double kMarginBottom = 46;
constexpr double kLegendTop = 38;
constexpr double kLegendRow = 18;
constexpr double kCharWidth = 7;  // average glyph width at 12px, for wrapping the legend
constexpr const char* kFont = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif";

std::string Px(double v) { return FormatFixed(v, 1); }

// Display width in characters: UTF-8 continuation bytes do not count.
size_t TextLength(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

struct LegendItem {
  double x, y;
};

std::vector<LegendItem> LayoutLegend(const std::vector<ChartSeries>& series, double left, double right) {
  std::vector<LegendItem> items;
  double x = left, y = kLegendTop;
  for (const auto& s : series) {
    double w = 28 + kCharWidth * static_cast<double>(TextLength(s.name)) + 18;
    if (x > left && x + w > right) {
      x = left;
      y += kLegendRow;
    }
    items.push_back({x, y});
    x += w;
  }
  return items;
}

double Clamp(double v, double lo, double hi) { return std::isfinite(v) ? std::clamp(v, lo, hi) : lo; }

}  // namespace

std::string SeriesColor(size_t i) {
  static constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return kColors[i % 10];
}

std::string SeriesDash(size_t i) {
  if (i < 10) return "";
  return i < 20 ? "6 3" : "2 2";
}

std::string RenderLineChart(const LineChartSpec& spec, const std::vector<ChartSeries>& series) {
  const double w = spec.width, h = spec.height;
  const double left = kMarginLeft, right = w - kMarginRight;

  std::vector<LegendItem> legend = LayoutLegend(series, left, right);
  double legend_bottom = legend.empty() ? kLegendTop - kLegendRow : legend.back().y;
  const double top = legend_bottom + kLegendRow + 4;
  const double bottom = h - kMarginBottom;

  // Ranges over every finite point (and band edge).
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  bool any = false;
  for (const auto& s : series) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      const ChartPoint& p = s.points[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      double half = i < s.band.size() && std::isfinite(s.band[i]) ? std::abs(s.band[i]) : 0;
      xmin = std::min(xmin, p.x);
      xmax = std::max(xmax, p.x);
      ymin = std::min(ymin, p.y - half);
      ymax = std::max(ymax, p.y + half);
      any = true;
    }
  }
  const int x_ticks = std::max(4, static_cast<int>((right - left) / 90));
  Axis xa = NiceAxis(spec.x_min.value_or(xmin), xmax, x_ticks);
  Axis ya = NiceAxis(spec.y_min.value_or(ymin), spec.y_max.value_or(ymax), 5, spec.integer_y);
  auto sx = [&](double x) { return left + (Clamp(x, xa.lo, xa.hi) - xa.lo) / (xa.hi - xa.lo) * (right - left); };
  auto sy = [&](double y) { return bottom - (Clamp(y, ya.lo, ya.hi) - ya.lo) / (ya.hi - ya.lo) * (bottom - top); };

  std::string o;
  o += fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\" "
      "font-family=\"{3}\" font-size=\"12\">\n",
      spec.width, spec.height, HtmlEscape(spec.title), kFont);
  o += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", spec.width, spec.height);
  o += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"14\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n",
                   Px(left), HtmlEscape(spec.title));

  for (size_t i = 0; i < series.size(); ++i) {
    const LegendItem& it = legend[i];
    std::string dash = SeriesDash(i);
    o += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"3\"{}/>"
        "<text x=\"{}\" y=\"{}\" fill=\"#222222\">{}</text>\n",
        Px(it.x), Px(it.y - 4), Px(it.x + 22), Px(it.y - 4), SeriesColor(i),
        dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"", Px(it.x + 28), Px(it.y), HtmlEscape(series[i].name));
  }

  // Plot frame, grid and tick labels.
  o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#bbbbbb\"/>\n",
                   Px(left), Px(top), Px(right - left), Px(bottom - top));
  for (double t : ya.ticks) {
    double y = sy(t);
    o += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e2e2e2\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#444444\">{}</text>\n",
        Px(left), Px(y), Px(right), Px(y), Px(left - 6), Px(y + 4), TickLabel(ya, t));
  }
  for (double t : xa.ticks) {
    double x = sx(t);
    o += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e2e2e2\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#444444\">{}</text>\n",
        Px(x), Px(top), Px(x), Px(bottom), Px(x), Px(bottom + 16), TickLabel(xa, t));
  }
  o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#222222\">{}</text>\n",
                   Px((left + right) / 2), Px(h - 10), HtmlEscape(spec.x_label));
  double mid = (top + bottom) / 2;
  o += fmt::format(
      "<text x=\"16\" y=\"{0}\" transform=\"rotate(-90 16 {0})\" text-anchor=\"middle\" fill=\"#222222\">{1}</text>\n",
      Px(mid), HtmlEscape(spec.y_label));
  if (!any) {
    o += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#888888\">no data</text>\n",
                     Px((left + right) / 2), Px(mid));
  }

  for (size_t si = 0; si < series.size(); ++si) {
    // Points with a NaN or infinite coordinate are left out (a gap in the
    // data, such as an empty experiment bucket), not drawn at the axis edge.
    ChartSeries s;
    for (size_t i = 0; i < series[si].points.size(); ++i) {
      const ChartPoint& p = series[si].points[i];
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      s.points.push_back(p);
      if (i < series[si].band.size()) s.band.push_back(series[si].band[i]);
    }
    s.name = series[si].name;
    std::vector<size_t> keep;
    {
      // Step lines draw two vertices per point, so thin to half first.
      size_t budget = spec.step ? spec.max_points / 2 : spec.max_points;
      std::vector<double> ys;
      ys.reserve(s.points.size());
      for (const auto& p : s.points) ys.push_back(p.y);
      keep = DownsampleIndices(ys, budget);
    }
    if (keep.empty()) continue;
    const std::string color = SeriesColor(si);

    if (!s.band.empty()) {
      std::string upper, lower;
      for (size_t k : keep) {
        double half = k < s.band.size() && std::isfinite(s.band[k]) ? std::abs(s.band[k]) : 0;
        upper += Px(sx(s.points[k].x)) + "," + Px(sy(s.points[k].y + half)) + " ";
      }
      for (auto it = keep.rbegin(); it != keep.rend(); ++it) {
        double half = *it < s.band.size() && std::isfinite(s.band[*it]) ? std::abs(s.band[*it]) : 0;
        lower += Px(sx(s.points[*it].x)) + "," + Px(sy(s.points[*it].y - half)) + " ";
      }
      std::string pts = upper + lower;
      pts.pop_back();
      o += fmt::format("<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"0.15\" stroke=\"none\"/>\n", pts, color);
    }

    std::string pts;
    for (size_t n = 0; n < keep.size(); ++n) {
      const ChartPoint& p = s.points[keep[n]];
      if (spec.step && n > 0) pts += Px(sx(p.x)) + "," + Px(sy(s.points[keep[n - 1]].y)) + " ";
      pts += Px(sx(p.x)) + "," + Px(sy(p.y)) + " ";
    }
    pts.pop_back();
    std::string dash = SeriesDash(si);
    o += fmt::format(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-linejoin=\"round\"{}>"
        "<title>{}</title></polyline>\n",
        pts, color, dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"", HtmlEscape(s.name));
    if (spec.markers || keep.size() == 1) {  // a lone point draws no line: show it as a dot
      for (size_t k : keep) {
        o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>", Px(sx(s.points[k].x)),
                         Px(sy(s.points[k].y)), color);
      }
      o += "\n";
    }
  }
  o += "</svg>\n";
  return o;
}

}  // namespace gpusched

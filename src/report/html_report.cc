#include "gpusched/report/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpusched/report/chart_axis.h"
#include "gpusched/report/delay_cdf.h"
#include "gpusched/report/fixed_format.h"
#include "gpusched/report/heatmap.h"
#include "gpusched/report/html_escape.h"
#include "gpusched/report/svg_chart.h"

namespace gpusched {
namespace {

// Only generic font families: a named web font would need a download.
constexpr const char* kStyle = R"(body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:#222;background:#fff;margin:24px;max-width:1360px;line-height:1.4}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:18px;margin:32px 0 8px;padding-bottom:4px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:20px 0 6px}
.subtitle{color:#555;margin:0 0 12px}
.howto{font-size:14px;max-width:1100px}
.howto li{margin:2px 0}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.charts svg{border:1px solid #e5e5e5}
table{border-collapse:collapse;font-size:13px}
th,td{border:1px solid #ccc;padding:4px 8px}
th{background:#f0f0f0;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even) td{background:#fafafa}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-1px;margin-right:6px}
.caption{font-size:13px;color:#444;margin:10px 0 4px}
.note{font-size:13px;color:#555}
)";

std::string PolicyName(const SimResult& r) { return r.policy.empty() ? r.summary.policy : r.policy; }

std::string Swatch(size_t i) { return fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>", SeriesColor(i)); }

double MaxTime(const std::vector<SimResult>& runs) {
  double t = 0;
  for (const auto& r : runs) {
    if (std::isfinite(r.summary.end_time)) t = std::max(t, r.summary.end_time);
    for (const auto& s : r.series)
      if (std::isfinite(s.time)) t = std::max(t, s.time);
  }
  return t;
}

std::string HowToRead(const ReportOptions& opts) {
  return fmt::format(
      "<h2>How to read this</h2>\n<ul class=\"howto\">\n"
      "<li>Each policy replays the same workload on the same cluster, and keeps one color throughout the report.</li>\n"
      "<li><b>GPU allocation</b>: the share of the GPU capacity of the nodes present (in thousandths of a GPU) that "
      "is bound to pods. Higher means the cluster is used better.</li>\n"
      "<li><b>Fragmentation</b>: FGD's measure (Weng et al., ATC '23): the share of GPU capacity that is free but "
      "sits where the workload's typical pods cannot use it (too few free GPUs on one node, or slivers of GPUs). "
      "Lower is better.</li>\n"
      "<li><b>Pending pods</b>: pods that have arrived and wait for a node. Pending is not an error; a line that "
      "keeps climbing means the cluster cannot keep up.</li>\n"
      "<li><b>Queueing delay</b>: for each pod that started, the time from its arrival to its first bind. A curve "
      "further up and to the left is better; pods that never started are not in it (the table counts them as "
      "pending).</li>\n"
      "<li><b>Occupancy heatmaps</b>: one cell per node, in input order, left to right and top to bottom; the "
      "color is the node's allocated / total GPUs, grey is a node not in the cluster at that moment. Hover a cell "
      "for its name and numbers.</li>\n"
      "<li>Lines with more than {} samples are thinned for drawing: each stretch keeps its lowest and highest "
      "value, so peaks stay visible. The CSV files hold every sample.</li>\n"
      "</ul>\n",
      opts.max_points);
}

// The largest finite percentile in a column group, to pick its unit.
double MaxPercentile(const std::vector<SimResult>& runs, Percentiles SimSummary::*field) {
  double m = 0;
  for (const auto& r : runs) {
    const Percentiles& p = r.summary.*field;
    if (p.count == 0) continue;
    for (double v : {p.p50, p.p90, p.p99})
      if (std::isfinite(v)) m = std::max(m, v);
  }
  return m;
}

std::string SummaryTable(const std::vector<SimResult>& runs) {
  const DurationUnit qd = ChooseDurationUnit(MaxPercentile(runs, &SimSummary::queueing_delay));
  const DurationUnit jct = ChooseDurationUnit(MaxPercentile(runs, &SimSummary::jct));
  std::string o = fmt::format(
      "<h2>Summary</h2>\n<table>\n<thead><tr><th rowspan=\"2\">policy</th><th rowspan=\"2\">pods</th>"
      "<th rowspan=\"2\">finished</th><th rowspan=\"2\">running</th><th rowspan=\"2\">pending</th>"
      "<th rowspan=\"2\">rejected</th><th rowspan=\"2\">mean GPU<br>alloc %</th>"
      "<th rowspan=\"2\">mean<br>frag %</th><th colspan=\"3\">queueing delay ({})</th>"
      "<th colspan=\"3\">job completion time ({})</th></tr>\n"
      "<tr><th>p50</th><th>p90</th><th>p99</th><th>p50</th><th>p90</th><th>p99</th></tr></thead>\n<tbody>\n",
      qd.name, jct.name);
  // Three cells; a dash when no pod contributed (0 would claim a delay of 0).
  auto cells = [](const Percentiles& p, const DurationUnit& u) {
    if (p.count == 0)
      return std::string("<td class=\"num\">&mdash;</td><td class=\"num\">&mdash;</td><td class=\"num\">&mdash;</td>");
    return fmt::format("<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
                       FormatDuration(p.p50, u), FormatDuration(p.p90, u), FormatDuration(p.p99, u));
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    const SimSummary& s = runs[i].summary;
    o += fmt::format(
        "<tr><td>{}{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "{}{}</tr>\n",
        Swatch(i), HtmlEscape(PolicyName(runs[i])), s.pods, s.finished, s.running, s.pending, s.rejected,
        FormatFixed(s.mean_gpu_alloc_pct, 1), FormatFixed(s.mean_frag_pct, 2), cells(s.queueing_delay, qd),
        cells(s.jct, jct));
  }
  o += "</tbody>\n</table>\n";
  o += "<p class=\"note\">Means are weighted by time. Percentiles are nearest-rank: each is a delay some pod "
       "actually had. Job completion time runs from arrival to finish, over finished pods.</p>\n";
  return o;
}

// One chart of a metric over time, one line per policy.
template <typename Metric>
std::string TimeChart(const std::vector<SimResult>& runs, const TimeScale& ts, const ReportOptions& opts,
                      LineChartSpec spec, Metric metric) {
  spec.x_label = "simulated time (" + ts.unit + ")";
  spec.max_points = opts.max_points;
  std::vector<ChartSeries> lines;
  for (const auto& r : runs) {
    ChartSeries c;
    c.name = PolicyName(r);
    c.points.reserve(r.series.size());
    for (const auto& s : r.series) c.points.push_back({s.time / ts.seconds_per_unit, metric(s)});
    lines.push_back(std::move(c));
  }
  return RenderLineChart(spec, lines);
}

std::string OverTime(const std::vector<SimResult>& runs, const ReportOptions& opts) {
  const TimeScale ts = ChooseTimeScale(MaxTime(runs));
  std::string o = "<h2>Over time</h2>\n<div class=\"charts\">\n";
  LineChartSpec alloc;
  alloc.title = "GPU allocation";
  alloc.y_label = "allocated GPUs (%)";
  alloc.y_max = 100;
  o += TimeChart(runs, ts, opts, alloc, [](const SimSample& s) { return s.gpu_alloc_pct; });
  LineChartSpec frag;
  frag.title = "GPU fragmentation";
  frag.y_label = "fragmented GPUs (% of capacity)";
  o += TimeChart(runs, ts, opts, frag, [](const SimSample& s) { return s.frag_pct; });
  LineChartSpec pending;
  pending.title = "Pending pods";
  pending.y_label = "pending pods";
  pending.integer_y = true;
  o += TimeChart(runs, ts, opts, pending, [](const SimSample& s) { return static_cast<double>(s.pending); });
  o += "</div>\n";
  return o;
}

std::string DelayCdfs(const std::vector<SimResult>& runs, const ReportOptions& opts) {
  std::vector<std::vector<double>> delays;
  double max_delay = 0;
  for (const auto& r : runs) {
    delays.push_back(QueueingDelays(r));
    for (double d : delays.back())
      if (std::isfinite(d)) max_delay = std::max(max_delay, d);
  }
  const TimeScale ts = ChooseTimeScale(max_delay);
  LineChartSpec spec;
  spec.title = "Queueing delay (arrival to first bind), pods that started";
  spec.x_label = "queueing delay (" + ts.unit + ")";
  spec.y_label = "pods started within (%)";
  spec.y_max = 100;
  spec.step = true;
  spec.width = 900;
  spec.height = 360;
  spec.max_points = opts.max_points;
  std::vector<ChartSeries> lines;
  for (size_t i = 0; i < runs.size(); ++i) {
    for (double& d : delays[i]) d /= ts.seconds_per_unit;
    ChartSeries c;
    c.name = fmt::format("{} ({} pods)", PolicyName(runs[i]), delays[i].size());
    c.points = EmpiricalCdf(std::move(delays[i]));
    lines.push_back(std::move(c));
  }
  return "<h2>Queueing delay</h2>\n<div class=\"charts\">\n" + RenderLineChart(spec, lines) + "</div>\n";
}

std::string Experiment(const ReportOptions& opts) {
  if (opts.experiment.empty()) return "";
  // The interesting part is where the cluster fills up; the FGD paper's
  // Fig. 9a shows x from 75%, so a second chart zooms there.
  return "<h2>Experiment</h2>\n<p class=\"note\">Lines are means over repeated runs; the shaded band is one "
         "standard deviation either side.</p>\n<div class=\"charts\">\n" +
         RenderExperimentChart(opts.experiment, opts.experiment_title) +
         RenderExperimentChart(opts.experiment, opts.experiment_title + ", from 75% arrived", 75) + "</div>\n";
}

std::string SnapshotCaption(const NodeSnapshot& snap, const TimeScale& ts, size_t node_count) {
  size_t present = 0;
  int64_t used = 0, total = 0;
  for (size_t i = 0; i < node_count; ++i) {
    int64_t t = i < snap.gpu_total_milli.size() ? snap.gpu_total_milli[i] : 0;
    if (t <= 0) continue;
    ++present;
    total += t;
    used += i < snap.gpu_used_milli.size() ? snap.gpu_used_milli[i] : 0;
  }
  std::string share = total > 0 ? " (" + FormatFixed(100.0 * static_cast<double>(used) / static_cast<double>(total), 1) + "%)" : "";
  return fmt::format("<p class=\"caption\">t = {} {} &middot; {} of {} nodes present &middot; {}/{} GPUs allocated{}</p>\n",
                     FormatFixed(snap.time / ts.seconds_per_unit, ts.unit == "h" ? 2 : 0), ts.unit, present,
                     node_count, FormatGpus(used), FormatGpus(total), share);
}

size_t NodeCount(const SimResult& r) {
  size_t n = r.node_names.size();
  for (const auto& s : r.snapshots) n = std::max({n, s.gpu_total_milli.size(), s.gpu_used_milli.size()});
  return n;
}

std::string Heatmaps(const std::vector<SimResult>& runs, const ReportOptions& opts) {
  std::string o = "<h2>GPU occupancy per node</h2>\n" + RenderOccupancyLegend();
  const TimeScale ts = ChooseTimeScale(MaxTime(runs));
  for (size_t i = 0; i < runs.size(); ++i) {
    const SimResult& r = runs[i];
    o += fmt::format("<h3>{}{}</h3>\n", Swatch(i), HtmlEscape(PolicyName(r)));
    if (r.snapshots.empty()) {
      o += "<p class=\"note\">No snapshots were recorded for this run.</p>\n";
      continue;
    }
    const size_t nodes = std::max<size_t>(1, NodeCount(r));
    size_t allowed = std::max<size_t>(1, opts.max_heatmap_cells / (runs.size() * nodes));
    if (opts.max_snapshots_per_policy > 0) allowed = std::min(allowed, opts.max_snapshots_per_policy);
    std::vector<int64_t> used;
    for (const auto& s : r.snapshots) {
      int64_t u = 0;
      for (int32_t v : s.gpu_used_milli) u += v;
      used.push_back(u);
    }
    std::vector<size_t> shown = PickSnapshots(used, allowed);
    if (shown.size() < r.snapshots.size()) {
      o += fmt::format("<p class=\"note\">Showing {} of {} snapshots (the report keeps the heatmaps to about {} "
                       "cells in all).</p>\n",
                       shown.size(), r.snapshots.size(), opts.max_heatmap_cells);
    }
    for (size_t k : shown) {
      o += SnapshotCaption(r.snapshots[k], ts, NodeCount(r));
      o += RenderNodeHeatmap(r.node_names, r.snapshots[k]);
    }
  }
  return o;
}

}  // namespace

std::vector<size_t> PickSnapshots(const std::vector<int64_t>& used_milli, size_t allowed) {
  const size_t m = used_milli.size();
  std::vector<size_t> out;
  if (m == 0 || allowed == 0) return out;
  if (allowed >= m) {
    for (size_t i = 0; i < m; ++i) out.push_back(i);
    return out;
  }
  if (allowed == 1) {
    // First on ties, so the pick does not depend on anything but the data.
    out.push_back(static_cast<size_t>(std::max_element(used_milli.begin(), used_milli.end()) - used_milli.begin()));
    return out;
  }
  // Evenly spaced, rounded to the nearest index; distinct because m > allowed.
  for (size_t j = 0; j < allowed; ++j) out.push_back((j * (m - 1) + (allowed - 1) / 2) / (allowed - 1));
  return out;
}

std::string RenderHtmlReport(const std::vector<SimResult>& runs, const ReportOptions& opts) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  o += "<title>" + HtmlEscape(opts.title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
  o += "<h1>" + HtmlEscape(opts.title) + "</h1>\n";
  if (!opts.subtitle.empty()) o += "<p class=\"subtitle\">" + HtmlEscape(opts.subtitle) + "</p>\n";
  if (runs.empty()) {
    if (opts.experiment.empty()) o += "<p>No simulation runs to report.</p>\n";
    o += Experiment(opts);
  } else {
    o += HowToRead(opts);
    o += SummaryTable(runs);
    o += OverTime(runs, opts);
    o += DelayCdfs(runs, opts);
    o += Experiment(opts);
    o += Heatmaps(runs, opts);
  }
  o += "<p class=\"note\">Generated by gpusched from simulated data; the same input gives the same file.</p>\n";
  o += "</body>\n</html>\n";
  return o;
}

}  // namespace gpusched

#include "gpusched/report/heatmap.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "gpusched/report/fixed_format.h"
#include "gpusched/report/html_escape.h"

namespace gpusched {
namespace {

constexpr const char* kFont = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif";

struct Rgb {
  int r, g, b;
};

// ColorBrewer YlOrRd at 0, 25, 50, 75, 100%: light for idle, dark for full,
// and far enough from the absent grey to tell the two apart.
constexpr std::array<Rgb, 5> kStops = {{{0xff, 0xff, 0xcc}, {0xfe, 0xd9, 0x76}, {0xfd, 0x8d, 0x3c},
                                        {0xe3, 0x1a, 0x1c}, {0x80, 0x00, 0x26}}};

}  // namespace

std::string OccupancyColor(double fraction) {
  if (!std::isfinite(fraction)) fraction = 0;
  fraction = std::clamp(fraction, 0.0, 1.0);
  double pos = fraction * static_cast<double>(kStops.size() - 1);
  size_t i = std::min(static_cast<size_t>(pos), kStops.size() - 2);
  double t = pos - static_cast<double>(i);
  auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
  const Rgb& a = kStops[i];
  const Rgb& b = kStops[i + 1];
  return fmt::format("#{:02x}{:02x}{:02x}", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

int HeatmapCellSize(size_t nodes) {
  if (nodes <= 64) return 28;
  if (nodes <= 400) return 16;
  if (nodes <= 2500) return 10;
  return 6;
}

std::string RenderNodeHeatmap(const std::vector<std::string>& node_names, const NodeSnapshot& snapshot,
                              int max_width) {
  const size_t n = std::max({node_names.size(), snapshot.gpu_total_milli.size(), snapshot.gpu_used_milli.size()});
  const int cell = HeatmapCellSize(n);
  const size_t cols = std::max<size_t>(1, std::min<size_t>(n, static_cast<size_t>(std::max(cell, max_width) / cell)));
  const size_t rows = n == 0 ? 1 : (n + cols - 1) / cols;
  const size_t width = std::max<size_t>(cols * cell, 120);
  const size_t height = rows * cell;
  // Cells leave a 1px gap (2px for big cells) so neighbouring nodes of the
  // same color stay distinguishable.
  const int side = cell - (cell >= 16 ? 2 : 1);

  std::string o = fmt::format(
      "<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"GPU occupancy per node\" "
      "font-family=\"{2}\" font-size=\"12\">\n",
      width, height, kFont);
  if (n == 0) o += "<text x=\"0\" y=\"12\" fill=\"#888888\">no nodes</text>\n";
  for (size_t i = 0; i < n; ++i) {
    int64_t total = i < snapshot.gpu_total_milli.size() ? snapshot.gpu_total_milli[i] : 0;
    int64_t used = i < snapshot.gpu_used_milli.size() ? snapshot.gpu_used_milli[i] : 0;
    std::string name = i < node_names.size() ? node_names[i] : "node " + std::to_string(i);
    std::string color, label;
    if (total <= 0) {
      color = kAbsentNodeColor;
      label = HtmlEscape(name) + ": absent";
    } else {
      color = OccupancyColor(static_cast<double>(used) / static_cast<double>(total));
      label = HtmlEscape(name) + ": " + FormatGpus(used) + "/" + FormatGpus(total) + " GPUs";
    }
    // Kept terse: at 10,000 nodes every byte here is 10 kB of report.
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>",
                     (i % cols) * cell, (i / cols) * cell, side, side, color, label);
    if (i % cols == cols - 1 || i + 1 == n) o += "\n";
  }
  o += "</svg>\n";
  return o;
}

std::string RenderOccupancyLegend() {
  constexpr int kSwatch = 36;
  constexpr int kAbsentX = 11 * kSwatch + 24;
  std::string o = fmt::format(
      "<svg width=\"{}\" height=\"40\" viewBox=\"0 0 {} 40\" role=\"img\" aria-label=\"occupancy color scale\" "
      "font-family=\"{}\" font-size=\"11\">\n",
      kAbsentX + 90, kAbsentX + 90, kFont);
  for (int k = 0; k <= 10; ++k) {
    o += fmt::format(
        "<rect x=\"{0}\" y=\"0\" width=\"{1}\" height=\"16\" fill=\"{2}\" stroke=\"#999999\" stroke-width=\"0.5\"/>"
        "<text x=\"{3}\" y=\"30\" text-anchor=\"middle\" fill=\"#444444\">{4}%</text>\n",
        k * kSwatch, kSwatch, OccupancyColor(k / 10.0), k * kSwatch + kSwatch / 2, k * 10);
  }
  o += fmt::format(
      "<rect x=\"{0}\" y=\"0\" width=\"{1}\" height=\"16\" fill=\"{2}\" stroke=\"#999999\" stroke-width=\"0.5\"/>"
      "<text x=\"{3}\" y=\"30\" text-anchor=\"middle\" fill=\"#444444\">absent</text>\n",
      kAbsentX, kSwatch, kAbsentNodeColor, kAbsentX + kSwatch / 2);
  o += "</svg>\n";
  return o;
}

}  // namespace gpusched

#include "gpusched/report/svg_chart.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpusched {
namespace {

// Layout of a 660 x 320 chart with one legend row: the plot spans x 64..640
// and y 60..274, so the coordinates below are exact.
LineChartSpec PercentSpec() {
  LineChartSpec spec;
  spec.title = "GPU allocation";
  spec.x_label = "simulated time (s)";
  spec.y_label = "allocated GPUs (%)";
  spec.y_max = 100;
  return spec;
}

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

TEST(SvgChartTest, Fragments) {
  ChartSeries three{"first-fit", {{0, 0}, {50, 50}, {100, 100}}, {}};
  ChartSeries cdf{"cdf", {{0, 0}, {0, 50}, {30, 100}}, {}};
  LineChartSpec step = PercentSpec();
  step.step = true;
  LineChartSpec wrapped = PercentSpec();
  const std::string long_name(40, 'n');
  LineChartSpec pods = PercentSpec();
  pods.y_max.reset();
  pods.integer_y = true;

  struct Case {
    std::string name;
    LineChartSpec spec;
    std::vector<ChartSeries> series;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {"three samples",
       PercentSpec(),
       {three},
       {"<svg width=\"660\" height=\"320\" viewBox=\"0 0 660 320\" role=\"img\" aria-label=\"GPU allocation\"",
        "<polyline points=\"64.0,274.0 352.0,167.0 640.0,60.0\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" "
        "stroke-linejoin=\"round\"><title>first-fit</title></polyline>",
        // y ticks every 20, right-aligned left of the plot
        "<text x=\"58.0\" y=\"278.0\" text-anchor=\"end\" fill=\"#444444\">0</text>",
        "<text x=\"58.0\" y=\"192.4\" text-anchor=\"end\" fill=\"#444444\">40</text>",
        "<text x=\"58.0\" y=\"64.0\" text-anchor=\"end\" fill=\"#444444\">100</text>",
        // x ticks every 20 s, under the plot
        "<text x=\"640.0\" y=\"290.0\" text-anchor=\"middle\" fill=\"#444444\">100</text>",
        "<text x=\"352.0\" y=\"310.0\" text-anchor=\"middle\" fill=\"#222222\">simulated time (s)</text>",
        "transform=\"rotate(-90 16 167.0)\" text-anchor=\"middle\" fill=\"#222222\">allocated GPUs (%)</text>",
        // legend: swatch then name
        "<line x1=\"64.0\" y1=\"34.0\" x2=\"86.0\" y2=\"34.0\" stroke=\"#1f77b4\" stroke-width=\"3\"/>"
        "<text x=\"92.0\" y=\"38.0\" fill=\"#222222\">first-fit</text>",
        "<rect x=\"64.0\" y=\"60.0\" width=\"576.0\" height=\"214.0\" fill=\"#fafafa\" stroke=\"#bbbbbb\"/>"}},
      {"step (a CDF)", step, {cdf}, {"<polyline points=\"64.0,274.0 64.0,274.0 64.0,167.0 640.0,167.0 640.0,60.0\""}},
      {"escaped names",
       PercentSpec(),
       {{"a<&>b", {{0, 1}}, {}}},
       {"<text x=\"92.0\" y=\"38.0\" fill=\"#222222\">a&lt;&amp;&gt;b</text>", "<title>a&lt;&amp;&gt;b</title>",
        // one sample: a dot, since a one-vertex polyline draws nothing
        "<circle cx=\"64.0\" cy=\"271.9\" r=\"3\" fill=\"#1f77b4\"/>"}},
      {"legend wraps, plot moves down",
       wrapped,
       {{long_name, {}, {}}, {long_name, {}, {}}, {long_name, {}, {}}},
       {"<text x=\"92.0\" y=\"38.0\"", "<text x=\"92.0\" y=\"56.0\"", "<text x=\"92.0\" y=\"74.0\"",
        "<rect x=\"64.0\" y=\"96.0\" width=\"576.0\" height=\"178.0\"", "no data</text>"}},
      {"pending pods: integer ticks",
       pods,
       {{"p", {{0, 0}, {10, 1}}, {}}},
       {">0</text>", ">1</text>", "<polyline points=\"64.0,274.0 640.0,60.0\""}},
      {"eleventh series is dashed",
       PercentSpec(),
       std::vector<ChartSeries>(11, three),
       {"stroke=\"#1f77b4\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-dasharray=\"6 3\">"}},
  };
  for (const auto& c : cases) {
    std::string svg = RenderLineChart(c.spec, c.series);
    for (const auto& w : c.want) EXPECT_NE(svg.find(w), std::string::npos) << c.name << ": " << w << "\n" << svg;
  }
}

TEST(SvgChartTest, IntegerAxisHasNoFractionalTicks) {
  LineChartSpec spec = PercentSpec();
  spec.y_max.reset();
  spec.integer_y = true;
  std::string svg = RenderLineChart(spec, {{"p", {{0, 0}, {10, 1}}, {}}});
  EXPECT_EQ(svg.find(">0.2</text>"), std::string::npos) << svg;
}

TEST(SvgChartTest, DownsamplesToMaxPoints) {
  ChartSeries s{"many", {}, {}};
  for (int i = 0; i < 10000; ++i) s.points.push_back({static_cast<double>(i), static_cast<double>(i % 97)});
  for (bool step : {false, true}) {
    LineChartSpec spec = PercentSpec();
    spec.step = step;
    std::string svg = RenderLineChart(spec, {s});
    size_t begin = svg.find("<polyline points=\"");
    ASSERT_NE(begin, std::string::npos);
    size_t end = svg.find('"', begin + 18);
    std::string pts = svg.substr(begin + 18, end - begin - 18);
    size_t vertices = static_cast<size_t>(std::count(pts.begin(), pts.end(), ' ')) + 1;
    EXPECT_LE(vertices, 2000u) << step;
    EXPECT_GT(vertices, 1000u) << step;
  }
}

TEST(SvgChartTest, Colors) {
  EXPECT_EQ(SeriesColor(0), "#1f77b4");
  EXPECT_EQ(SeriesColor(1), "#ff7f0e");
  EXPECT_EQ(SeriesColor(10), "#1f77b4");
  EXPECT_EQ(SeriesDash(9), "");
  EXPECT_EQ(SeriesDash(10), "6 3");
  EXPECT_EQ(SeriesDash(20), "2 2");
}

TEST(SvgChartTest, SelfContained) {
  std::string svg = RenderLineChart(PercentSpec(), {{"x", {{0, 1}, {2, 3}}, {1, 1}}});
  EXPECT_EQ(Count(svg, "http"), 0u);
  EXPECT_EQ(Count(svg, " id="), 0u);  // ids would collide between charts on one page
  EXPECT_EQ(Count(svg, "<polygon"), 1u);
}

}  // namespace
}  // namespace gpusched

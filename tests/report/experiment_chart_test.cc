#include "gpusched/report/experiment_chart.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gpusched {
namespace {

// 900 x 420 with one legend row: plot x 64..880, y 60..374; y axis 0..100.
TEST(ExperimentChartTest, LinesBandsAndMarkers) {
  std::vector<ExperimentSeries> data = {
      {"fgd", {{0, 10, 20}, {50, 20, 5}, {100, 30, 0}}},
      {"best-fit", {{0, 10, 0}, {100, 20, 0}}},
  };
  std::string svg = RenderExperimentChart(data);
  const char* want[] = {
      "aria-label=\"Unallocated GPUs as workload arrives\"",
      "<polyline points=\"64.0,342.6 472.0,311.2 880.0,279.8\" fill=\"none\" stroke=\"#1f77b4\"",
      // mean +- sd: upper edge left to right, lower edge back; 10 - 20 is
      // clipped at 0% (374.0) instead of stretching the axis below 0
      "<polygon points=\"64.0,279.8 472.0,295.5 880.0,279.8 880.0,279.8 472.0,326.9 64.0,374.0\" fill=\"#1f77b4\" "
      "fill-opacity=\"0.15\"",
      "<polyline points=\"64.0,342.6 880.0,311.2\" fill=\"none\" stroke=\"#ff7f0e\"",
      "<circle cx=\"472.0\" cy=\"311.2\" r=\"3\" fill=\"#1f77b4\"/>",
      ">arrived GPU requests (% of cluster GPU capacity)</text>",
      ">unallocated GPUs (%)</text>",
      "<text x=\"58.0\" y=\"64.0\" text-anchor=\"end\" fill=\"#444444\">100</text>",
      "<text x=\"880.0\" y=\"390.0\" text-anchor=\"middle\" fill=\"#444444\">100</text>",
  };
  for (const char* w : want) EXPECT_NE(svg.find(w), std::string::npos) << w << "\n" << svg;
  // No sd anywhere in a series: no band for it.
  size_t polygons = 0;
  for (size_t p = svg.find("<polygon"); p != std::string::npos; p = svg.find("<polygon", p + 1)) ++polygons;
  EXPECT_EQ(polygons, 1u);
}

TEST(ExperimentChartTest, SkipsNaNPoints) {
  // An empty bucket of the experiment (NaN) leaves its point out of the line.
  std::string svg = RenderExperimentChart({{"fgd", {{0, 10, 0}, {50, std::nan(""), 0}, {100, 20, 0}}}});
  EXPECT_NE(svg.find("<polyline points=\"64.0,342.6 880.0,311.2\""), std::string::npos) << svg;
}

TEST(ExperimentChartTest, ZoomStartsTheXAxisAndFitsY) {
  // From x = 80: the point at 0 is dropped, the x axis starts at 80 (left
  // edge, 64.0) and ends at 100 (880.0), and y fits 0..20 instead of 0..100.
  std::string svg = RenderExperimentChart({{"fgd", {{0, 90, 0}, {80, 10, 0}, {100, 20, 0}}}}, "zoom", 80);
  EXPECT_NE(svg.find("<polyline points=\"64.0,217.0 880.0,60.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("<text x=\"64.0\" y=\"390.0\" text-anchor=\"middle\" fill=\"#444444\">80</text>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("<text x=\"58.0\" y=\"64.0\" text-anchor=\"end\" fill=\"#444444\">20</text>"), std::string::npos)
      << svg;
}

TEST(ExperimentChartTest, TitleIsEscaped) {
  std::string svg = RenderExperimentChart({}, "a<b");
  EXPECT_NE(svg.find(">a&lt;b</text>"), std::string::npos);
  EXPECT_NE(svg.find("no data"), std::string::npos);
}

}  // namespace
}  // namespace gpusched

#include "gpusched/report/heatmap.h"

#include <gtest/gtest.h>

#include "sim_fixture.h"

namespace gpusched {
namespace {

TEST(HeatmapTest, OccupancyColor) {
  struct Case {
    double fraction;
    const char* want;
  };
  const Case cases[] = {
      {0, "#ffffcc"},    {0.25, "#fed976"}, {0.5, "#fd8d3c"}, {0.75, "#e31a1c"}, {1, "#800026"},
      {0.375, "#feb359"},  // halfway between the 25% and 50% stops
      {-1, "#ffffcc"},   {2, "#800026"},    // clamped
  };
  for (const auto& c : cases) EXPECT_EQ(OccupancyColor(c.fraction), c.want) << c.fraction;
}

TEST(HeatmapTest, CellSize) {
  struct Case {
    size_t nodes;
    int want;
  };
  const Case cases[] = {{1, 28}, {64, 28}, {65, 16}, {400, 16}, {1213, 10}, {2500, 10}, {10000, 6}};
  for (const auto& c : cases) EXPECT_EQ(HeatmapCellSize(c.nodes), c.want) << c.nodes;
}

TEST(HeatmapTest, Cells) {
  SimResult r = testing::TinyRun();
  std::string svg = RenderNodeHeatmap(r.node_names, r.snapshots[0]);
  const char* want[] = {
      // three nodes of 28 px in one row; the minimum width keeps the SVG legible
      "<svg width=\"120\" height=\"28\" viewBox=\"0 0 120 28\"",
      "<rect x=\"0\" y=\"0\" width=\"26\" height=\"26\" fill=\"#fd8d3c\"><title>gpu-node-1: 2/4 GPUs</title></rect>",
      "<rect x=\"28\" y=\"0\" width=\"26\" height=\"26\" fill=\"#feb359\"><title>gpu-node-2: 1.5/4 GPUs</title></rect>",
      "<rect x=\"56\" y=\"0\" width=\"26\" height=\"26\" fill=\"#c8c8c8\"><title>gpu-node-3: absent</title></rect>\n",
  };
  for (const char* w : want) EXPECT_NE(svg.find(w), std::string::npos) << w << "\n" << svg;
}

TEST(HeatmapTest, EscapesNamesAndFillsMissing) {
  NodeSnapshot snap{.time = 0, .gpu_used_milli = {1000, 0}, .gpu_total_milli = {1000, 2000}};
  std::string svg = RenderNodeHeatmap({"<&>"}, snap);
  EXPECT_NE(svg.find("<title>&lt;&amp;&gt;: 1/1 GPUs</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("fill=\"#800026\""), std::string::npos);
  EXPECT_NE(svg.find("<title>node 1: 0/2 GPUs</title>"), std::string::npos) << svg;
}

TEST(HeatmapTest, WrapsRows) {
  // 100 nodes of 16 px in 160 px: 10 per row, 10 rows.
  std::vector<std::string> names;
  NodeSnapshot snap;
  for (int i = 0; i < 100; ++i) {
    names.push_back("n" + std::to_string(i));
    snap.gpu_used_milli.push_back(0);
    snap.gpu_total_milli.push_back(8000);
  }
  std::string svg = RenderNodeHeatmap(names, snap, 160);
  EXPECT_NE(svg.find("<svg width=\"160\" height=\"160\""), std::string::npos);
  EXPECT_NE(svg.find("<rect x=\"144\" y=\"144\" width=\"14\" height=\"14\" fill=\"#ffffcc\"><title>n99: 0/8 GPUs"),
            std::string::npos)
      << svg;
}

TEST(HeatmapTest, TenThousandNodesStaySmall) {
  std::vector<std::string> names;
  NodeSnapshot snap;
  for (int i = 0; i < 10000; ++i) {
    names.push_back("node-" + std::to_string(10000 + i));
    snap.gpu_used_milli.push_back((i * 37) % 8001);
    snap.gpu_total_milli.push_back(i % 50 == 0 ? 0 : 8000);
  }
  std::string svg = RenderNodeHeatmap(names, snap);
  EXPECT_LT(svg.size(), 1'100'000u);
  EXPECT_NE(svg.find("<svg width=\"1200\" height=\"300\""), std::string::npos);  // 200 x 50 cells of 6 px
}

TEST(HeatmapTest, Legend) {
  std::string svg = RenderOccupancyLegend();
  EXPECT_NE(svg.find("fill=\"#fd8d3c\" stroke=\"#999999\" stroke-width=\"0.5\"/><text x=\"198\" y=\"30\" "
                     "text-anchor=\"middle\" fill=\"#444444\">50%</text>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">absent</text>"), std::string::npos);
}

}  // namespace
}  // namespace gpusched

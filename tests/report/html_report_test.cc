#include "gpusched/report/html_report.h"

#include <gtest/gtest.h>

#include "sim_fixture.h"

namespace gpusched {
namespace {

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

std::vector<SimResult> TwoRuns() { return {testing::TinyRun("first-fit"), testing::TinyRun("a<&>b")}; }

TEST(HtmlReportTest, Fragments) {
  ReportOptions opts;
  opts.subtitle = "tiny <cluster>";
  std::string html = RenderHtmlReport(TwoRuns(), opts);
  const char* want[] = {
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
      "<title>gpusched simulation report</title>",
      "<p class=\"subtitle\">tiny &lt;cluster&gt;</p>",
      "<h2>How to read this</h2>",
      // allocation over time: the same three samples for both policies, in their colors
      "<polyline points=\"64.0,274.0 352.0,167.0 640.0,60.0\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" "
      "stroke-linejoin=\"round\"><title>first-fit</title></polyline>",
      "<polyline points=\"64.0,274.0 352.0,167.0 640.0,60.0\" fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"2\" "
      "stroke-linejoin=\"round\"><title>a&lt;&amp;&gt;b</title></polyline>",
      ">simulated time (s)</text>",
      ">GPU fragmentation</text>",
      ">Pending pods</text>",
      // the CDF of delays 0 and 30 s, as steps; 900 x 360: plot x 64..880, y 60..314
      "<polyline points=\"64.0,314.0 64.0,314.0 64.0,187.0 880.0,187.0 880.0,60.0\"",
      "<title>first-fit (2 pods)</title>",
      // heatmap of the one snapshot
      "<p class=\"caption\">t = 50 s &middot; 2 of 3 nodes present &middot; 3.5/8 GPUs allocated (43.8%)</p>",
      "<rect x=\"0\" y=\"0\" width=\"26\" height=\"26\" fill=\"#fd8d3c\"><title>gpu-node-1: 2/4 GPUs</title></rect>",
      // summary row
      "<tr><td><span class=\"swatch\" style=\"background:#ff7f0e\"></span>a&lt;&amp;&gt;b</td><td class=\"num\">4</td>"
      "<td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">1</td>"
      "<td class=\"num\">50.0</td><td class=\"num\">6.25</td><td class=\"num\">0.0</td>"
      "<td class=\"num\">30.0</td><td class=\"num\">30.0</td><td class=\"num\">100.0</td>"
      "<td class=\"num\">100.0</td><td class=\"num\">100.0</td></tr>",
      "<th colspan=\"3\">queueing delay (s)</th><th colspan=\"3\">job completion time (s)</th>",
      "</body>\n</html>\n",
  };
  for (const char* w : want) EXPECT_NE(html.find(w), std::string::npos) << w;
  EXPECT_EQ(html.find("a<&>b"), std::string::npos);
  EXPECT_EQ(Count(html, "<svg"), 7u);  // 3 over time, the CDF, the color scale, a heatmap per policy
}

TEST(HtmlReportTest, DeterministicAndSelfContained) {
  ReportOptions opts;
  opts.experiment = {{"fgd", {{0, 10, 1}, {50, 20, 2}}}};
  std::string a = RenderHtmlReport(TwoRuns(), opts);
  std::string b = RenderHtmlReport(TwoRuns(), opts);
  EXPECT_EQ(a, b);
  for (const char* banned : {"http://", "https://", "<script", "src=", "href=", "url(", "@import", "xmlns", "<link"})
    EXPECT_EQ(a.find(banned), std::string::npos) << banned;
  EXPECT_NE(a.find("<h2>Experiment</h2>"), std::string::npos);
  EXPECT_EQ(RenderHtmlReport(TwoRuns(), ReportOptions{}).find("<h2>Experiment</h2>"), std::string::npos);
}

TEST(HtmlReportTest, TableUnitsPerColumnGroup) {
  std::vector<SimResult> runs = {testing::TinyRun("short"), testing::TinyRun("long")};
  runs[1].summary.queueing_delay.p99 = 600;  // minutes for the whole queueing-delay group
  runs[1].summary.jct = {.count = 0};        // no finished pod: dashes, and the unit follows the other row
  std::string html = RenderHtmlReport(runs, ReportOptions{});
  const char* want[] = {
      "<th colspan=\"3\">queueing delay (min)</th><th colspan=\"3\">job completion time (s)</th>",
      ">short</td><td class=\"num\">4</td><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">1</td>"
      "<td class=\"num\">1</td><td class=\"num\">50.0</td><td class=\"num\">6.25</td><td class=\"num\">0.0</td>"
      "<td class=\"num\">0.5</td><td class=\"num\">0.5</td><td class=\"num\">100.0</td>",
      "<td class=\"num\">10.0</td><td class=\"num\">&mdash;</td><td class=\"num\">&mdash;</td>"
      "<td class=\"num\">&mdash;</td></tr>",
  };
  for (const char* w : want) EXPECT_NE(html.find(w), std::string::npos) << w;
}

TEST(HtmlReportTest, NoRuns) {
  std::string html = RenderHtmlReport({}, ReportOptions{});
  EXPECT_NE(html.find("<p>No simulation runs to report.</p>"), std::string::npos);
}

TEST(HtmlReportTest, PickSnapshots) {
  struct Case {
    std::vector<int64_t> used;
    size_t allowed;
    std::vector<size_t> want;
  };
  const Case cases[] = {
      {{}, 3, {}},
      {{5, 5, 5}, 3, {0, 1, 2}},
      {{5, 5, 5}, 10, {0, 1, 2}},
      {std::vector<int64_t>(10, 0), 3, {0, 5, 9}},
      {std::vector<int64_t>(10, 0), 4, {0, 3, 6, 9}},
      {{1, 7, 3, 7}, 1, {1}},  // the busiest, first on ties
      {{1, 2}, 0, {}},
  };
  for (const auto& c : cases) EXPECT_EQ(PickSnapshots(c.used, c.allowed), c.want) << c.allowed;
}

// A cluster the size of the Alibaba trace's (1,213 nodes) and one of 10,000,
// with thousands of samples: the file stays a few MB.
TEST(HtmlReportTest, LargeClustersStaySmall) {
  struct Case {
    size_t nodes;
    size_t snapshots;
    size_t max_bytes;
  };
  const Case cases[] = {{1213, 8, 5'000'000}, {10000, 10, 5'000'000}};
  for (const auto& c : cases) {
    std::vector<SimResult> runs;
    for (const char* policy : {"first-fit", "best-fit", "kube-default"}) {
      SimResult r = testing::TinyRun(policy);
      r.node_names.clear();
      for (size_t i = 0; i < c.nodes; ++i) r.node_names.push_back("node-" + std::to_string(i));
      r.series.clear();
      for (int i = 0; i < 20000; ++i) {
        double a = (i * 7919) % 1000 / 10.0;
        r.series.push_back({.time = i * 30.0, .gpu_alloc_pct = a, .gpu_unalloc_pct = 100 - a, .frag_pct = a / 9,
                            .pending = (i * 31) % 400});
      }
      r.snapshots.clear();
      for (size_t s = 0; s < c.snapshots; ++s) {
        NodeSnapshot snap{.time = s * 3600.0};
        for (size_t i = 0; i < c.nodes; ++i) {
          snap.gpu_used_milli.push_back(static_cast<int32_t>((i * 1000 + s * 500) % 8001));
          snap.gpu_total_milli.push_back(8000);
        }
        r.snapshots.push_back(std::move(snap));
      }
      runs.push_back(std::move(r));
    }
    std::string html = RenderHtmlReport(runs, ReportOptions{});
    EXPECT_LT(html.size(), c.max_bytes) << c.nodes;
    EXPECT_NE(html.find(">simulated time (h)</text>"), std::string::npos);
    // every polyline within the budget
    for (size_t p = html.find("<polyline points=\""); p != std::string::npos;
         p = html.find("<polyline points=\"", p + 1)) {
      size_t end = html.find('"', p + 18);
      size_t vertices = 1;
      for (size_t i = p + 18; i < end; ++i) vertices += html[i] == ' ';
      EXPECT_LE(vertices, 2000u);
    }
  }
}

}  // namespace
}  // namespace gpusched

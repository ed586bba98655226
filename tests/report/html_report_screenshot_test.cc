// Renders a report in headless Chromium through scripts/screenshot-report.sh
// and checks a real image came out. scripts/test.sh installs Chromium
// (scripts/setup.sh --tests); a bare ctest run without it skips, saying so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gpusched/report/html_report.h"
#include "sim_fixture.h"

namespace gpusched {
namespace {

// The browsers scripts/screenshot-report.sh looks for, in its order.
bool HaveChromium() {
  return std::system("{ command -v chromium || command -v chromium-browser || command -v google-chrome; }"
                     " >/dev/null 2>&1") == 0;
}

TEST(ReportScreenshotTest, ChromiumRendersTheReport) {
  if (!HaveChromium())
    GTEST_SKIP() << "no chromium, chromium-browser or google-chrome (bash scripts/setup.sh --tests installs chromium)";
  const std::string dir = ::testing::TempDir() + "/gpusched-shot";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/report.html");
    ReportOptions opts;
    opts.title = "screenshot test";
    f << RenderHtmlReport({testing::TinyRun("first-fit"), testing::TinyRun("fgd")}, opts);
  }
  std::filesystem::remove(dir + "/report.png");
  const std::string cmd = "bash " + std::string(GPUSCHED_SOURCE_DIR) + "/scripts/screenshot-report.sh " + dir +
                          "/report.html " + dir + "/report.png 1000x1400 >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream png(dir + "/report.png", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(png)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 20000u);  // a blank page compresses to a few KB; charts do not
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

}  // namespace
}  // namespace gpusched

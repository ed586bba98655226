#include "gpusched/cli/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace gpusched {
namespace {

TEST(ProgressBarTest, DrawsEachPercentOnceAndErasesItself) {
  std::ostringstream err;
  {
    ProgressBar bar(err, "sim", true);
    bar.Update(0.5);
    bar.Update(0.501);  // same percent: not redrawn
    bar.Update(1.0);
  }
  const std::string half = std::string(15, '#') + std::string(15, ' ');
  EXPECT_EQ(err.str(), "\rsim [" + half + "] 50%\rsim [" + std::string(30, '#') + "] 100%\r" +
                           std::string(43, ' ') + "\r");
}

TEST(ProgressBarTest, QuietWhenNotATerminal) {
  std::ostringstream err;
  ProgressBar bar(err, "sim", false);
  bar.Update(0.3);
  bar.Done();
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace gpusched

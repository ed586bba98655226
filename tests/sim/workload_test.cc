#include "gpusched/sim/workload.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace gpusched {
namespace {

TEST(SourceFileTest, CopiesShareOneName) {
  const SourceFile f(std::string("traces/openb_pod_list_default.csv"));
  const SourceFile copy = f;
  EXPECT_EQ(&copy.str(), &f.str());
  EXPECT_EQ(copy, "traces/openb_pod_list_default.csv");
}

TEST(SourceFileTest, ReadsLikeAString) {
  struct Case {
    const char* name;
    SourceFile file;
    std::string text;
  };
  const Case cases[] = {
      {"default", SourceFile(), ""},
      {"from a string", SourceFile(std::string("w.yaml")), "w.yaml"},
      {"from a literal", SourceFile("t.csv"), "t.csv"},
      {"empty", SourceFile(""), ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.file.str(), c.text);
    EXPECT_EQ(c.file.empty(), c.text.empty());
    EXPECT_TRUE(c.file == c.text);
    const std::string& s = c.file;  // converts where a std::string is expected
    EXPECT_EQ(s, c.text);
    std::ostringstream os;
    os << c.file;
    EXPECT_EQ(os.str(), c.text);
  }
}

TEST(SourceFileTest, WorkloadPodKeepsItsFile) {
  WorkloadPod wp;
  EXPECT_EQ(wp.file, "");
  wp.file = std::string("pods.csv");
  WorkloadPod copy = wp;
  EXPECT_EQ(copy.file, "pods.csv");
  EXPECT_EQ(&copy.file.str(), &wp.file.str());
}

}  // namespace
}  // namespace gpusched

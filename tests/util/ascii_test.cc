#include "gpusched/util/ascii.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(AsciiLowerTest, Table) {
  struct Case {
    std::string in, want;
  };
  const Case cases[] = {
      {"", ""},
      {"PyTorchJob", "pytorchjob"},
      {"Launcher", "launcher"},
      {"worker-0_A.Z@[`", "worker-0_a.z@[`"},  // only A-Z fold; neighbours of the ranges stay
      {"\xC3\x84pfel", "\xC3\x84pfel"},        // bytes above 127 are kept
  };
  for (const Case& c : cases) EXPECT_EQ(AsciiLower(c.in), c.want) << c.in;
}

}  // namespace
}  // namespace gpusched

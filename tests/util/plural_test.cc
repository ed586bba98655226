#include "gpusched/util/plural.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(PluralTest, Table) {
  struct Case {
    std::string got, want;
  } cases[] = {
      {Plural(0, "pod"), "0 pods"},
      {Plural(1, "pod"), "1 pod"},
      {Plural(2, "node"), "2 nodes"},
      {Plural(-1, "GPU"), "-1 GPUs"},
      {Plural(1, "DeviceClass", "DeviceClasses"), "1 DeviceClass"},
      {Plural(3, "DeviceClass", "DeviceClasses"), "3 DeviceClasses"},
  };
  for (const auto& c : cases) EXPECT_EQ(c.got, c.want);
}

}  // namespace
}  // namespace gpusched

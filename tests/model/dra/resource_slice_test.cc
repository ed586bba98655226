// Tests for SplitQualifiedName (model/dra/resource_slice.cc), which follows
// parseQualifiedName in k8s.io/dynamic-resource-allocation/cel/compile.go.
#include "gpusched/model/dra/resource_slice.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

TEST(DraResourceSliceTest, SplitQualifiedName) {
  struct Case {
    std::string name, driver, domain, id;
  };
  const std::vector<Case> cases = {
      {"gpu.nvidia.com/type", "gpu.nvidia.com", "gpu.nvidia.com", "type"},
      {"type", "gpu.nvidia.com", "gpu.nvidia.com", "type"},
      {"resource.kubernetes.io/pcieRoot", "gpu.nvidia.com", "resource.kubernetes.io", "pcieRoot"},
      {"a/b/c", "d", "a", "b/c"},  // the first '/' splits
      {"/x", "d", "", "x"},
      {"x/", "d", "x", ""},
      {"", "d", "d", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    QualifiedAttributeName q = SplitQualifiedName(c.name, c.driver);
    EXPECT_EQ(q.domain, c.domain);
    EXPECT_EQ(q.id, c.id);
  }
}

}  // namespace
}  // namespace gpusched

// ChainTraits::Of (src/sched/framework/chain_traits.cc): a chain is declared
// only when every filter is; it checks fit, nvidia.com/gpu and devices as
// its filters declare.
#include "gpusched/sched/framework/chain_traits.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/plugins/noderesources/fit.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched {
// Named, not anonymous: a unity build puts several test files in one unit.
namespace chain_traits_test {

// A filter that declares nothing (FilterTraits{}).
class Undeclared : public FilterPlugin {
 public:
  std::string_view Name() const override { return "Undeclared"; }
  bool Check(const PodInfo&, const Node&, const NodeState&, FilterVerdict*) const override { return true; }
};

TEST(ChainTraitsTest, FromTheFiltersDeclarations) {
  using Chain = std::vector<std::unique_ptr<FilterPlugin>>;
  auto chain = [](std::vector<std::string> names, bool undeclared, std::vector<std::string> ignored = {}) {
    Chain c;
    for (const std::string& n : names) {
      if (n == "NodeResourcesFit" && !ignored.empty()) {
        c.push_back(std::make_unique<NodeResourcesFit>(ignored, std::vector<std::string>{}));
      } else {
        c.push_back(NewFilterPlugin(n));
      }
    }
    if (undeclared) c.push_back(std::make_unique<Undeclared>());
    return c;
  };
  struct Case {
    const char* name;
    Chain filters;
    ChainTraits want;
  };
  std::vector<Case> cases;
  cases.push_back({"empty", Chain{}, {true, false, false, false}});
  cases.push_back({"the default chain", DefaultFilters(), {true, true, true, true}});
  cases.push_back({"nvidia.com/gpu ignored", chain({"NodeResourcesFit", "GpuShare"}, false, {"nvidia.com/gpu"}),
                   {true, true, false, true}});
  cases.push_back({"no GpuShare", chain({"NodeUnschedulable", "NodeResourcesFit"}, false), {true, true, true, false}});
  cases.push_back({"one undeclared filter", chain({"NodeResourcesFit", "GpuShare"}, true), {false, true, true, true}});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ChainTraits got = ChainTraits::Of(c.filters);
    EXPECT_EQ(got.declared, c.want.declared);
    EXPECT_EQ(got.checks_fit, c.want.checks_fit);
    EXPECT_EQ(got.checks_gpu_count, c.want.checks_gpu_count);
    EXPECT_EQ(got.checks_devices, c.want.checks_devices);
  }
}

}  // namespace chain_traits_test
}  // namespace gpusched

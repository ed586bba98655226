#include "gpusched/sched/framework/chain_traits.h"

namespace gpusched {

ChainTraits ChainTraits::Of(const std::vector<std::unique_ptr<FilterPlugin>>& filters) {
  ChainTraits c;
  for (const auto& f : filters) {
    const FilterTraits t = f->Traits();
    if (!t.in_tree) c.declared = false;
    if (t.checks_fit) {
      c.checks_fit = true;
      c.checks_gpu_count = t.checks_gpu_count;
    }
    if (t.checks_devices) c.checks_devices = true;
  }
  return c;
}

}  // namespace gpusched

#include "gpusched/sched/policy.h"

namespace gpusched {

std::unique_ptr<Policy> NewPolicy(std::string_view name) {
  if (name == "first-fit") return std::make_unique<FirstFitPolicy>();
  return nullptr;
}

std::vector<std::string> PolicyNames() { return {"first-fit"}; }

}  // namespace gpusched

#include "gpusched/run/run_error.h"

namespace gpusched {

std::string EngineMessage(const Status& status) {
  constexpr std::string_view kPrefix = "error: ";
  const std::string& m = status.message();
  return m.starts_with(kPrefix) ? m.substr(kPrefix.size()) : m;
}

}  // namespace gpusched

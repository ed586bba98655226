#include "gpusched/server/readiness.h"

#include <cstdint>
#include <sstream>

#include "gpusched/server/reflector.h"

namespace gpusched {

ReflectorHealth HealthOf(const Reflector& r) {
  return ReflectorHealth{r.name(), r.connected(), r.last_contact(), r.last_error()};
}

bool Readiness(bool synced, const std::vector<ReflectorHealth>& reflectors, double stale_after,
               std::chrono::steady_clock::time_point now, std::string* why) {
  if (!synced) {
    *why = "not ready: waiting for the first list of nodes and pods";
    for (const ReflectorHealth& r : reflectors)
      if (!r.last_error.empty()) *why += " (" + r.name + ": " + r.last_error + ")";
    return false;
  }
  for (const ReflectorHealth& r : reflectors) {
    if (r.connected) continue;
    const double silent = std::chrono::duration<double>(now - r.last_contact).count();
    if (silent > stale_after) {
      std::ostringstream seconds;  // 60 as "60", 0.5 as "0.5"
      seconds << stale_after;
      *why = "stale: no word from the API server about " + r.name + " for " +
             std::to_string(static_cast<int64_t>(silent)) + " s (--stale-after " +
             seconds.str() + "); last error: " + r.last_error;
      return false;
    }
  }
  return true;
}

}  // namespace gpusched

#include "gpusched/server/readiness.h"

#include <cstdint>
#include <ctime>
#include <sstream>

#include "gpusched/server/reflector.h"

namespace gpusched {

ReflectorHealth HealthOf(const Reflector& r) {
  return ReflectorHealth{r.name(), r.connected(), r.last_contact(), r.last_error()};
}

namespace {

// RFC 3339 in UTC to the second, as Kubernetes writes its timestamps.
std::string Rfc3339(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

bool Readiness(bool synced, const std::vector<ReflectorHealth>& reflectors, double stale_after,
               std::chrono::steady_clock::time_point now, std::string* why,
               std::chrono::system_clock::time_point wall_now) {
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
      const auto since = wall_now - std::chrono::duration_cast<std::chrono::system_clock::duration>(now - r.last_contact);
      *why = "stale: no word from the API server about " + r.name + " for " +
             std::to_string(static_cast<int64_t>(silent)) + " s, since " + Rfc3339(since) + " (--stale-after " +
             seconds.str() + "); last error: " + r.last_error;
      return false;
    }
  }
  return true;
}

}  // namespace gpusched

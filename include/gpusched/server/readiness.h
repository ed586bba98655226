// Readiness: what `gpusched serve`'s /readyz answers, from the extender's
// sync state and a snapshot of each reflector's health.
//
// Ready when the view has had its first list of nodes and pods and, when
// the view comes from an API server, every reflector is in contact: its
// watch is open (the watch request came back 200, with events or without:
// an open watch on a quiet cluster is healthy, as client-go's reflector
// treats it; the API server also sends BOOKMARKs on it), or its last
// successful list, watch event or watch end is at most `stale_after`
// seconds old. A reflector that has lost its watch (connection refused,
// a non-200 answer, a relist that fails) for longer than that makes the
// server stale, and the answer names the resource, the silence and the last
// error. A static snapshot (-f) is ready once synced.
#ifndef GPUSCHED_SERVER_READINESS_H_
#define GPUSCHED_SERVER_READINESS_H_

#include <chrono>
#include <string>
#include <vector>

namespace gpusched {

class Reflector;

struct ReflectorHealth {
  std::string name;  // "nodes", "pods"
  bool connected = false;
  std::chrono::steady_clock::time_point last_contact{};
  std::string last_error;
};

ReflectorHealth HealthOf(const Reflector& r);

// True when ready; otherwise *why says why ("not ready: ..." or "stale: ...",
// with since when in UTC: `wall_now` is the wall clock at `now`).
// `reflectors` is empty for a static snapshot.
bool Readiness(bool synced, const std::vector<ReflectorHealth>& reflectors, double stale_after,
               std::chrono::steady_clock::time_point now, std::string* why,
               std::chrono::system_clock::time_point wall_now = std::chrono::system_clock::now());

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_READINESS_H_

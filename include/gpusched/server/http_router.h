// ExtenderRouter: which answer a whole HTTP request gets, apart from how it
// arrived (server/http_server.h reads and writes the bytes). A request's
// path is its target up to '?':
//   POST /filter, /prioritize, /preempt, /bind   ExtenderService's verbs
//   GET  /healthz, /readyz, /metrics
// anything else is 404 naming what there is, a known path with another
// method 405 with Allow. Each answer is counted in Metrics by verb (unknown
// paths as "other"). Thread-safe as ExtenderService and Metrics are.
#ifndef GPUSCHED_SERVER_HTTP_ROUTER_H_
#define GPUSCHED_SERVER_HTTP_ROUTER_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/server/extender.h"
#include "gpusched/server/metrics.h"

namespace gpusched {

struct HttpAnswer {
  int status = 200;
  std::string content_type;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beyond Content-Type and Content-Length
};

class ExtenderRouter {
 public:
  ExtenderRouter(ExtenderService& extender, Metrics& metrics, std::function<bool(std::string*)> ready,
                 size_t max_body_bytes)
      : extender_(extender), metrics_(metrics), ready_(std::move(ready)), max_body_bytes_(max_body_bytes) {}

  HttpAnswer Answer(std::string_view method, std::string_view target, std::string_view body) const;
  // A body over max_body_bytes (413), refused before it is read in full.
  HttpAnswer TooLarge(std::string_view target) const;
  // What a verb threw (500).
  HttpAnswer Internal(std::string_view target, std::string_view what) const;

  // "filter", ..., "metrics", or "other": the verb label of metrics.
  static std::string_view VerbOf(std::string_view target);

 private:
  ExtenderService& extender_;
  Metrics& metrics_;
  std::function<bool(std::string*)> ready_;
  size_t max_body_bytes_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_HTTP_ROUTER_H_

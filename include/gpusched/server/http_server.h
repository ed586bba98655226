// ExtenderHttpServer: `gpusched serve`'s HTTP endpoints over cpp-httplib
// (Debian's libcpp-httplib-dev):
//   POST /filter, /prioritize, /preempt, /bind   the Extender's verbs
//   GET  /healthz                                200 "ok" while the process serves
//   GET  /readyz                                 200 "ok", or 503 with why not
//                                                (not listed yet; API server out
//                                                of reach for too long)
//   GET  /metrics                                Prometheus text (server/metrics.h)
// Answers of the verbs are "application/json; charset=utf-8" and never
// compressed, whatever the request's Accept-Encoding (the charset keeps
// cpp-httplib from gzipping them: see http_server.cc). A body over
// `max_body_bytes` is refused with 413 before it is read in full; an unknown path is 404, a wrong method 405 (cpp-httplib's answers, with
// a text body). Stop() stops accepting, lets the requests in flight finish,
// and returns once they have (SIGTERM's drain).
#ifndef GPUSCHED_SERVER_HTTP_SERVER_H_
#define GPUSCHED_SERVER_HTTP_SERVER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "gpusched/server/extender.h"
#include "gpusched/server/metrics.h"
#include "gpusched/util/status.h"

namespace gpusched {

// 64 MiB: kube-scheduler sends full Node objects to an extender that is not
// nodeCacheCapable, a few kB each with their image lists (5,000 such nodes
// are ~25 MiB).
inline constexpr size_t kDefaultMaxBodyBytes = 64u << 20;

// How long an idle keep-alive connection is kept open: also the longest
// Stop() waits for one.
inline constexpr int kKeepAliveTimeoutSeconds = 5;

struct HttpServerOptions {
  std::string host = "127.0.0.1";  // "": every interface (Go's ":PORT")
  int port = 8888;  // 0: any free port (tests)
  size_t max_body_bytes = kDefaultMaxBodyBytes;
  int threads = 8;
};

class ExtenderHttpServer {
 public:
  // `ready` answers /readyz: true, or false with the reason in its argument.
  ExtenderHttpServer(ExtenderService& extender, Metrics& metrics, HttpServerOptions options,
                     std::function<bool(std::string*)> ready);
  ~ExtenderHttpServer();

  // Binds the listening socket; port() is then known.
  Status Listen();
  int port() const { return port_; }
  // Serves until Stop(); returns after the requests in flight are answered.
  void Run();
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_HTTP_SERVER_H_

// ExtenderHttpServer: `gpusched serve`'s HTTP endpoints, over Boost.Beast
// (Debian's libboost-dev) and OpenSSL:
//   POST /filter, /prioritize, /preempt, /bind   the Extender's verbs
//   GET  /healthz                                200 "ok" while the process serves
//   GET  /readyz                                 200 "ok", or 503 with why not
//                                                (not listed yet; API server out
//                                                of reach for too long)
//   GET  /metrics                                Prometheus text (server/metrics.h)
//
// Connections are served by `threads` event loops, one thread each, a
// connection on each loop in turn; a whole request is answered on its
// loop's thread, except /bind, which waits for the API server and runs on
// a pool of its own. An idle keep-alive connection, a slow client or a
// half-open socket costs a file descriptor, never a thread (cpp-httplib,
// before, gave each connection a worker for its life: 8 idle sockets
// starved /healthz and /filter). Deadlines, as Go's http.Server
// names them: a request's header within `read_header_timeout` of its first
// wait, its body within `read_timeout`, the answer written within
// `write_timeout`, and an idle keep-alive connection closed after
// `idle_timeout`. At most `max_connections` are open; one more is closed at
// once, with a log line (one every 10 s at most).
//
// Answers of the verbs are "application/json; charset=utf-8" and never
// compressed. A body over `max_body_bytes` is refused with 413 before it is
// read in full; an unknown path is 404, a known one with another method 405
// (with Allow). "Expect: 100-continue" is answered before the body is read
// (curl asks it for large bodies).
//
// TLS: with `tls.cert_file` and `tls.key_file` every connection is TLS (1.2
// or later, as kube-scheduler's client requires); with `tls.client_ca_file`
// a client must present a certificate that CA signed (kube-scheduler's
// extender tlsConfig certFile/keyFile), or the handshake fails.
//
// Stop() (SIGTERM) stops accepting, closes the idle connections at once
// (kept alive after an answer, or new for 5 s without a request, as Go's
// Shutdown), lets the requests in flight be answered, and makes Run()
// return once they have; at `shutdown_timeout` whatever is left is closed,
// and Run() returns once a bind still running has (--bind-timeout).
#ifndef GPUSCHED_SERVER_HTTP_SERVER_H_
#define GPUSCHED_SERVER_HTTP_SERVER_H_

#include <chrono>
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

// How long an idle keep-alive connection is kept open.
inline constexpr int kKeepAliveTimeoutSeconds = 5;
// The longest Stop() lets requests in flight run (the kubelet's default
// grace period is 30 s).
inline constexpr int kDefaultShutdownTimeoutSeconds = 10;
inline constexpr int kDefaultMaxConnections = 1024;

struct TlsFiles {
  std::string cert_file;       // PEM chain; with key_file, serve TLS
  std::string key_file;        // PEM private key
  std::string client_ca_file;  // PEM CAs; set: client certificates required
  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

struct HttpServerOptions {
  std::string host = "127.0.0.1";  // "": every interface (Go's ":PORT")
  int port = 8888;  // 0: any free port (tests)
  size_t max_body_bytes = kDefaultMaxBodyBytes;
  int threads = 8;  // event loops
  int max_connections = kDefaultMaxConnections;
  std::chrono::milliseconds read_header_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds read_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(kKeepAliveTimeoutSeconds)};
  std::chrono::milliseconds shutdown_timeout{std::chrono::seconds(kDefaultShutdownTimeoutSeconds)};
  // At shutdown, a connection that has sent no request yet counts as idle
  // (closed) once this old, as in Go's Shutdown.
  std::chrono::milliseconds new_idle_timeout{std::chrono::seconds(5)};
  TlsFiles tls;
  // Where the connection-limit line goes; unset: nowhere.
  std::function<void(const std::string&)> log;
};

class ExtenderHttpServer {
 public:
  // `ready` answers /readyz: true, or false with the reason in its argument.
  ExtenderHttpServer(ExtenderService& extender, Metrics& metrics, HttpServerOptions options,
                     std::function<bool(std::string*)> ready);
  ~ExtenderHttpServer();

  // Reads the TLS files (when options.tls names them), each error naming
  // its flag and file. Listen() calls it when it has not succeeded yet;
  // serve calls it first, so that its errors are told apart from the
  // address's.
  Status LoadTls();
  // Binds the listening socket; port() is then known. Errors name the file
  // (LoadTls) or the address.
  Status Listen();
  int port() const { return port_; }
  // Serves until Stop(); returns after the requests in flight are answered
  // (or the shutdown timeout has passed).
  void Run();
  // Thread-safe, idempotent; before Run() it makes Run() return at once.
  void Stop();
  // Connections open now (tests, metrics).
  size_t open_connections() const;

  struct Impl;  // public only so that the connection classes in http_server.cc can name it

 private:
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_HTTP_SERVER_H_

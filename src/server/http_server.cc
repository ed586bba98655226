#include "gpusched/server/http_server.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <httplib.h>

namespace gpusched {

struct ExtenderHttpServer::Impl {
  httplib::Server server;
  std::string port_host;
  int port = 0;
  // cpp-httplib's stop() acts only once listen has begun (0.11: it checks
  // is_running_, which listen sets): a Stop() before that would be lost and
  // Run() would serve on. Each side writes its flag, then reads the other's
  // (sequentially consistent), so at least one sees the other: Run() does
  // not start, or Stop() waits for it to be running and stops it.
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> run_entered{false};
};

namespace {

constexpr const char* kJsonContentType = "application/json; charset=utf-8";

std::string VerbOf(const std::string& path) {
  for (const char* v : {"filter", "prioritize", "preempt", "bind", "healthz", "readyz", "metrics"})
    if (path == std::string("/") + v) return v;
  return "other";
}

}  // namespace

ExtenderHttpServer::ExtenderHttpServer(ExtenderService& extender, Metrics& metrics, HttpServerOptions options,
                                       std::function<bool(std::string*)> ready)
    : impl_(std::make_unique<Impl>()) {
  httplib::Server& s = impl_->server;
  const int threads = options.threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  s.set_payload_max_length(options.max_body_bytes);
  // kube-scheduler keeps its connection to the extender open. An idle one
  // holds a worker thread, and cpp-httplib's stop() waits for it until the
  // keep-alive timeout (with 60 s a SIGTERM took 58 s, past the kubelet's
  // 30 s grace period): 5 s bounds both; a client whose idle connection was
  // closed opens another (Go's transport does so on its own).
  s.set_keep_alive_max_count(1u << 30);
  s.set_keep_alive_timeout(kKeepAliveTimeoutSeconds);
  s.set_tcp_nodelay(true);
  impl_->port_host = options.host;
  impl_->port = options.port;
  using Handler = Reply (ExtenderService::*)(std::string_view);
  auto verb = [&s, &extender, &metrics](const char* path, Handler h) {
    const std::string name = path + 1;
    s.Post(path, [&extender, &metrics, h, name](const httplib::Request& req, httplib::Response& res) {
      const auto t0 = std::chrono::steady_clock::now();
      Reply r = (extender.*h)(req.body);
      res.status = r.status;
      // set_content without its copy: responses run to hundreds of kB.
      res.body = std::move(r.body);
      // With the charset, cpp-httplib does not compress: it gzips a bare
      // "application/json" answer whenever the request accepts gzip, as
      // kube-scheduler's Go client always says it does, and gzip on an
      // answer of thousands of names costs more CPU than the whole decision
      // (1.2 ms a pod at 5,000 nodes, docs/performance.md) for a sidecar on
      // localhost.
      res.set_header("Content-Type", r.content_type == "application/json" ? kJsonContentType : r.content_type);
      metrics.Request(name, r.status, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    });
  };
  verb("/filter", &ExtenderService::Filter);
  verb("/prioritize", &ExtenderService::Prioritize);
  verb("/preempt", &ExtenderService::Preempt);
  verb("/bind", &ExtenderService::Bind);
  s.Get("/healthz", [&metrics](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content("ok\n", "text/plain; charset=utf-8");
    metrics.Request("healthz", 200, 0);
  });
  s.Get("/readyz", [&metrics, ready](const httplib::Request&, httplib::Response& res) {
    std::string why;
    if (ready(&why)) {
      res.status = 200;
      res.set_content("ok\n", "text/plain; charset=utf-8");
    } else {
      res.status = 503;
      res.set_content(why + "\n", "text/plain; charset=utf-8");
    }
    metrics.Request("readyz", res.status, 0);
  });
  s.Get("/metrics", [&metrics](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content(metrics.Text(), "text/plain; version=0.0.4; charset=utf-8");
    metrics.Request("metrics", 200, 0);
  });
  const size_t limit = options.max_body_bytes;
  s.set_error_handler([&metrics, limit](const httplib::Request& req, httplib::Response& res) {
    // Also called for the 4xx/5xx our handlers answered (and counted).
    if (!res.body.empty()) return;
    const std::string verb = VerbOf(req.path);
    if (res.status == 413) {
      res.set_content("request body over the limit of " + std::to_string(limit) + " bytes (--max-body-bytes)\n",
                      "text/plain; charset=utf-8");
      metrics.Error(verb, "too_large");
    } else if (res.status == 404) {
      res.set_content("no such endpoint: " + req.method + " " + req.path +
                          " (POST /filter, /prioritize, /preempt, /bind; GET /healthz, /readyz, /metrics)\n",
                      "text/plain; charset=utf-8");
    } else if (res.body.empty()) {
      res.set_content("HTTP " + std::to_string(res.status) + "\n", "text/plain; charset=utf-8");
    }
    metrics.Request(verb, res.status, 0);
  });
  s.set_exception_handler([&metrics](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    res.status = 500;
    res.set_content("internal error: " + what + "\n", "text/plain; charset=utf-8");
    metrics.Error(VerbOf(req.path), "internal");
  });
}

ExtenderHttpServer::~ExtenderHttpServer() { Stop(); }

Status ExtenderHttpServer::Listen() {
  if (impl_->port_host.empty()) {
    // ":PORT" is every interface, as Go's net.Listen reads it: IPv6's any
    // address (dual-stack, IPv4 too, on Linux), or IPv4's where IPv6 is off.
    // httplib would resolve "" to one loopback address.
    impl_->port_host = "::";
    if (Listen().ok()) return Status::Ok();
    impl_->port_host = "0.0.0.0";
  }
  httplib::Server& s = impl_->server;
  if (impl_->port == 0) {
    port_ = s.bind_to_any_port(impl_->port_host);
    if (port_ <= 0) return Status::IOError("cannot listen on " + impl_->port_host + ": no free port");
  } else {
    if (!s.bind_to_port(impl_->port_host, impl_->port))
      return Status::IOError("cannot listen on " + impl_->port_host + ":" + std::to_string(impl_->port) +
                             " (in use, or not an address of this machine)");
    port_ = impl_->port;
  }
  return Status::Ok();
}

void ExtenderHttpServer::Run() {
  impl_->run_entered = true;
  if (!impl_->stop_requested) impl_->server.listen_after_bind();
  impl_->run_entered = false;
}

void ExtenderHttpServer::Stop() {
  impl_->stop_requested = true;
  while (impl_->run_entered && !impl_->server.is_running())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl_->server.stop();
}

}  // namespace gpusched

#include "gpusched/server/http_server.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <atomic>
#include <list>
#include <mutex>
#include <thread>
#include <vector>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/err.h>
#include <openssl/x509.h>

#include "gpusched/server/http_router.h"

namespace gpusched {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// Go's default http.Server MaxHeaderBytes is 1 MB; kube-scheduler's headers
// are a few hundred bytes.
constexpr uint32_t kMaxHeaderBytes = 64u << 10;
constexpr size_t kWaitingBufferBytes = 4096;

// What the server keeps of a connection to close it at Stop(); all calls on
// the event loop's thread.
class Connection {
 public:
  virtual ~Connection() = default;
  // Closes the connection if it waits for a request; otherwise marks it to
  // close once its answer is written. Both run on the connection's loop
  // (they post themselves there).
  virtual void Drain() = 0;
  virtual void ForceClose() = 0;
};

}  // namespace

struct ExtenderHttpServer::Impl {
  Impl(ExtenderService& extender, Metrics& metrics, HttpServerOptions o, std::function<bool(std::string*)> ready)
      : router(extender, metrics, std::move(ready), o.max_body_bytes), opt(std::move(o)), loops(MakeLoops(opt.threads)) {}

  static std::vector<std::unique_ptr<asio::io_context>> MakeLoops(int n) {
    std::vector<std::unique_ptr<asio::io_context>> out;
    for (int i = 0; i < std::max(1, n); ++i) out.push_back(std::make_unique<asio::io_context>(1));
    return out;
  }

  ExtenderRouter router;
  HttpServerOptions opt;
  // One event loop per thread (`threads` of them), each connection on one
  // loop, given in turn: a request is read, answered and written on its
  // loop's thread, with no hand-over between threads. (One loop run by all
  // threads, or one loop handing requests to a worker pool, cost two or
  // more thread wake-ups a request: a third to a half of the throughput at
  // 1,000 nodes on 2 cores.) Only /bind, which waits for the API server,
  // runs on `binds`, so that it holds no loop. Loop 0 also runs the
  // acceptor and the timers, and owns the fields marked "loop 0".
  std::vector<std::unique_ptr<asio::io_context>> loops;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;  // loop 0
  std::optional<asio::thread_pool> binds;
  tcp::acceptor acceptor{*loops[0]};
  asio::steady_timer accept_retry{*loops[0]};
  asio::steady_timer shutdown_timer{*loops[0]};
  asio::steady_timer drain_timer{*loops[0]};
  std::optional<ssl::context> tls;
  bool tls_read = false;  // LoadTls() succeeded
  size_t next_loop = 0;  // loop 0
  std::chrono::steady_clock::time_point last_limit_log{};  // loop 0
  size_t refused_since_log = 0;  // loop 0
  std::atomic<bool> stopping{false};  // set once, by Stop() on loop 0; answers then close
  // Open connections, from any loop.
  std::mutex mu;
  std::list<std::weak_ptr<Connection>> connections;
  std::atomic<size_t> open{0};

  asio::io_context& main() { return *loops[0]; }
  void Accept();
  void BeginShutdown();
  // While shutting down, twice a second: closes the connections idle by
  // then (a new one turns idle once it has waited new_idle_timeout).
  void DrainAgain();
  // Loop 0: lets every loop return once it has nothing left to do.
  void Finish() {
    shutdown_timer.cancel();
    drain_timer.cancel();
    keep_running.clear();
  }
  void Closed(std::list<std::weak_ptr<Connection>>::iterator it);
  std::vector<std::shared_ptr<Connection>> Live() {
    std::lock_guard<std::mutex> l(mu);
    std::vector<std::shared_ptr<Connection>> out;
    for (auto& w : connections)
      if (auto c = w.lock()) out.push_back(std::move(c));
    return out;
  }
  void Log(const std::string& line) const {
    if (opt.log) opt.log(line);
  }
};

namespace {

template <class Stream>
class Session : public Connection, public std::enable_shared_from_this<Session<Stream>> {
 public:
  Session(ExtenderHttpServer::Impl& server, Stream stream) : server_(server), stream_(std::move(stream)) {}

  void Start(std::list<std::weak_ptr<Connection>>::iterator it) {
    it_ = it;
    if constexpr (kTls) {
      Lowest().expires_after(server_.opt.read_header_timeout);
      stream_.async_handshake(ssl::stream_base::server, [self = this->shared_from_this()](error_code ec) {
        if (ec) return self->Close();
        self->ReadHeader(true);
      });
    } else {
      ReadHeader(true);
    }
  }

  void Drain() override {
    asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
      self->close_after_answer_ = true;
      // Idle as Go's server means it: kept alive after an answer, or new
      // for over new_idle_timeout (5 s) without a request. A new connection's first request
      // may be arriving: it is answered, or cut at the read deadline or the
      // shutdown timeout.
      if (self->waiting_ && (self->answered_ > 0 || std::chrono::steady_clock::now() - self->accepted_ >
                                                        self->server_.opt.new_idle_timeout))
        self->Close();
    });
  }
  void ForceClose() override {
    asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->Close(); });
  }
  auto executor() { return stream_.get_executor(); }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  // Waits for a request's header: read_header_timeout on a new connection,
  // idle_timeout between requests of a kept-alive one.
  void ReadHeader(bool first) {
    if (closed_) return;
    if (close_after_answer_) return Close();
    parser_.emplace();
    parser_->body_limit(server_.opt.max_body_bytes);
    parser_->header_limit(kMaxHeaderBytes);
    // A waiting connection keeps 4 kB (a header, and the small bodies that
    // come with it), not the last body's room.
    if (buffer_.capacity() > kWaitingBufferBytes) buffer_.shrink_to_fit();
    buffer_.reserve(kWaitingBufferBytes);
    waiting_ = true;
    Lowest().expires_after(first ? server_.opt.read_header_timeout : server_.opt.idle_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](error_code ec, size_t) { self->OnHeader(ec); });
  }

  void OnHeader(error_code ec) {
    waiting_ = false;
    if (ec) return OnReadError(ec);
    if (beast::iequals(parser_->get()[http::field::expect], "100-continue")) {
      continue_.emplace(http::status::continue_, parser_->get().version());
      Lowest().expires_after(server_.opt.write_timeout);
      http::async_write(stream_, *continue_, [self = this->shared_from_this()](error_code wec, size_t) {
        if (wec) return self->Close();
        self->ReadBody();
      });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    if (closed_) return;
    // Room for the whole body (Content-Length, within the limit): Beast
    // reads what the buffer has room for, up to 64 kB a call; grown from
    // empty it read 512 bytes at a time (31 reads, 31 timer re-arms, for a
    // 15 kB filter request).
    if (auto n = parser_->content_length(); n && *n <= server_.opt.max_body_bytes)
      buffer_.reserve(buffer_.size() + static_cast<size_t>(*n));
    Lowest().expires_after(server_.opt.read_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](error_code ec, size_t) { self->OnBody(ec); });
  }

  void OnBody(error_code ec) {
    if (ec) return OnReadError(ec);
    Lowest().expires_never();
    http::request<http::string_body> req = parser_->release();
    keep_alive_ = req.keep_alive();
    version_ = req.version();
    if (ExtenderRouter::VerbOf(std::string_view(req.target().data(), req.target().size())) == "bind") {
      // A bind waits for the API server: on the bind pool, the loop goes on
      // with its other connections (and keeps running for the answer).
      asio::post(*server_.binds, [self = this->shared_from_this(), req = std::move(req),
                                  busy = asio::make_work_guard(stream_.get_executor())]() mutable {
        HttpAnswer a = self->Answer(req);
        auto ex = self->stream_.get_executor();
        asio::post(ex, [self = std::move(self), a = std::move(a)]() mutable { self->Write(std::move(a)); });
      });
      return;
    }
    // Any other verb runs here, on this connection's loop.
    Write(Answer(req));
  }

  HttpAnswer Answer(const http::request<http::string_body>& req) {
    const std::string_view target(req.target().data(), req.target().size());
    try {
      return server_.router.Answer(std::string_view(req.method_string().data(), req.method_string().size()), target,
                                   req.body());
    } catch (const std::exception& e) {
      return server_.router.Internal(target, e.what());
    }
  }

  void OnReadError(error_code ec) {
    if (ec == http::error::body_limit) {
      // Content-Length over the limit fails in the header, whose start line
      // is parsed by then.
      keep_alive_ = false;
      version_ = parser_->get().version();
      return Write(server_.router.TooLarge(std::string(parser_->get().target())));
    }
    if (ec == http::error::header_limit) {
      keep_alive_ = false;
      version_ = 11;
      return Write(HttpAnswer{431, "text/plain; charset=utf-8", "request header over 64 KiB\n", {}});
    }
    // A malformed request is 400, as Go's server answers it; a closed,
    // timed-out or reset connection just ends.
    if (ec.category() == http::make_error_code(http::error::bad_target).category() && ec != http::error::end_of_stream &&
        ec != http::error::partial_message) {
      keep_alive_ = false;
      version_ = 11;
      return Write(HttpAnswer{400, "text/plain; charset=utf-8", "malformed HTTP request: " + ec.message() + "\n", {}});
    }
    Close();
  }

  void Write(HttpAnswer a) {
    if (closed_) return;
    res_.emplace(static_cast<http::status>(a.status), version_);
    res_->set(http::field::content_type, a.content_type);
    for (auto& [k, v] : a.headers) res_->set(k, v);
    res_->body() = std::move(a.body);
    if (close_after_answer_ || server_.stopping) keep_alive_ = false;
    res_->keep_alive(keep_alive_);
    res_->prepare_payload();
    Lowest().expires_after(server_.opt.write_timeout);
    http::async_write(stream_, *res_, [self = this->shared_from_this()](error_code ec, size_t) {
      self->res_.reset();
      ++self->answered_;
      if (ec) return self->Close();
      if (!self->keep_alive_) return self->Linger();
      self->ReadHeader(false);
    });
  }

  // After a last answer: no more to send, and what the client still sends
  // (a body refused with 413) is read and dropped for up to a second, so
  // that closing with unread bytes does not reset the connection before
  // the client has read the answer (Go's server does the same).
  void Linger() {
    if (closed_) return;
    error_code ignored;
    Lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
    Lowest().expires_after(std::chrono::seconds(1));
    buffer_.clear();
    Lowest().async_read_some(buffer_.prepare(64 << 10), [self = this->shared_from_this()](error_code ec, size_t) {
      if (ec) return self->Close();
      self->Linger();
    });
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    waiting_ = false;
    error_code ignored;
    Lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Lowest().close();
    server_.Closed(it_);
  }

  ExtenderHttpServer::Impl& server_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::empty_body>> continue_;
  std::optional<http::response<http::string_body>> res_;
  std::list<std::weak_ptr<Connection>>::iterator it_;
  unsigned version_ = 11;
  const std::chrono::steady_clock::time_point accepted_ = std::chrono::steady_clock::now();
  uint64_t answered_ = 0;
  bool keep_alive_ = true;
  bool waiting_ = false;
  bool close_after_answer_ = false;
  bool closed_ = false;
};

}  // namespace

void ExtenderHttpServer::Impl::Accept() {
  // Each connection on the next loop in turn.
  asio::io_context& loop = *loops[next_loop];
  next_loop = (next_loop + 1) % loops.size();
  acceptor.async_accept(loop, [this](error_code ec, tcp::socket socket) {
    if (stopping || !acceptor.is_open()) return;
    if (ec) {
      // Out of file descriptors, most likely: try again shortly rather than
      // spin on the error.
      Log("accept: " + ec.message());
      accept_retry.expires_after(std::chrono::milliseconds(100));
      accept_retry.async_wait([this](error_code tec) {
        if (!tec) Accept();
      });
      return;
    }
    if (open.load() >= static_cast<size_t>(opt.max_connections)) {
      ++refused_since_log;
      const auto now = std::chrono::steady_clock::now();
      if (now - last_limit_log >= std::chrono::seconds(10)) {
        Log(std::to_string(open.load()) + " connections open, the limit (--max-connections " +
            std::to_string(opt.max_connections) + "): closed " + std::to_string(refused_since_log) +
            " new one(s)");
        last_limit_log = now;
        refused_since_log = 0;
      }
      error_code ignored;
      socket.close(ignored);
    } else {
      error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      ++open;
      // Listed (for Stop) before it starts on its loop.
      auto start = [this](auto session) {
        std::list<std::weak_ptr<Connection>>::iterator it;
        {
          std::lock_guard<std::mutex> l(mu);
          it = connections.insert(connections.end(), session);
        }
        asio::dispatch(session->executor(), [session, it] { session->Start(it); });
      };
      if (tls)
        start(std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(
            *this, beast::ssl_stream<beast::tcp_stream>(std::move(socket), *tls)));
      else
        start(std::make_shared<Session<beast::tcp_stream>>(*this, beast::tcp_stream(std::move(socket))));
    }
    Accept();
  });
}

void ExtenderHttpServer::Impl::Closed(std::list<std::weak_ptr<Connection>>::iterator it) {
  bool last = false;
  {
    std::lock_guard<std::mutex> l(mu);
    connections.erase(it);
    last = connections.empty();
  }
  --open;
  if (last && stopping) asio::post(main(), [this] { Finish(); });
}

void ExtenderHttpServer::Impl::BeginShutdown() {
  if (stopping.exchange(true)) return;
  error_code ignored;
  acceptor.close(ignored);
  accept_retry.cancel();
  for (auto& c : Live()) c->Drain();
  {
    std::lock_guard<std::mutex> l(mu);
    if (connections.empty()) return Finish();
  }
  DrainAgain();
  shutdown_timer.expires_after(opt.shutdown_timeout);
  shutdown_timer.async_wait([this](error_code ec) {
    if (ec) return;  // every connection ended first
    std::vector<std::shared_ptr<Connection>> left = Live();
    if (!left.empty())
      Log("shutdown timeout: closing " + std::to_string(left.size()) + " connection(s) with requests in flight");
    for (auto& c : left) c->ForceClose();
    Finish();
  });
}

void ExtenderHttpServer::Impl::DrainAgain() {
  drain_timer.expires_after(std::chrono::milliseconds(500));
  drain_timer.async_wait([this](error_code ec) {
    if (ec) return;
    for (auto& c : Live()) c->Drain();
    DrainAgain();
  });
}

ExtenderHttpServer::ExtenderHttpServer(ExtenderService& extender, Metrics& metrics, HttpServerOptions options,
                                       std::function<bool(std::string*)> ready)
    : impl_(std::make_unique<Impl>(extender, metrics, std::move(options), std::move(ready))) {}

ExtenderHttpServer::~ExtenderHttpServer() { Stop(); }

namespace {

// OpenSSL's reason for `ec` ("no start line", "bad end line"), or
// Asio's message.
std::string SslReason(const error_code& ec) {
  if (const char* r = ERR_reason_error_string(static_cast<unsigned long>(ec.value()))) return r;
  return ec.message();
}

// "" when `path` can be opened for reading; else why not.
std::string Unreadable(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return std::strerror(errno);
  std::fclose(f);
  return "";
}

Status ReadTlsFiles(const TlsFiles& files, std::optional<ssl::context>& out) {
  if (!files.enabled()) return Status::Ok();
  if (files.cert_file.empty()) return Status::InvalidArgument("--tls-private-key-file needs --tls-cert-file");
  if (files.key_file.empty()) return Status::InvalidArgument("--tls-cert-file needs --tls-private-key-file");
  for (const auto& [flag, path] : {std::pair<const char*, const std::string&>{"--tls-cert-file", files.cert_file},
                                   {"--tls-private-key-file", files.key_file},
                                   {"--client-ca-file", files.client_ca_file}})
    if (!path.empty())
      if (std::string why = Unreadable(path); !why.empty())
        return Status::IOError(std::string(flag) + " " + path + ": cannot read it: " + why);
  ssl::context ctx(ssl::context::tls_server);
  // TLS 1.2 and later, as Go's crypto/tls offers a server by default.
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                  ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  error_code ec;
  ctx.use_certificate_chain_file(files.cert_file, ec);
  if (ec)
    return Status::InvalidArgument("--tls-cert-file " + files.cert_file + ": not a PEM certificate chain (" +
                                   SslReason(ec) + ")");
  ctx.use_private_key_file(files.key_file, ssl::context::pem, ec);
  if (ec && ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == X509_R_KEY_VALUES_MISMATCH)
    return Status::InvalidArgument("--tls-private-key-file " + files.key_file + " is not the key of --tls-cert-file " +
                                   files.cert_file);
  if (ec)
    return Status::InvalidArgument("--tls-private-key-file " + files.key_file + ": not a PEM private key (" +
                                   SslReason(ec) + ")");
  if (SSL_CTX_check_private_key(ctx.native_handle()) != 1)
    return Status::InvalidArgument("--tls-private-key-file " + files.key_file + " is not the key of --tls-cert-file " +
                                   files.cert_file);
  if (!files.client_ca_file.empty()) {
    ctx.load_verify_file(files.client_ca_file, ec);
    if (ec)
      return Status::InvalidArgument("--client-ca-file " + files.client_ca_file + ": not PEM certificates (" +
                                     SslReason(ec) + ")");
    ctx.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  }
  out.emplace(std::move(ctx));
  return Status::Ok();
}

}  // namespace

Status ExtenderHttpServer::LoadTls() {
  Impl& im = *impl_;
  if (im.tls_read) return Status::Ok();
  Status st = ReadTlsFiles(im.opt.tls, im.tls);
  im.tls_read = st.ok();
  return st;
}

Status ExtenderHttpServer::Listen() {
  Impl& im = *impl_;
  if (Status st = LoadTls(); !st.ok()) return st;
  std::vector<std::string> hosts;
  // ":PORT" is every interface, as Go's net.Listen reads it: IPv6's any
  // address (dual-stack, IPv4 too, on Linux), or IPv4's where IPv6 is off.
  if (im.opt.host.empty()) hosts = {"::", "0.0.0.0"};
  else hosts = {im.opt.host};
  const std::string shown = im.opt.host.empty() ? "" : im.opt.host;
  std::string why;
  for (const std::string& host : hosts) {
    error_code ec;
    tcp::resolver resolver(im.main());
    auto results = resolver.resolve(host, std::to_string(im.opt.port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec) {
      why = ec.message();
      continue;
    }
    for (const auto& r : results) {
      tcp::acceptor a(im.main());
      if (a.open(r.endpoint().protocol(), ec)) continue;
      a.set_option(tcp::acceptor::reuse_address(true), ec);
      if (r.endpoint().address().is_v6()) a.set_option(asio::ip::v6_only(false), ec);
      if (a.bind(r.endpoint(), ec) || a.listen(asio::socket_base::max_listen_connections, ec)) {
        why = ec.message();
        continue;
      }
      port_ = a.local_endpoint().port();
      im.acceptor = std::move(a);
      return Status::Ok();
    }
  }
  if (im.opt.port == 0) return Status::IOError("cannot listen on " + shown + ": no free port");
  return Status::IOError("cannot listen on " + shown + ":" + std::to_string(im.opt.port) +
                         " (in use, or not an address of this machine)");
}

void ExtenderHttpServer::Run() {
  Impl& im = *impl_;
  im.binds.emplace(static_cast<size_t>(std::max(1, im.opt.threads)));
  // Every loop runs until Finish() (loop 0 also while the acceptor
  // listens); no loop thread runs yet, and Stop() only posts to loop 0.
  for (size_t i = 1; i < im.loops.size(); ++i) im.keep_running.push_back(asio::make_work_guard(*im.loops[i]));
  asio::post(im.main(), [&im] {
    if (!im.stopping && im.acceptor.is_open()) im.Accept();
  });
  std::vector<std::thread> more;
  for (size_t i = 1; i < im.loops.size(); ++i) more.emplace_back([&im, i] { im.loops[i]->run(); });
  // Returns when the listener is closed and every connection has ended
  // (at the shutdown timeout, those still in a verb are closed once it
  // returns: a bind within --bind-timeout).
  im.main().run();
  for (std::thread& t : more) t.join();
  im.binds->join();
}

void ExtenderHttpServer::Stop() {
  Impl& im = *impl_;
  asio::post(im.main(), [&im] { im.BeginShutdown(); });
}

size_t ExtenderHttpServer::open_connections() const { return impl_->open.load(); }

}  // namespace gpusched

// src/server/http_server.cc over loopback: the verbs' answers as the service
// writes them, as application/json with its charset and never compressed
// (kube-scheduler's Go client asks for gzip on every request); a body over
// the limit is 413 with its message; a malformed one is the service's 400.
// Idle, slow and surplus connections cost no worker (issue 28: 8 idle
// sockets starved /healthz and /filter); deadlines; shutdown; TLS with
// client certificates.
#include "gpusched/server/http_server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <optional>
#include <thread>

#include "test_certs.h"
#include "test_cluster.h"

namespace gpusched {
namespace {

using Seconds = std::chrono::duration<double>;

double Since(std::chrono::steady_clock::time_point t0) { return Seconds(std::chrono::steady_clock::now() - t0).count(); }

// A raw TCP connection to 127.0.0.1:port (what a slow or idle client is).
class RawConn {
 public:
  explicit RawConn(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~RawConn() { ::close(fd_); }
  bool connected() const { return connected_; }
  bool Send(const std::string& s) { return ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size()); }
  // Reads until `stop` is in what came, the peer closes, or `seconds` pass;
  // `closed` says whether it closed.
  std::string Read(double seconds, bool* closed = nullptr, const std::string& stop = "") {
    std::string got;
    const auto t0 = std::chrono::steady_clock::now();
    if (closed) *closed = false;
    while (Since(t0) < seconds) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        if (closed) *closed = true;
        break;
      }
      got.append(buf, static_cast<size_t>(n));
      if (!stop.empty() && got.find(stop) != std::string::npos) break;
    }
    return got;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

// A Binder that holds each bind until released.
class GateBinder : public Binder {
 public:
  BindResult Bind(const Pod&, const std::string&, const std::map<std::string, std::string>&) override {
    std::unique_lock<std::mutex> l(mu_);
    ++entered_;
    cv_.notify_all();
    cv_.wait(l, [&] { return open_; });
    return Status::Ok();
  }
  void WaitEntered() {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return entered_ > 0; });
  }
  void Open() {
    std::lock_guard<std::mutex> l(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Node> nodes;
    for (int i = 0; i < 50; ++i) nodes.push_back(testing::DecodeNode(testing::NodeJson("node-" + std::to_string(i), 8)));
    ext_.Update([&](ClusterView& v) { v.ReplaceNodes(nodes); });
    ASSERT_TRUE(ext_.MarkSynced().ok());
    HttpServerOptions ho;
    ho.port = 0;
    ho.max_body_bytes = 64 << 10;
    server_ = std::make_unique<ExtenderHttpServer>(ext_, metrics_, ho, [](std::string*) { return true; });
    ASSERT_TRUE(server_->Listen().ok());
    serving_ = std::thread([&] { server_->Run(); });
  }
  void TearDown() override { StopServing(); }
  void StopServing() {
    server_->Stop();
    if (serving_.joinable()) serving_.join();
  }

  Metrics metrics_;
  ExtenderService ext_{testing::Factory("best-fit"), ExtenderOptions{true, 30, 1}, nullptr, &metrics_};
  std::unique_ptr<ExtenderHttpServer> server_;
  std::thread serving_;
};

TEST_F(HttpServerTest, AnswersAreJsonAndNeverCompressed) {
  std::vector<std::string> names;
  for (int i = 0; i < 50; ++i) names.push_back("node-" + std::to_string(i));
  const std::string body = testing::ArgsWithNames(testing::PodJson("ml", "p", 1), names);
  const std::string want_filter = ext_.Filter(body).body;
  const std::string want_prioritize = ext_.Prioritize(body).body;
  httplib::Client cli("127.0.0.1", server_->port());
  cli.set_decompress(false);  // the bytes as sent
  for (const char* accept : {"gzip", "gzip, deflate, br", ""}) {
    httplib::Headers headers;
    if (*accept) headers.emplace("Accept-Encoding", accept);
    for (const auto& [path, want] : {std::pair<const char*, std::string>{"/filter", want_filter},
                                     {"/prioritize", want_prioritize}}) {
      auto r = cli.Post(path, headers, body, "application/json");
      ASSERT_TRUE(r) << path;
      EXPECT_EQ(r->status, 200) << path;
      EXPECT_FALSE(r->has_header("Content-Encoding")) << path << " " << accept;
      EXPECT_EQ(r->get_header_value("Content-Type"), "application/json; charset=utf-8") << path;
      EXPECT_EQ(r->body, want) << path << " " << accept;
    }
  }
  // Errors keep their plain text.
  auto bad = cli.Post("/filter", R"({"Pod":null,"NodeNames":[]})", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(bad->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_EQ(bad->body, "ExtenderArgs.Pod is null: there is no pod to schedule\n");
}

TEST_F(HttpServerTest, BodyOverTheLimitIs413) {
  httplib::Client cli("127.0.0.1", server_->port());
  const std::string big = R"({"Pod":{},"NodeNames":[")" + std::string(70 << 10, 'n') + R"("]})";
  auto r = cli.Post("/filter", big, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->body, "request body over the limit of 65536 bytes (--max-body-bytes)\n");
}

// --listen :PORT (an empty host) listens on every interface, as Go reads
// ":PORT": reachable over IPv4's loopback (it was [::1] only).
TEST_F(HttpServerTest, EmptyHostIsEveryInterface) {
  HttpServerOptions ho;
  ho.host = "";
  ho.port = 0;
  ExtenderHttpServer every(ext_, metrics_, ho, [](std::string*) { return true; });
  ASSERT_TRUE(every.Listen().ok());
  std::thread serving([&] { every.Run(); });
  httplib::Client v4("127.0.0.1", every.port());
  auto r = v4.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  every.Stop();
  serving.join();
}

// A server of its own options, serving on a thread until destroyed.
class Running {
 public:
  Running(ExtenderService& ext, Metrics& metrics, HttpServerOptions o) {
    o.port = 0;
    o.log = [this](const std::string& line) {
      std::lock_guard<std::mutex> l(mu_);
      log_.push_back(line);
    };
    server_ = std::make_unique<ExtenderHttpServer>(ext, metrics, std::move(o), [](std::string*) { return true; });
    listened_ = server_->Listen();
    if (listened_.ok()) thread_ = std::thread([this] {
        server_->Run();
        returned_ = true;
      });
  }
  ~Running() { Stop(); }
  void Stop() {
    server_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  ExtenderHttpServer& server() { return *server_; }
  int port() const { return server_->port(); }
  const Status& listened() const { return listened_; }
  bool returned() const { return returned_; }
  std::vector<std::string> log() {
    std::lock_guard<std::mutex> l(mu_);
    return log_;
  }
  // Waits up to 5 s for open_connections() to be n.
  bool WaitOpen(size_t n) {
    const auto t0 = std::chrono::steady_clock::now();
    while (server_->open_connections() != n && Since(t0) < 5)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return server_->open_connections() == n;
  }

 private:
  std::unique_ptr<ExtenderHttpServer> server_;
  Status listened_;
  std::thread thread_;
  std::atomic<bool> returned_{false};
  std::mutex mu_;
  std::vector<std::string> log_;
};

// Issue 28: with a worker per connection, 8 idle keep-alive sockets or 8
// slowloris clients left /healthz and /filter unanswered. Now 40 idle
// sockets and 8 clients sending a header byte at a time, against 2 workers,
// leave both answering at once.
TEST_F(HttpServerTest, IdleAndSlowConnectionsDoNotStarveTheVerbs) {
  HttpServerOptions o;
  o.threads = 2;
  Running r(ext_, metrics_, o);
  ASSERT_TRUE(r.listened().ok());
  std::vector<std::unique_ptr<RawConn>> idle, slow;
  for (int i = 0; i < 40; ++i) idle.push_back(std::make_unique<RawConn>(r.port()));
  for (int i = 0; i < 8; ++i) {
    slow.push_back(std::make_unique<RawConn>(r.port()));
    ASSERT_TRUE(slow.back()->Send("POST /filter HTTP/1.1\r\nHo"));
  }
  ASSERT_TRUE(r.WaitOpen(48));
  httplib::Client cli("127.0.0.1", r.port());
  cli.set_read_timeout(2, 0);
  const auto t0 = std::chrono::steady_clock::now();
  auto h = cli.Get("/healthz");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
  auto f = cli.Post("/filter", testing::ArgsWithNames(testing::PodJson("ml", "p", 1), {"node-0", "node-1"}),
                    "application/json");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->status, 200);
  EXPECT_LT(Since(t0), 1.0);
  for (auto& c : slow) EXPECT_TRUE(c->Send("s"));
}

// A header still arriving a byte at a time is cut at read_header_timeout;
// a kept-alive connection with nothing more to ask is closed after
// idle_timeout.
TEST_F(HttpServerTest, SlowHeaderAndIdleKeepAliveAreClosedAtTheirDeadlines) {
  HttpServerOptions o;
  o.read_header_timeout = std::chrono::milliseconds(300);
  o.idle_timeout = std::chrono::milliseconds(200);
  Running r(ext_, metrics_, o);
  ASSERT_TRUE(r.listened().ok());
  RawConn slow(r.port());
  const auto t0 = std::chrono::steady_clock::now();
  bool closed = false;
  for (char c : std::string("GET /healthz HTTP/1.1\r\nHost: x\r\n")) {
    if (!slow.Send(std::string(1, c))) break;
    slow.Read(0.1, &closed);
    if (closed) break;
  }
  EXPECT_TRUE(closed);
  EXPECT_GE(Since(t0), 0.25);
  EXPECT_LT(Since(t0), 2.0);

  RawConn kept(r.port());
  ASSERT_TRUE(kept.Send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
  const std::string answer = kept.Read(2, &closed, "ok\n");
  EXPECT_THAT(answer, ::testing::StartsWith("HTTP/1.1 200 OK\r\n"));
  const auto t1 = std::chrono::steady_clock::now();
  kept.Read(2, &closed);
  EXPECT_TRUE(closed);
  EXPECT_LT(Since(t1), 1.5);
}

// One connection over max_connections is closed at once, with one log
// line; when a connection ends, a new one is served.
TEST_F(HttpServerTest, ConnectionsOverTheLimitAreClosedWithALogLine) {
  HttpServerOptions o;
  o.max_connections = 3;
  Running r(ext_, metrics_, o);
  ASSERT_TRUE(r.listened().ok());
  std::vector<std::unique_ptr<RawConn>> held;
  for (int i = 0; i < 3; ++i) held.push_back(std::make_unique<RawConn>(r.port()));
  ASSERT_TRUE(r.WaitOpen(3));
  RawConn surplus(r.port());
  bool closed = false;
  surplus.Read(2, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(r.log(), std::vector<std::string>{"3 connections open, the limit (--max-connections 3): closed 1 new one(s)"});
  held.pop_back();
  ASSERT_TRUE(r.WaitOpen(2));
  httplib::Client cli("127.0.0.1", r.port());
  auto h = cli.Get("/healthz");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
}

// An idle keep-alive connection is closed at once on Stop() (with a worker
// per connection, a SIGTERM waited for the keep-alive timeout: 58 s with
// 60 s, past the kubelet's 30 s grace period).
TEST_F(HttpServerTest, IdleKeepAliveConnectionDoesNotHoldShutdown) {
  httplib::Client idle("127.0.0.1", server_->port());
  idle.set_keep_alive(true);
  auto r = idle.Get("/healthz");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  const auto t0 = std::chrono::steady_clock::now();
  StopServing();
  EXPECT_LT(Since(t0), 1.0);
}

// A connection that has sent nothing counts as idle at shutdown once it is
// new_idle_timeout old (Go's Shutdown: 5 s): it does not hold SIGTERM for
// the whole shutdown timeout.
TEST_F(HttpServerTest, NewConnectionWithoutARequestTurnsIdleAtShutdown) {
  HttpServerOptions o;
  o.new_idle_timeout = std::chrono::milliseconds(300);
  o.shutdown_timeout = std::chrono::seconds(8);
  Running r(ext_, metrics_, o);
  ASSERT_TRUE(r.listened().ok());
  RawConn silent(r.port());
  ASSERT_TRUE(r.WaitOpen(1));
  const auto t0 = std::chrono::steady_clock::now();
  r.server().Stop();
  bool closed = false;
  silent.Read(5, &closed);
  EXPECT_TRUE(closed);
  EXPECT_LT(Since(t0), 2.0);
  while (!r.returned() && Since(t0) < 5) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(r.returned());
  EXPECT_LT(Since(t0), 2.0);
}

// The requests in flight at Stop() are answered (with Connection: close),
// then Run() returns. At shutdown_timeout, the connections still open are
// closed, a body still arriving or a bind still waiting, and Run() returns
// once the bind has (--bind-timeout bounds it).
TEST_F(HttpServerTest, ShutdownAnswersRequestsInFlightWithinTheTimeout) {
  for (const bool past_timeout : {false, true}) {
    SCOPED_TRACE(past_timeout ? "past the timeout" : "within it");
    GateBinder binder;
    Metrics metrics;
    ExtenderService ext(testing::Factory("best-fit"), ExtenderOptions{false, 30, 1}, &binder, &metrics);
    std::vector<Node> nodes = {testing::DecodeNode(testing::NodeJson("node-0", 8))};
    ext.Update([&](ClusterView& v) { v.ReplaceNodes(nodes); });
    ASSERT_TRUE(ext.MarkSynced().ok());
    HttpServerOptions o;
    o.shutdown_timeout = std::chrono::milliseconds(past_timeout ? 300 : 5000);
    Running r(ext, metrics, o);
    ASSERT_TRUE(r.listened().ok());
    httplib::Client cli("127.0.0.1", r.port());
    ASSERT_TRUE(cli.Post("/filter", testing::ArgsWithNames(testing::PodJson("ml", "p", 1), {"node-0"}),
                         "application/json"));
    std::optional<httplib::Result> bound;
    std::thread client([&] {
      bound.emplace(cli.Post("/bind", R"({"PodName":"p","PodNamespace":"ml","PodUID":"","Node":"node-0"})",
                             "application/json"));
    });
    binder.WaitEntered();
    RawConn half(r.port());
    ASSERT_TRUE(half.Send("POST /filter HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"Pod\""));
    ASSERT_TRUE(r.WaitOpen(2));
    const auto t0 = std::chrono::steady_clock::now();
    r.server().Stop();
    bool closed = false;
    if (past_timeout) {
      const std::string got = half.Read(3, &closed);
      EXPECT_TRUE(closed);
      EXPECT_EQ(got, "");
      EXPECT_GE(Since(t0), 0.25);
      EXPECT_LT(Since(t0), 2.0);
      client.join();
      EXPECT_FALSE(*bound);  // its connection closed
      EXPECT_FALSE(r.returned());  // the bind still runs
      binder.Open();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      EXPECT_FALSE(r.returned());
      binder.Open();
      client.join();
      ASSERT_TRUE(half.Send(std::string(94, ' ')));
      EXPECT_THAT(half.Read(2, &closed), ::testing::StartsWith("HTTP/1.1 400 Bad Request\r\n"));
      EXPECT_TRUE(closed);
      ASSERT_TRUE(*bound);
      EXPECT_EQ((*bound)->status, 200);
      EXPECT_EQ((*bound)->body, R"({"Error":""})");
      EXPECT_EQ((*bound)->get_header_value("Connection"), "close");
    }
    r.Stop();
    EXPECT_TRUE(r.returned());
  }
}

// Methods, paths, "Expect: 100-continue" and malformed requests, as Go's
// server answers them.
TEST_F(HttpServerTest, MethodsPathsContinueAndMalformedRequests) {
  httplib::Client cli("127.0.0.1", server_->port());
  auto get = cli.Get("/filter");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 405);
  EXPECT_EQ(get->get_header_value("Allow"), "POST");
  EXPECT_EQ(get->body, "method GET not allowed on /filter (POST)\n");
  auto none = cli.Get("/nodes?x=1");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 404);
  EXPECT_EQ(none->body,
            "no such endpoint: GET /nodes (POST /filter, /prioritize, /preempt, /bind; GET /healthz, /readyz, /metrics)\n");
  auto ready = cli.Get("/readyz?verbose");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);

  const std::string body = testing::ArgsWithNames(testing::PodJson("ml", "p", 1), {"node-0"});
  RawConn c(server_->port());
  ASSERT_TRUE(c.Send("POST /filter HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                     "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n"));
  EXPECT_EQ(c.Read(2, nullptr, "\r\n\r\n"), "HTTP/1.1 100 Continue\r\n\r\n");
  ASSERT_TRUE(c.Send(body));
  EXPECT_THAT(c.Read(2, nullptr, "\"Error\":\"\"}"), ::testing::StartsWith("HTTP/1.1 200 OK\r\n"));

  RawConn bad(server_->port());
  ASSERT_TRUE(bad.Send("GET /healthz HTTP/9.9 junk\r\n\r\n"));
  bool closed = false;
  EXPECT_THAT(bad.Read(2, &closed), ::testing::StartsWith("HTTP/1.1 400 Bad Request\r\n"));
  EXPECT_TRUE(closed);
}

// Hostile or odd requests get an answer and a closed connection, never a
// hang or a crash: each case's first line and body, exactly.
TEST_F(HttpServerTest, HostileRequestsAreAnsweredAndClosed) {
  struct Case {
    std::string name, request, status_line, body;
  };
  const std::vector<Case> cases = {
      {"negative Content-Length", "POST /filter HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
       "HTTP/1.1 400 Bad Request", "malformed HTTP request: bad Content-Length\n"},
      {"Content-Length past 2^64", "POST /filter HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
       "HTTP/1.1 400 Bad Request", "malformed HTTP request: bad Content-Length\n"},
      {"two Content-Lengths",
       "POST /filter HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcde",
       "HTTP/1.1 400 Bad Request", "malformed HTTP request: bad Content-Length\n"},
      {"a 100 kB header", "GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + std::string(100000, 'a') + "\r\n\r\n",
       "HTTP/1.1 431 Request Header Fields Too Large", "request header over 64 KiB\n"},
      {"a TLS hello on the plain port", std::string("\x16\x03\x01\x00\xa5\x01\x00\x00", 8),
       "HTTP/1.1 400 Bad Request", "malformed HTTP request: bad method\n"},
      {"a chunked body, read whole",
       "POST /filter HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
       "5\r\n{\"Pod\r\n0\r\n\r\n",
       "HTTP/1.1 400 Bad Request", ext_.Filter(R"({"Pod)").body},
  };
  for (const Case& c : cases) {
    RawConn conn(server_->port());
    ASSERT_TRUE(conn.Send(c.request)) << c.name;
    bool closed = false;
    const std::string got = conn.Read(3, &closed);
    EXPECT_TRUE(closed) << c.name;
    EXPECT_EQ(got.substr(0, got.find("\r\n")), c.status_line) << c.name;
    const size_t body = got.find("\r\n\r\n");
    ASSERT_NE(body, std::string::npos) << c.name;
    EXPECT_EQ(got.substr(body + 4), c.body) << c.name;
  }
  httplib::Client cli("127.0.0.1", server_->port());
  auto h = cli.Get("/healthz");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
}

// TLS with client certificates, as kube-scheduler's extender tlsConfig
// (certFile/keyFile, caFile) uses it: a client the CA signed is served; one
// without a certificate, with another CA's, or speaking plain HTTP is not.
TEST_F(HttpServerTest, TlsWithClientCertificates) {
  const testing::TestCerts certs = testing::MakeTestCerts("http-server");
  HttpServerOptions o;
  o.tls = {certs.server_cert, certs.server_key, certs.ca_cert};
  Running r(ext_, metrics_, o);
  ASSERT_TRUE(r.listened().ok()) << r.listened().message();
  auto client = [&](const std::string& cert, const std::string& key) {
    auto c = cert.empty() ? std::make_unique<httplib::SSLClient>("127.0.0.1", r.port())
                          : std::make_unique<httplib::SSLClient>("127.0.0.1", r.port(), cert, key);
    c->set_ca_cert_path(certs.ca_cert.c_str());
    c->enable_server_certificate_verification(true);
    c->set_connection_timeout(2, 0);
    c->set_read_timeout(2, 0);
    return c;
  };
  auto ok = client(certs.client_cert, certs.client_key)->Post(
      "/filter", testing::ArgsWithNames(testing::PodJson("ml", "p", 1), {"node-0"}), "application/json");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->body, ext_.Filter(testing::ArgsWithNames(testing::PodJson("ml", "p", 1), {"node-0"})).body);
  EXPECT_FALSE(client("", "")->Get("/healthz"));
  EXPECT_FALSE(client(certs.other_client_cert, certs.other_client_key)->Get("/healthz"));
  httplib::Client plain("127.0.0.1", r.port());
  plain.set_read_timeout(2, 0);
  auto p = plain.Get("/healthz");
  EXPECT_TRUE(!p || p->status != 200);

  // Without --client-ca-file any client is served over TLS.
  HttpServerOptions any;
  any.tls = {certs.server_cert, certs.server_key, ""};
  Running open(ext_, metrics_, any);
  ASSERT_TRUE(open.listened().ok());
  httplib::SSLClient anon("127.0.0.1", open.port());
  anon.set_ca_cert_path(certs.ca_cert.c_str());
  anon.enable_server_certificate_verification(true);
  auto h = anon.Get("/healthz");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
  std::filesystem::remove_all(certs.dir);
}

// TLS files that cannot serve are refused by Listen(), naming the flag and
// the file.
TEST_F(HttpServerTest, TlsFilesThatCannotServeAreNamed) {
  const testing::TestCerts certs = testing::MakeTestCerts("http-server-bad");
  struct Case {
    TlsFiles tls;
    std::string want;
  } cases[] = {
      {{certs.server_cert, "", ""}, "--tls-cert-file needs --tls-private-key-file"},
      {{"", certs.server_key, ""}, "--tls-private-key-file needs --tls-cert-file"},
      {{certs.dir + "/none.crt", certs.server_key, ""},
       "--tls-cert-file " + certs.dir + "/none.crt: cannot read it: No such file or directory"},
      {{certs.server_cert, certs.server_key, certs.dir + "/none-ca.crt"},
       "--client-ca-file " + certs.dir + "/none-ca.crt: cannot read it: No such file or directory"},
      {{certs.server_key, certs.server_key, ""},
       "--tls-cert-file " + certs.server_key + ": not a PEM certificate chain ("},
      {{certs.server_cert, certs.server_cert, ""},
       "--tls-private-key-file " + certs.server_cert + ": not a PEM private key ("},
      {{certs.server_cert, certs.client_key, ""},
       "--tls-private-key-file " + certs.client_key + " is not the key of --tls-cert-file " + certs.server_cert},
      {{certs.server_cert, certs.server_key, certs.server_key},
       "--client-ca-file " + certs.server_key + ": not PEM certificates ("},
  };
  for (const Case& c : cases) {
    HttpServerOptions o;
    o.port = 0;
    o.tls = c.tls;
    ExtenderHttpServer s(ext_, metrics_, o, [](std::string*) { return true; });
    const Status st = s.Listen();
    EXPECT_FALSE(st.ok());
    // OpenSSL's reason ("no start line") follows the cases that end in "(".
    if (c.want.back() == '(')
      EXPECT_THAT(st.message(), ::testing::StartsWith(c.want));
    else
      EXPECT_EQ(st.message(), c.want);
  }
  std::filesystem::remove_all(certs.dir);
}

// A Stop() that comes before Run() has begun listening (a SIGTERM in serve's
// first instant) is not lost: Run() then returns at once; and a Stop() racing
// a Run() just started ends it. Each round has 5 s; a Run() still serving
// then is stopped again, so that a failure does not hang the suite.
TEST_F(HttpServerTest, StopBeforeOrWhileRunStartsEndsRun) {
  HttpServerOptions ho;
  ho.port = 0;
  for (int round = 0; round < 40; ++round) {
    ExtenderHttpServer server(ext_, metrics_, ho, [](std::string*) { return true; });
    ASSERT_TRUE(server.Listen().ok());
    const bool before = round % 2 == 0;
    if (before) server.Stop();
    std::atomic<bool> returned{false};
    std::thread run([&] {
      server.Run();
      returned = true;
    });
    if (!before) server.Stop();
    const auto t0 = std::chrono::steady_clock::now();
    while (!returned && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const bool ended = returned;
    if (!ended) {
      while (!returned) {
        server.Stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    run.join();
    ASSERT_TRUE(ended) << "round " << round << (before ? ": Stop() before Run()" : ": Stop() racing Run()");
  }
}

}  // namespace
}  // namespace gpusched

// gpusched_serve_soak: `gpusched serve` (the binary, as a child process)
// against the stand-in API server of the tests (tests/server/
// fake_api_server.h) for --seconds (600) of mixed load, with a fault
// injected every --fault-every seconds (30), in turn:
//   410 on the pods watch; an ERROR 410 event on the nodes watch; the pods
//   watch dropped; an undecodable event with resourceVersion "abc"; binds
//   that take the API server 6 s for 10 s; the API server down (503, watches
//   dropped) for 5 s; lists that take 3 s and a 410 on the nodes watch.
// Throughout: --clients threads (2) play kube-scheduler for pods created in
// the API server at --rate pods/s (100): filter with every node name,
// prioritize the nodes that passed, bind to the best; pods finish (are
// deleted) 5 to 20 s after they are bound; 32 idle connections and 8
// slowloris clients (a header byte a second, reconnecting when cut) hold
// sockets of the extender's.
//
// Wrong answers: every binding the API server carries out is checked, under
// its lock, against the pods already bound there: the GPUs asked for must
// fit the node's 8, and the devices of the gpusched.io/gpu-devices
// annotation must be as many as asked, on the node, and taken by no other
// pod. Printed: requests and errors by verb (an error is an HTTP answer
// other than 200 or no answer), binds refused (an answered Error) and bound,
// p50/p99 of a pod's filter + prioritize, the extender's RSS after its first
// sync and at the end, relists and dropped events from its /metrics, wrong
// answers, and how long SIGTERM took. Not a test: nothing is asserted
// (the exit status is 1 when a wrong answer was seen).
// Usage: gpusched_serve_soak [--seconds 600] [--fault-every 30] [--nodes 200]
//                            [--clients 2] [--rate 100]
#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <optional>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fake_api_server.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;
using gpusched::testing::FakeApiServer;

constexpr int kGpusPerNode = 8;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

json Node(int i) {
  const std::string name = "gpu-node-" + std::to_string(i);
  json r = {{"cpu", "96"}, {"memory", "1000Gi"}, {"pods", "110"}, {"nvidia.com/gpu", std::to_string(kGpusPerNode)}};
  return {{"metadata", {{"name", name}, {"uid", "uid-" + name}, {"labels", {{"kubernetes.io/hostname", name}}}}},
          {"spec", json::object()},
          {"status", {{"allocatable", r}, {"capacity", r}}}};
}

json Pod(const std::string& name, int gpus) {
  json c = {{"name", "c"},
            {"image", "trainer"},
            {"resources", {{"requests", {{"cpu", "1"}}}, {"limits", {{"nvidia.com/gpu", std::to_string(gpus)}}}}}};
  return {{"metadata", {{"name", name}, {"namespace", "ml"}, {"uid", "uid-" + name}}},
          {"spec", {{"containers", json::array({c})}, {"schedulerName", "gpusched"}}},
          {"status", {{"phase", "Pending"}}}};
}

int GpusOf(const json& pod) {
  return std::stoi(pod["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"].get<std::string>());
}

long RssKb(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

// The sum of a counter's samples in Prometheus text, by metric name.
double MetricSum(const std::string& text, const std::string& name) {
  double sum = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name, 0) != 0 || (line.size() > name.size() && line[name.size()] != '{' && line[name.size()] != ' '))
      continue;
    sum += std::atof(line.substr(line.rfind(' ') + 1).c_str());
  }
  return sum;
}

int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

struct Stats {
  std::mutex mu;
  std::map<std::string, long> requests, errors;
  long bound = 0, refused = 0, pods = 0;
  std::vector<double> cycle_ms;
  std::map<std::string, long> refusals;  // by the first words of the error
};

// A request of kube-scheduler's: the answer's body, or nullopt (counted as
// an error) when the answer is not 200.
std::optional<std::string> Call(httplib::Client& c, Stats& st, const std::string& verb, const std::string& body) {
  auto r = c.Post("/" + verb, body, "application/json");
  std::lock_guard<std::mutex> l(st.mu);
  ++st.requests[verb];
  if (!r || r->status != 200) {
    ++st.errors[verb + (r ? " " + std::to_string(r->status) : " no answer")];
    return std::nullopt;
  }
  return r->body;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 600, fault_every = 30, rate = 100;
  int nodes = 200, clients = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--seconds") seconds = std::atof(argv[i + 1]);
    else if (a == "--fault-every") fault_every = std::atof(argv[i + 1]);
    else if (a == "--nodes") nodes = std::atoi(argv[i + 1]);
    else if (a == "--clients") clients = std::atoi(argv[i + 1]);
    else if (a == "--rate") rate = std::atof(argv[i + 1]);
    else {
      std::fprintf(stderr, "unknown flag %s\n", a.c_str());
      return 2;
    }
  }

  FakeApiServer api;
  api.SetMaxEvents(20000);
  for (int i = 0; i < nodes; ++i) api.AddNode(Node(i));

  // Wrong answers: checked under the API server's lock as each binding is
  // carried out.
  std::atomic<long> wrong{0}, checked{0};
  std::mutex wrong_mu;
  std::vector<std::string> wrong_examples;
  api.SetBindCheck([&](const json& pod, const std::string& node, const json& annotations,
                       const std::map<std::string, json>& pods) {
    ++checked;
    const int gpus = GpusOf(pod);
    int used = 0;
    std::set<int> taken;
    for (const auto& [key, other] : pods) {
      if (other["spec"].value("nodeName", "") != node) continue;
      used += GpusOf(other);
      const json& a = other["metadata"].value("annotations", json::object());
      if (a.contains("gpusched.io/gpu-devices")) {
        std::istringstream in(a["gpusched.io/gpu-devices"].get<std::string>());
        for (std::string d; std::getline(in, d, ',');) taken.insert(std::stoi(d));
      }
    }
    std::string why;
    if (used + gpus > kGpusPerNode) why = std::to_string(used) + " + " + std::to_string(gpus) + " GPUs on " + node;
    std::vector<int> devices;
    if (annotations.contains("gpusched.io/gpu-devices")) {
      std::istringstream in(annotations["gpusched.io/gpu-devices"].get<std::string>());
      for (std::string d; std::getline(in, d, ',');) devices.push_back(std::stoi(d));
    }
    if (why.empty() && static_cast<int>(devices.size()) != gpus) why = "devices for " + std::to_string(gpus) + " GPUs: " + annotations.dump();
    for (int d : devices)
      if (why.empty() && (d < 0 || d >= kGpusPerNode || taken.count(d)))
        why = "device " + std::to_string(d) + " of " + node + " taken or absent";
    if (!why.empty()) {
      ++wrong;
      std::lock_guard<std::mutex> l(wrong_mu);
      if (wrong_examples.size() < 5) wrong_examples.push_back(pod["metadata"]["name"].get<std::string>() + ": " + why);
    }
  });

  const std::string dir = "/tmp/gpusched-soak-" + std::to_string(::getpid());
  std::system(("mkdir -p " + dir).c_str());
  const std::string kubeconfig = dir + "/kubeconfig";
  std::ofstream(kubeconfig) << "apiVersion: v1\nkind: Config\ncurrent-context: soak\nclusters:\n- name: soak\n  cluster:\n"
                               "    server: " << api.url() << "\ncontexts:\n- name: soak\n  context:\n    cluster: soak\n"
                               "    user: soak\nusers:\n- name: soak\n  user: {}\n";
  const int port = FreePort();
  const std::string listen = "127.0.0.1:" + std::to_string(port);
  std::vector<std::string> args = {GPUSCHED_BINARY, "serve", "--kubeconfig", kubeconfig, "--policy", "best-fit",
                                   "--listen", listen};
  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);
  const std::string log = dir + "/serve.log";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  if (posix_spawn(&pid, argp[0], &fa, nullptr, argp.data(), environ) != 0) {
    std::fprintf(stderr, "cannot start %s\n", argp[0]);
    return 2;
  }
  httplib::Client probe("127.0.0.1", port);
  probe.set_connection_timeout(1, 0);
  probe.set_read_timeout(5, 0);
  const auto start_wait = Clock::now();
  for (;;) {
    auto r = probe.Get("/readyz");
    if (r && r->status == 200) break;
    if (Seconds(Clock::now() - start_wait) > 30) {
      std::fprintf(stderr, "serve did not become ready in 30 s; see %s\n", log.c_str());
      kill(pid, SIGKILL);
      return 2;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const long rss_start = RssKb(pid);
  std::printf("serve ready after %.2f s on %s, %d nodes; RSS %ld kB\n", Seconds(Clock::now() - start_wait),
              listen.c_str(), nodes, rss_start);
  std::fflush(stdout);

  Stats st;
  std::atomic<bool> done{false};
  std::atomic<long> next_pod{0};
  std::string node_names = "[";
  for (int i = 0; i < nodes; ++i) node_names += std::string(i ? "," : "") + "\"gpu-node-" + std::to_string(i) + "\"";
  node_names += "]";

  // Pods finish 5-20 s after they are bound.
  std::mutex finish_mu;
  std::multimap<Clock::time_point, std::string> finish_at;
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937 g(static_cast<unsigned>(c + 1));
      std::uniform_int_distribution<int> gpus_of(0, 3), life(5000, 20000);
      httplib::Client cli("127.0.0.1", port);
      cli.set_keep_alive(true);
      cli.set_tcp_nodelay(true);  // as Go's client: else Nagle meets delayed ACKs (40 ms a request)
      cli.set_read_timeout(10, 0);
      const auto period = std::chrono::duration<double>(clients / rate);
      auto next = Clock::now();
      while (!done) {
        next += std::chrono::duration_cast<Clock::duration>(period);
        std::this_thread::sleep_until(next);
        const int gpus = std::array<int, 4>{1, 1, 2, 4}[static_cast<size_t>(gpus_of(g))];
        const std::string name = "p" + std::to_string(next_pod++);
        json pod = Pod(name, gpus);
        api.AddPod(pod);
        // A pod not bound is deleted after 30 s (kube-scheduler would try it
        // again; here the store stays bounded); a bound one 5-20 s after.
        bool bound = false;
        struct Finish {
          std::mutex& mu;
          std::multimap<Clock::time_point, std::string>& at;
          const std::string& name;
          bool& bound;
          int life_ms;
          ~Finish() {
            std::lock_guard<std::mutex> l(mu);
            at.emplace(Clock::now() + std::chrono::milliseconds(bound ? life_ms : 30000), name);
          }
        } finish{finish_mu, finish_at, name, bound, life(g)};
        {
          std::lock_guard<std::mutex> l(st.mu);
          ++st.pods;
        }
        const auto t0 = Clock::now();
        auto f = Call(cli, st, "filter", "{\"Pod\":" + pod.dump() + ",\"Nodes\":null,\"NodeNames\":" + node_names + "}");
        if (!f) continue;
        json passed = json::parse(*f)["NodeNames"];
        if (!passed.is_array() || passed.empty()) continue;
        auto p = Call(cli, st, "prioritize",
                      "{\"Pod\":" + pod.dump() + ",\"Nodes\":null,\"NodeNames\":" + passed.dump() + "}");
        if (!p) continue;
        {
          std::lock_guard<std::mutex> l(st.mu);
          st.cycle_ms.push_back(Seconds(Clock::now() - t0) * 1000);
        }
        std::string best;
        int top = -1;
        for (const json& h : json::parse(*p))
          if (h["Score"].get<int>() > top) {
            top = h["Score"].get<int>();
            best = h["Host"].get<std::string>();
          }
        auto b = Call(cli, st, "bind",
                      json{{"PodName", name}, {"PodNamespace", "ml"}, {"PodUID", "uid-" + name}, {"Node", best}}.dump());
        if (!b) continue;
        const std::string error = json::parse(*b).value("Error", "");
        std::lock_guard<std::mutex> l(st.mu);
        if (error.empty()) {
          ++st.bound;
          bound = true;
        } else {
          ++st.refused;
          // By kind: pod and node names and figures taken out.
          static const std::regex names(R"(pod ml/p[0-9]+|gpu-node-[0-9]+|[0-9]+(\.[0-9]+)? s\b)");
          std::string kind = std::regex_replace(error, names, "#");
          ++st.refusals[kind.substr(0, 140)];
        }
      }
    });
  }
  threads.emplace_back([&] {
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::vector<std::string> due;
      {
        std::lock_guard<std::mutex> l(finish_mu);
        while (!finish_at.empty() && finish_at.begin()->first <= Clock::now()) {
          due.push_back(finish_at.begin()->second);
          finish_at.erase(finish_at.begin());
        }
      }
      for (const std::string& n : due) api.DeletePod("ml", n);
    }
  });
  // 32 idle connections, 8 slowloris clients.
  std::vector<int> idle;
  for (int i = 0; i < 32; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) idle.push_back(fd);
    else ::close(fd);
  }
  std::atomic<long> slow_cut{0};
  for (int s = 0; s < 8; ++s) {
    threads.emplace_back([&] {
      const std::string header = "POST /filter HTTP/1.1\r\nHost: soak\r\nContent-Length: 2\r\n\r\n";
      while (!done) {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
          for (size_t k = 0; k < header.size() && !done; ++k) {
            if (::send(fd, header.data() + k, 1, MSG_NOSIGNAL) != 1) {
              ++slow_cut;
              break;
            }
            std::this_thread::sleep_for(std::chrono::seconds(1));
          }
        }
        ::close(fd);
      }
    });
  }

  // Faults.
  const char* fault_names[] = {"410 on the pods watch", "ERROR 410 event on the nodes watch", "pods watch dropped",
                               "undecodable event, resourceVersion \"abc\"", "binds take 6 s for 10 s",
                               "API server down 5 s", "lists take 3 s, 410 on the nodes watch"};
  const auto t_start = Clock::now();
  int faults = 0;
  long peak_rss = rss_start;
  auto next_fault = t_start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(fault_every));
  long ready_samples = 0, ready_ok = 0;
  auto next_tick = Clock::now();
  while (Seconds(Clock::now() - t_start) < seconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    peak_rss = std::max(peak_rss, RssKb(pid));
    if (Clock::now() >= next_tick) {
      // Once a second: BOOKMARKs, as the API server sends them (they keep
      // a quiet watch's resourceVersion ahead of compaction), and /readyz.
      next_tick += std::chrono::seconds(1);
      api.Bookmark("nodes");
      api.Bookmark("pods");
      auto r = probe.Get("/readyz");
      ++ready_samples;
      if (r && r->status == 200) ++ready_ok;
    }
    if (Clock::now() < next_fault) continue;
    next_fault += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(fault_every));
    const int k = faults++ % 7;
    std::printf("%6.0f s  fault %d: %s\n", Seconds(Clock::now() - t_start), faults, fault_names[k]);
    std::fflush(stdout);
    switch (k) {
      case 0: api.GoneOnNextWatch("pods", false); api.DropNextWatchAfter("pods", 0); break;
      case 1: api.GoneOnNextWatch("nodes", true); api.DropNextWatchAfter("nodes", 0); break;
      case 2: api.DropNextWatchAfter("pods", 3); break;
      case 3: api.EmitRaw("pods", "MODIFIED", json{{"metadata", {{"name", 42}}}, {"spec", "not an object"}}, "abc"); break;
      case 4:
        api.DelayBinds(std::chrono::seconds(6));
        std::this_thread::sleep_for(std::chrono::seconds(10));
        api.DelayBinds(std::chrono::milliseconds(0));
        break;
      case 5:
        api.SetDown(true);
        std::this_thread::sleep_for(std::chrono::seconds(5));
        api.SetDown(false);
        break;
      case 6:
        api.DelayLists(std::chrono::seconds(3));
        api.GoneOnNextWatch("nodes", false);
        api.DropNextWatchAfter("nodes", 0);
        std::this_thread::sleep_for(std::chrono::seconds(10));
        api.DelayLists(std::chrono::milliseconds(0));
        break;
    }
  }
  // A quiet end: the load goes on 40 s without faults (longer than the
  // reflector's longest backoff, 30 s, as client-go's).
  const auto quiet = Clock::now();
  while (Seconds(Clock::now() - quiet) < 40) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    api.Bookmark("nodes");
    api.Bookmark("pods");
  }
  done = true;
  for (auto& t : threads) t.join();
  for (int fd : idle) ::close(fd);
  // Let the view catch up, then read its metrics.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const long rss_end = RssKb(pid);
  std::string metrics;
  if (auto m = probe.Get("/metrics"); m && m->status == 200) metrics = m->body;
  auto ready = probe.Get("/readyz");
  const auto t_term = Clock::now();
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  const double term_s = Seconds(Clock::now() - t_term);

  std::vector<double> ms = st.cycle_ms;
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double q) { return ms.empty() ? 0.0 : ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))]; };
  long requests = 0, errors = 0;
  for (auto& [k, v] : st.requests) requests += v;
  for (auto& [k, v] : st.errors) errors += v;
  std::printf("\nsoak: %.0f s (and 40 s without faults), %d faults, %d nodes, %d clients at %.0f pods/s\n", seconds, faults, nodes, clients, rate);
  std::printf("pods created %ld; requests %ld (filter %ld, prioritize %ld, bind %ld); errors %ld\n", st.pods, requests,
              st.requests["filter"], st.requests["prioritize"], st.requests["bind"], errors);
  for (auto& [k, v] : st.errors) std::printf("  error %s: %ld\n", k.c_str(), v);
  std::printf("binds: %ld bound, %ld refused\n", st.bound, st.refused);
  for (auto& [k, v] : st.refusals) std::printf("  refused \"%s...\": %ld\n", k.c_str(), v);
  std::printf("filter + prioritize: p50 %.2f ms, p99 %.2f ms, max %.1f ms (%zu pods)\n", pct(0.5), pct(0.99),
              ms.empty() ? 0.0 : ms.back(), ms.size());
  std::printf("RSS: %ld kB after the first sync, %ld kB at the end, %ld kB at most\n", rss_start, rss_end, peak_rss);
  std::printf("relists %.0f, dropped events %.0f (serve's /metrics); slowloris connections cut %ld\n",
              MetricSum(metrics, "gpusched_cluster_relists_total"),
              MetricSum(metrics, "gpusched_cluster_dropped_events_total"), slow_cut.load());
  std::printf("readyz: 200 in %ld of %ld one-second samples during the faults\n", ready_ok, ready_samples);
  std::printf("readyz at the end: %s\n", ready ? (std::to_string(ready->status) + " " + ready->body).c_str() : "no answer\n");
  std::printf("wrong answers: %ld of %ld bindings checked\n", wrong.load(), checked.load());
  for (const std::string& w : wrong_examples) std::printf("  %s\n", w.c_str());
  std::printf("SIGTERM: exited %s %d in %.2f s\n", WIFEXITED(status) ? "with" : "by signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), term_s);
  return wrong.load() ? 1 : 0;
}

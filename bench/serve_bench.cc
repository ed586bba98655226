// gpusched_serve_bench: `gpusched serve` under kube-scheduler's load, on
// loopback. For N nodes (8 GPUs each, a quarter of them in use) a client
// plays kube-scheduler's scheduling cycle for one pod at a time: POST
// /filter with every node, then POST /prioritize with the nodes that passed,
// on one keep-alive connection per client thread, with "Accept-Encoding:
// gzip" as Go's HTTP client sends it (--no-gzip: without). Printed per
// configuration: pods/s (one pod = filter + prioritize), requests/s, p50/p99
// of a pod's filter + prioritize, and the process's CPU time per pod over
// HTTP (client and server threads together, "cpu ms": on a shared machine,
// what a pod costs whatever else runs); with node names (nodeCacheCapable:
// true) and with full Node objects (false). In process (no HTTP), the same
// requests are answered by the fast path (inproc/s) and by the plain path it
// replaced (plain/s, ExtenderOptions::plain: the generic decoder and
// writers, every name looked up and every node filtered per request, a
// policy without scores asked for each pick in turn), the baseline:
// http/plain is pods/s over HTTP against it. No pod is bound, so the cluster
// does not change between pods (each bind would make the fast path refilter
// one node) — except with --modes bind, where each pod is then bound where
// prioritize put its 10 (filter + prioritize + bind per pod). --busy F fills
// that fraction of the nodes (all 8 GPUs used), so that filter fails them
// and prioritize is sent the rest. Every filter request lists the nodes in
// the same order, unless --shuffle: a new order for each pod, as
// kube-scheduler's parallel filters produce (prioritize is then sent the
// nodes that passed in that order, filter's answer). --no-inproc, --no-http and --no-plain skip those runs (for
// profiling). GPUSCHED_BENCH_THREADS=N sets the server's event loops
// (HttpServerOptions::threads, default 8). Not a test: nothing is asserted.
// Usage: gpusched_serve_bench [--nodes 1000,5000] [--pods 2000] [--clients 2]
// [--seconds 5] [--modes names,nodes,bind] [--busy F] [--shuffle] [--no-gzip]
// [--no-inproc] [--no-http] [--no-plain]
#include <httplib.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <time.h>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/json_documents.h"
#include "gpusched/io/object_decoder.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/server/extender.h"
#include "gpusched/server/http_server.h"

namespace {

using Clock = std::chrono::steady_clock;

// A Node as a kubelet reports it: labels, addresses, images, conditions.
std::string NodeJson(int i, bool full) {
  const std::string name = "gpu-node-" + std::to_string(i);
  std::string s = "{\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"uid-" + name +
                  "\",\"resourceVersion\":\"12345\",\"labels\":{\"kubernetes.io/hostname\":\"" + name +
                  "\",\"kubernetes.io/os\":\"linux\",\"kubernetes.io/arch\":\"amd64\","
                  "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/gpu.memory\":\"81920\","
                  "\"topology.kubernetes.io/zone\":\"zone-" + std::to_string(i % 3) + "\"}},\"spec\":{\"podCIDR\":\"10.0." +
                  std::to_string(i % 250) + ".0/24\"},\"status\":{\"capacity\":{\"cpu\":\"96\",\"memory\":\"1056Gi\","
                  "\"pods\":\"110\",\"nvidia.com/gpu\":\"8\",\"ephemeral-storage\":\"3Ti\"},\"allocatable\":{\"cpu\":\"95\","
                  "\"memory\":\"1000Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"8\",\"ephemeral-storage\":\"2900Gi\"}";
  if (full) {
    s += ",\"conditions\":[";
    const char* types[] = {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"};
    for (int k = 0; k < 4; ++k)
      s += std::string(k ? "," : "") + "{\"type\":\"" + types[k] + "\",\"status\":\"" + (k == 3 ? "True" : "False") +
           "\",\"lastHeartbeatTime\":\"2026-01-01T00:00:00Z\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\","
           "\"reason\":\"KubeletReady\",\"message\":\"kubelet is posting ready status\"}";
    s += "],\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.1.0." + std::to_string(i % 250) +
         "\"},{\"type\":\"Hostname\",\"address\":\"" + name + "\"}],\"images\":[";
    for (int k = 0; k < 20; ++k)
      s += std::string(k ? "," : "") + "{\"names\":[\"registry.example.com/ml/image-" + std::to_string(k) +
           "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\",\"registry.example.com/ml/"
           "image-" + std::to_string(k) + ":v1\"],\"sizeBytes\":" + std::to_string(1000000000 + k) + "}";
    s += "],\"nodeInfo\":{\"kubeletVersion\":\"v1.35.0\",\"osImage\":\"Ubuntu 22.04\",\"containerRuntimeVersion\":"
         "\"containerd://1.7.0\",\"kernelVersion\":\"5.15.0\",\"operatingSystem\":\"linux\",\"architecture\":\"amd64\"}";
  }
  return s + "}}";
}

std::string PodJson(int i) {
  return "{\"metadata\":{\"name\":\"train-" + std::to_string(i) + "\",\"namespace\":\"ml\",\"uid\":\"u-" +
         std::to_string(i) + "\"},\"spec\":{\"schedulerName\":\"gpusched\",\"containers\":[{\"name\":\"c\",\"image\":"
         "\"trainer\",\"resources\":{\"requests\":{\"cpu\":\"4\",\"memory\":\"32Gi\"},\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},"
         "\"status\":{\"phase\":\"Pending\"}}";
}

// Node i is one of the busy fraction (spread evenly).
bool IsBusy(int i, double busy) {
  return std::floor((i + 1) * busy) > std::floor(i * busy);
}

struct Setup {
  int nodes;
  std::vector<std::string> node_json;  // full objects
  std::string names;                   // ["a","b",...]
};

std::string Args(const std::string& pod, const Setup& s, bool names, const std::vector<int>* only = nullptr) {
  std::string out = "{\"Pod\":" + pod + ",";
  if (names) {
    if (!only) return out + "\"Nodes\":null,\"NodeNames\":" + s.names + "}";
    out += "\"Nodes\":null,\"NodeNames\":[";
    for (size_t k = 0; k < only->size(); ++k) out += std::string(k ? "," : "") + "\"gpu-node-" + std::to_string((*only)[k]) + "\"";
    return out + "]}";
  }
  out += "\"Nodes\":{\"metadata\":{},\"items\":[";
  bool first = true;
  for (int i = 0; i < s.nodes; ++i) {
    if (only && !std::binary_search(only->begin(), only->end(), i)) continue;
    out += (first ? "" : ",") + s.node_json[static_cast<size_t>(i)];
    first = false;
  }
  return out + "]},\"NodeNames\":null}";
}

// CPU time of the whole process (server and client threads): on a shared
// machine, what a pod costs whatever else runs.
double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double Pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> node_counts = {1000, 5000};
  int pods = 2000, clients = 2;
  double seconds = 5;
  // --no-inproc: HTTP only; --no-http: in process only (for profiling).
  // --busy F: that fraction of the nodes has all its GPUs in use, so that
  // filter fails them (FailedNodes) and prioritize gets the rest.
  double busy = 0;
  // Requests say "Accept-Encoding: gzip", as Go's http.Transport
  // (kube-scheduler's extender client) adds to every request; --no-gzip
  // leaves it out (as this bench did before).
  bool gzip = true;
  // --shuffle: each pod's nodes in a new order (kube-scheduler's filters run
  // in parallel, so the order of the nodes it sends changes from pod to pod).
  bool shuffle = false;
  // --no-plain: not the plain path.
  bool inproc_runs = true, http_runs = true, plain_runs = true;
  // "names": NodeNames; "nodes": full Nodes; "bind": NodeNames, and each
  // pod bound where prioritize put its 10, so every pod changes the cluster.
  std::vector<std::string> modes = {"names", "nodes"};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--nodes" && i + 1 < argc) {
      node_counts.clear();
      std::stringstream ss(argv[++i]);
      for (std::string t; std::getline(ss, t, ',');) node_counts.push_back(std::stoi(t));
    } else if (a == "--pods" && i + 1 < argc) {
      pods = std::stoi(argv[++i]);
    } else if (a == "--clients" && i + 1 < argc) {
      clients = std::stoi(argv[++i]);
    } else if (a == "--modes" && i + 1 < argc) {
      const std::string m = argv[++i];
      modes.clear();
      for (const char* k : {"names", "nodes", "bind"})
        if (m.find(k) != std::string::npos) modes.push_back(k);
    } else if (a == "--no-inproc") {
      inproc_runs = false;
    } else if (a == "--busy" && i + 1 < argc) {
      busy = std::stod(argv[++i]);
    } else if (a == "--shuffle") {
      shuffle = true;
    } else if (a == "--no-gzip") {
      gzip = false;
    } else if (a == "--no-plain") {
      plain_runs = false;
    } else if (a == "--no-http") {
      http_runs = false;
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::stod(argv[++i]);
    }
  }
  std::printf("%-6s %-6s %9s %9s %9s %9s %8s %10s %10s %11s\n", "nodes", "mode", "pods/s", "req/s", "p50 ms", "p99 ms",
              "cpu ms",
              "inproc/s", "plain/s", "http/plain");
  for (int n : node_counts) {
    Setup s;
    s.nodes = n;
    s.names = "[";
    std::vector<gpusched::Node> nodes;
    for (int i = 0; i < n; ++i) {
      s.node_json.push_back(NodeJson(i, true));
      s.names += std::string(i ? "," : "") + "\"gpu-node-" + std::to_string(i) + "\"";
      gpusched::JsonStreamEvents ev;
      ev.end = [&](const gpusched::DocNode& d, size_t) {
        gpusched::ObjectDecodeOptions o;
        o.strict = false;
        nodes.push_back(gpusched::DecodeNodeObject(d, o).value());
      };
      gpusched::ParseJsonStream(s.node_json.back(), 1, ev);
    }
    s.names += "]";
    // The service under test (fast decision path) and the plain path it
    // replaced (ExtenderOptions::plain), the baseline, on the same cluster.
    auto make = [&](bool plain, gpusched::Metrics* m) {
      gpusched::ExtenderOptions o{true, 30, 1};
      o.plain = plain;
      auto ext = std::make_unique<gpusched::ExtenderService>(
          [](const gpusched::ClusterView&) {
            return gpusched::BuildSchedulers(gpusched::DefaultSchedulerConfiguration(), "best-fit", 1);
          },
          o, nullptr, m);
      ext->Update([&](gpusched::ClusterView& v) {
        v.ReplaceNodes(nodes);
        // A quarter of the GPUs in use: 2 one-GPU pods per node (all 8 on
        // the busy ones).
        for (int i = 0; i < n; ++i)
          for (int k = 0; k < (IsBusy(i, busy) ? 8 : 2); ++k) {
            gpusched::Pod p;
            p.meta.name = "run-" + std::to_string(i) + "-" + std::to_string(k);
            p.meta.namespace_ = "ml";
            p.node_name = "gpu-node-" + std::to_string(i);
            gpusched::Container c;
            c.name = "c";
            c.limits["nvidia.com/gpu"] = gpusched::Quantity::FromInt(1);
            c.requests["nvidia.com/gpu"] = gpusched::Quantity::FromInt(1);
            p.containers.push_back(c);
            v.UpsertPod(p);
          }
      });
      (void)ext->MarkSynced();
      return ext;
    };
    gpusched::Metrics metrics, plain_metrics;
    std::unique_ptr<gpusched::ExtenderService> fast_ext = make(false, &metrics);
    std::unique_ptr<gpusched::ExtenderService> plain_ext = make(true, &plain_metrics);
    gpusched::ExtenderService& ext = *fast_ext;
    gpusched::HttpServerOptions ho;
    ho.port = 0;
    if (const char* t = std::getenv("GPUSCHED_BENCH_THREADS")) ho.threads = std::atoi(t);
    gpusched::ExtenderHttpServer server(ext, metrics, ho, [](std::string*) { return true; });
    if (!server.Listen().ok()) return 2;
    std::thread serving([&] { server.Run(); });

    int first_pod = 0;  // bind mode: every phase binds pods of its own
    for (const std::string& mode : modes) {
      const bool names = mode != "nodes", bind = mode == "bind";
      // Requests prepared up front: the client's own JSON is not measured.
      const int count = names ? pods : std::max(20, pods / 20);
      std::vector<std::string> filter_bodies, prio_bodies, bind_bodies;
      // Prioritize is sent the nodes that pass filter, as kube-scheduler does.
      std::vector<int> all;
      for (int i = 0; i < n; ++i)
        if (!IsBusy(i, busy)) all.push_back(i);
      std::mt19937 order(7);
      for (int i = first_pod; i < first_pod + 2 * count; ++i) {
        if (shuffle && names) {
          // The nodes in a new order for each pod; prioritize gets those that
          // pass, in that order (filter's answer).
          std::vector<int> nodes_in_order(static_cast<size_t>(n)), passing;
          for (int k = 0; k < n; ++k) nodes_in_order[static_cast<size_t>(k)] = k;
          std::shuffle(nodes_in_order.begin(), nodes_in_order.end(), order);
          for (int k : nodes_in_order)
            if (!IsBusy(k, busy)) passing.push_back(k);
          filter_bodies.push_back(Args(PodJson(i), s, names, &nodes_in_order));
          prio_bodies.push_back(Args(PodJson(i), s, names, &passing));
        } else {
          filter_bodies.push_back(Args(PodJson(i), s, names));
          prio_bodies.push_back(Args(PodJson(i), s, names, &all));
        }
        bind_bodies.push_back("{\"PodName\":\"train-" + std::to_string(i) + "\",\"PodNamespace\":\"ml\",\"PodUID\":\"u-" +
                              std::to_string(i) + "\",\"Node\":\"");
      }
      first_pod += 2 * count;
      // Where prioritize put its 10 (the node kube-scheduler binds to).
      auto top = [](const std::string& list) {
        const size_t at = list.find("\"Score\":10}");
        const size_t host = list.rfind("{\"Host\":\"", at) + 9;
        return list.substr(host, list.find('"', host) - host);
      };
      // The same requests in process (no HTTP), on the fast path and on the
      // plain one (the baseline); both answer the same.
      auto in_process = [&](gpusched::ExtenderService& e) {
        const auto start = Clock::now();
        int done = 0;
        for (int i = 0; i < count && std::chrono::duration<double>(Clock::now() - start).count() < seconds; ++i) {
          (void)e.Filter(filter_bodies[static_cast<size_t>(i)]);
          const gpusched::Reply p = e.Prioritize(prio_bodies[static_cast<size_t>(i)]);
          if (bind) (void)e.Bind(bind_bodies[static_cast<size_t>(i)] + top(p.body) + "\"}");
          ++done;
        }
        return done / std::chrono::duration<double>(Clock::now() - start).count();
      };
      const double plain = inproc_runs && plain_runs ? in_process(*plain_ext) : 0;
      const double inproc = inproc_runs ? in_process(ext) : 0;
      auto t0 = Clock::now();
      // Over HTTP, `clients` connections.
      std::vector<std::vector<double>> lat(static_cast<size_t>(clients));
      std::atomic<int> next{0}, refused{0};
      t0 = Clock::now();
      const double cpu0 = CpuSeconds();
      std::vector<std::thread> threads;
      for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
          httplib::Client cli("127.0.0.1", server.port());
          cli.set_tcp_nodelay(true);
          cli.set_keep_alive(true);
          cli.set_read_timeout(60, 0);
          if (gzip) cli.set_default_headers({{"Accept-Encoding", "gzip"}});
          for (int i; http_runs && (i = count + next++) < 2 * count;) {
            if (std::chrono::duration<double>(Clock::now() - t0).count() > seconds) break;
            const auto a = Clock::now();
            auto f = cli.Post("/filter", filter_bodies[static_cast<size_t>(i)], "application/json");
            auto p = cli.Post("/prioritize", prio_bodies[static_cast<size_t>(i)], "application/json");
            if (!f || !p || f->status != 200 || p->status != 200) {
              std::fprintf(stderr, "request failed\n");
              return;
            }
            if (bind) {
              auto b = cli.Post("/bind", bind_bodies[static_cast<size_t>(i)] + top(p->body) + "\"}", "application/json");
              if (!b || b->status != 200) {
                std::fprintf(stderr, "bind failed\n");
                return;
              }
              // Two clients may pick the same node at once (kube-scheduler,
              // one loop, would not): the second bind is refused, as it
              // should be, and counted.
              if (b->body != "{\"Error\":\"\"}") ++refused;
            }
            lat[static_cast<size_t>(c)].push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
          }
        });
      }
      for (auto& t : threads) t.join();
      const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
      const double cpu = CpuSeconds() - cpu0;
      std::vector<double> all_lat;
      for (auto& v : lat) all_lat.insert(all_lat.end(), v.begin(), v.end());
      const double pods_s = static_cast<double>(all_lat.size()) / elapsed;
      std::printf("%-6d %-6s %9.0f %9.0f %9.2f %9.2f %8.2f %10.0f %10.0f %11.2f\n", n, mode.c_str(), pods_s,
                  (bind ? 3 : 2) * pods_s, Pct(all_lat, 0.5), Pct(all_lat, 0.99),
                  all_lat.empty() ? 0.0 : 1000 * cpu / static_cast<double>(all_lat.size()), inproc, plain, plain > 0 ? pods_s / plain : 0.0);
      if (refused) std::printf("       (%d of the binds over HTTP refused: two clients chose one node)\n", refused.load());
      std::fflush(stdout);
    }
    server.Stop();
    serving.join();
  }
  return 0;
}

// `gpusched serve`: load the policy (and --config), build the cluster view
// from a static snapshot (-f) or from the API server (--in-cluster or
// --kubeconfig), and serve kube-scheduler's extender calls until SIGTERM or
// SIGINT, which drain the requests in flight and exit 0.
#include "gpusched/cli/serve_command.h"

#include <csignal>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <CLI/CLI.hpp>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/server/extender.h"
#include "gpusched/server/http_server.h"
#include "gpusched/server/readiness.h"
#include "gpusched/server/reflector.h"

namespace gpusched {

CLI::App* AddServeCommand(CLI::App& app, ServeFlags& f) {
  std::string policies;
  for (const auto& p : PolicyNames()) policies += (policies.empty() ? "" : ", ") + p;
  CLI::App* serve = app.add_subcommand("serve", "Run as a kube-scheduler extender (filter, prioritize, preempt, bind)");
  serve->add_option("--listen", f.listen, "Address and port to serve on (ADDR:PORT)")->capture_default_str();
  serve->add_option("--policy", f.policy,
                    "Node choice: " + policies + " (default: kube-default with --config, else first-fit)");
  serve->add_option("--config", f.config, "KubeSchedulerConfiguration whose first profile's filters gpusched runs");
  serve->add_option("-f,--filename", f.files, "Serve a static snapshot of these manifests instead of an API server")
      ->allow_extra_args(false);
  serve->add_flag("-R,--recursive", f.recursive, "Read -f directories recursively");
  serve->add_flag("--in-cluster", f.in_cluster, "Reach the API server with the pod's service account");
  serve->add_option("--kubeconfig", f.kubeconfig, "Reach the API server with this kubeconfig's current context");
  serve->add_option("--seed", f.seed, "Seed of the random generator (tie-breaking)")->capture_default_str();
  serve->add_option("--max-body-bytes", f.max_body_bytes, "Larger request bodies are refused with 413")
      ->capture_default_str();
  serve->add_option("--assume-ttl", f.assume_ttl, "Seconds a bound pod stays assumed until the watch confirms it")
      ->capture_default_str();
  serve->add_option("--stale-after", f.stale_after,
                    "Seconds without the API server after which /readyz says stale")
      ->capture_default_str();
  serve->add_option("--threads", f.threads, "HTTP worker threads")->capture_default_str();
  serve->footer(R"(
Endpoints: POST /filter /prioritize /preempt /bind (k8s.io/kube-scheduler/extender/v1 JSON),
GET /healthz /readyz /metrics (Prometheus text). deploy/ runs it as a sidecar of a second kube-scheduler.

Examples:
  gpusched serve -f examples/serve/cluster.yaml --policy best-fit
  gpusched serve --in-cluster --policy best-fit --listen 127.0.0.1:8888

Exit status:
  0  stopped by SIGTERM or SIGINT after the requests in flight were answered
  2  usage error, unreadable input, or the address cannot be listened on)");
  return serve;
}

namespace {

// Blocks SIGTERM and SIGINT in the calling thread (and the threads it
// starts after), so that one thread can wait for them.
struct SignalMask {
  sigset_t set{}, old{};
  SignalMask() {
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, &old);
  }
  ~SignalMask() { pthread_sigmask(SIG_SETMASK, &old, nullptr); }
};

}  // namespace

int RunServe(const ServeFlags& flags, std::ostream& out, std::ostream& err) {
  (void)out;
  const bool live = flags.in_cluster || !flags.kubeconfig.empty();
  if (live == !flags.files.empty() || (flags.in_cluster && !flags.kubeconfig.empty())) {
    err << "error: serve needs one cluster source: -f FILE (a static snapshot), --in-cluster or --kubeconfig FILE\n";
    return kExitUsage;
  }
  const size_t colon = flags.listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos) {
    try {
      port = std::stoi(flags.listen.substr(colon + 1));
    } catch (...) {
    }
  }
  if (colon == std::string::npos || port < 0 || port > 65535) {
    err << "error: invalid --listen \"" << flags.listen << "\": expected ADDR:PORT, e.g. 127.0.0.1:8888\n";
    return kExitUsage;
  }
  std::string host = flags.listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (flags.threads < 1) {
    err << "error: --threads must be at least 1\n";
    return kExitUsage;
  }

  KubeSchedulerConfiguration config = DefaultSchedulerConfiguration();
  if (!flags.config.empty()) {
    std::vector<std::string> warnings;
    Result<KubeSchedulerConfiguration> loaded = LoadSchedulerConfigFile(flags.config, &warnings, InTreePlugins());
    for (const auto& w : warnings) err << "warning: " << w << "\n";
    if (!loaded.ok()) {
      err << "error: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    config = std::move(loaded).value();
  }
  const std::string policy = !flags.policy.empty() ? flags.policy : (flags.config.empty() ? "first-fit" : "kube-default");
  if (!IsKnownPolicy(policy)) {
    err << UnknownPolicyMessage(policy) << "\n";
    return kExitUsage;
  }
  const uint64_t seed = flags.seed;
  SchedulerFactory factory = [config, policy, seed](const ClusterView& view) -> Result<SchedulerSet> {
    // FGD's target workload: the pods the view holds at its first list.
    std::vector<PodShape> shapes;
    for (const PodInfo& p : view.PodRequests()) shapes.push_back(ShapeOf(p));
    const TypicalPods typical = ComputeTypicalPods(shapes);
    PolicyOptions popts;
    popts.typical = &typical;
    return BuildSchedulers(config, policy, seed, popts);
  };

  SignalMask mask;  // before any thread starts
  Metrics metrics;
  ExtenderOptions eopts;
  eopts.static_snapshot = !live;
  eopts.assume_ttl_seconds = flags.assume_ttl;
  eopts.seed = seed;
  std::unique_ptr<ApiBinder> binder;
  std::optional<ApiConfig> api;
  if (live) {
    Result<ApiConfig> c = flags.in_cluster ? InClusterConfig() : KubeconfigConfig(flags.kubeconfig);
    if (!c.ok()) {
      err << "error: " << c.status().message() << "\n";
      return kExitUsage;
    }
    api = std::move(c).value();
    binder = std::make_unique<ApiBinder>(*api);
  }
  ExtenderService extender(factory, eopts, binder.get(), &metrics);

  std::string source;
  if (!live) {
    if (Status st = CheckManifestDirectories(flags.files, flags.recursive); !st.ok()) {
      err << st.message() << "\n";
      return kExitUsage;
    }
    Manifests m;
    if (Status st = LoadManifestPaths(flags.files, LoadOptions{flags.recursive}, m); !st.ok()) {
      err << st.message() << "\n";
      return kExitUsage;
    }
    for (const auto& w : m.warnings) err << "warning: " << w << "\n";
    for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
    std::vector<Node> nodes;
    for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
    std::vector<std::pair<Pod, bool>> pods;
    for (auto& p : m.pods) pods.emplace_back(std::move(p.pod), false);
    const size_t num_nodes = nodes.size(), num_pods = pods.size();
    extender.Update([&](ClusterView& v) {
      v.ReplaceNodes(std::move(nodes));
      v.ReplacePods(pods);
    });
    if (Status st = extender.MarkSynced(); !st.ok()) {
      err << "error: " << st.message() << "\n";
      return kExitUsage;
    }
    metrics.Synced(std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
    source = "a static snapshot of " + std::to_string(num_nodes) + " nodes and " + std::to_string(num_pods) + " pods";
  }

  std::mutex log_mu;
  auto log = [&](const std::string& line) {
    std::lock_guard<std::mutex> l(log_mu);
    err << "gpusched serve: " << line << std::endl;
  };
  std::unique_ptr<Reflector> nodes_reflector, pods_reflector;
  if (live) {
    ReflectorOptions ropts;
    ropts.log = log;
    nodes_reflector = std::make_unique<Reflector>(*api, Reflector::Resource::kNodes, extender, &metrics, ropts);
    pods_reflector = std::make_unique<Reflector>(*api, Reflector::Resource::kPods, extender, &metrics, ropts);
    source = "the API server at " + api->server;
  }

  const double stale_after = flags.stale_after;
  auto ready = [&](std::string* why) {
    std::vector<ReflectorHealth> health;
    if (live) health = {HealthOf(*nodes_reflector), HealthOf(*pods_reflector)};
    return Readiness(extender.synced(), health, stale_after, std::chrono::steady_clock::now(), why);
  };

  HttpServerOptions hopts;
  hopts.host = host;
  hopts.port = port;
  hopts.max_body_bytes = flags.max_body_bytes;
  hopts.threads = flags.threads;
  ExtenderHttpServer server(extender, metrics, hopts, ready);
  if (Status st = server.Listen(); !st.ok()) {
    err << "error: " << st.message() << "\n";
    return kExitUsage;
  }
  std::atomic<bool> done{false};
  std::thread syncer;
  if (live) {
    nodes_reflector->Start();
    pods_reflector->Start();
    syncer = std::thread([&] {
      while (!done && !(nodes_reflector->synced() && pods_reflector->synced()))
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (done) return;
      if (Status st = extender.MarkSynced(); !st.ok()) {
        log("cannot start deciding: " + st.message());
      } else {
        log("synced: " + std::to_string(extender.Read([](const ClusterView& v) { return v.num_nodes(); })) +
            " nodes, " + std::to_string(extender.Read([](const ClusterView& v) { return v.num_bound_pods(); })) +
            " pods on them");
      }
    });
  }
  std::thread signals([&] {
    while (!done) {
      timespec t{0, 200 * 1000 * 1000};
      const int sig = sigtimedwait(&mask.set, nullptr, &t);
      if (sig == SIGTERM || sig == SIGINT) {
        log(std::string(sig == SIGTERM ? "SIGTERM" : "SIGINT") + ": draining the requests in flight");
        server.Stop();
        return;
      }
    }
  });
  log("listening on " + host + ":" + std::to_string(server.port()) + " (policy " + policy + ", " + source + ")");
  server.Run();
  done = true;
  signals.join();
  if (syncer.joinable()) syncer.join();
  if (nodes_reflector) nodes_reflector->Stop();
  if (pods_reflector) pods_reflector->Stop();
  log("stopped");
  return kExitOk;
}

}  // namespace gpusched

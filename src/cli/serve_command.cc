// `gpusched serve`: load the policy (and --config), build the cluster view
// from a static snapshot (-f) or from the API server (--in-cluster or
// --kubeconfig), and serve kube-scheduler's extender calls until SIGTERM or
// SIGINT, which drain the requests in flight and exit 0.
#include "gpusched/cli/serve_command.h"

#include <csignal>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>
#include <thread>

#include <CLI/CLI.hpp>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/flag_checks.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/cli/run_flags.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/run/run_settings.h"
#include "gpusched/server/extender.h"
#include "gpusched/server/http_server.h"
#include "gpusched/server/readiness.h"
#include "gpusched/server/reflector.h"
#include "gpusched/util/plural.h"

namespace gpusched {

CLI::App* AddServeCommand(CLI::App& app, ServeFlags& f) {
  CLI::App* serve = app.add_subcommand("serve", "Run as a kube-scheduler extender (filter, prioritize, preempt, bind)");
  serve->add_option("--listen", f.listen, "Address and port to serve on (ADDR:PORT)")->capture_default_str();
  AddSettingFlags(serve, f.run, Command::kServe, {Setting::kPolicy, Setting::kConfig});
  serve->add_option("-f,--filename", f.files, "Serve a static snapshot of these manifests instead of an API server")
      ->allow_extra_args(false);
  serve->add_flag("-R,--recursive", f.recursive, "Read -f directories recursively");
  serve->add_flag("--in-cluster", f.in_cluster, "Reach the API server with the pod's service account");
  serve->add_option("--kubeconfig", f.kubeconfig, "Reach the API server with this kubeconfig's current context");
  AddSettingFlags(serve, f.run, Command::kServe, {Setting::kSeed});
  serve->add_option("--max-body-bytes", f.max_body_bytes, "Larger request bodies are refused with 413")
      ->capture_default_str();
  serve->add_option("--assume-ttl", f.assume_ttl, "Seconds a bound pod stays assumed until the watch confirms it")
      ->check(Number(0, std::numeric_limits<double>::infinity(), "a number of seconds"))
      ->capture_default_str();
  serve->add_option("--stale-after", f.stale_after,
                    "Seconds without the API server after which /readyz says stale")
      ->check(Number(0, std::numeric_limits<double>::infinity(), "a number of seconds"))
      ->capture_default_str();
  serve->add_option("--threads", f.threads, "Event loops, a thread each, that serve connections and answer requests")
      ->capture_default_str();
  serve->add_option("--max-connections", f.max_connections, "Connections open at once; more are closed, logged")
      ->capture_default_str();
  serve->add_option("--shutdown-timeout", f.shutdown_timeout,
                    "Seconds SIGTERM lets the requests in flight finish before it exits")
      ->check(Number(0, std::numeric_limits<double>::infinity(), "a number of seconds"))
      ->capture_default_str();
  serve->add_option("--max-pending-pods", f.max_pending_pods,
                    "Unbound pods kept from filter requests for their bind (~2 kB each); the oldest go first")
      ->capture_default_str();
  serve->add_option("--bind-timeout", f.bind_timeout,
                    "Seconds a bind may take, from its request; keep it under the extender's httpTimeout")
      ->check(Number(0.001, std::numeric_limits<double>::infinity(), "a number of seconds"))
      ->capture_default_str();
  serve->add_option("--bind-concurrency", f.bind_concurrency, "Binds sent to the API server at once")
      ->capture_default_str();
  serve->add_option("--tls-cert-file", f.tls_cert_file, "Serve HTTPS with this PEM certificate chain");
  serve->add_option("--tls-private-key-file", f.tls_private_key_file, "The PEM private key of --tls-cert-file");
  serve->add_option("--client-ca-file", f.client_ca_file,
                    "Require client certificates signed by these PEM CAs (kube-scheduler's tlsConfig certFile)");
  serve->footer(WithProgram(R"(
Endpoints: POST /filter /prioritize /preempt /bind (k8s.io/kube-scheduler/extender/v1 JSON),
GET /healthz /readyz /metrics (Prometheus text). deploy/ runs it as a sidecar of a second kube-scheduler.

Examples:
  gpusched serve -f examples/serve/cluster.yaml --policy best-fit
  gpusched serve --in-cluster --policy best-fit --listen 127.0.0.1:8888
  gpusched serve --in-cluster --listen :8888 --tls-cert-file tls.crt --tls-private-key-file tls.key \
      --client-ca-file ca.crt   # reached over the network: HTTPS, kube-scheduler's client certificate required

Exit status:
  0  stopped by SIGTERM or SIGINT after the requests in flight were answered (--shutdown-timeout)
  2  usage error, unreadable input, or the address cannot be listened on)",
                            app.get_name()));
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

// The flags' usage errors before anything is read, or "".
std::string ServeUsageError(const ServeFlags& flags, std::string& host, int& port) {
  std::vector<std::string> sources;
  if (!flags.files.empty()) sources.push_back("-f");
  if (flags.in_cluster) sources.push_back("--in-cluster");
  if (!flags.kubeconfig.empty()) sources.push_back("--kubeconfig");
  if (sources.empty())
    return "error: serve needs one cluster source: -f FILE (a static snapshot), --in-cluster or --kubeconfig FILE\n";
  if (sources.size() > 1) {
    std::string given;
    for (size_t i = 0; i < sources.size(); ++i)
      given += (i == 0 ? "" : i + 1 == sources.size() ? " and " : ", ") + sources[i];
    return "error: serve takes one cluster source, and was given " + given + "; keep one\n";
  }
  const size_t colon = flags.listen.rfind(':');
  if (colon == std::string::npos)
    return "error: invalid --listen \"" + flags.listen + "\": expected ADDR:PORT, e.g. 127.0.0.1:8888\n";
  const std::string digits = flags.listen.substr(colon + 1);
  if (digits.empty())
    return "error: invalid --listen \"" + flags.listen + "\": the port is missing; expected ADDR:PORT, e.g. 127.0.0.1:8888\n";
  if (digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos || std::stoi(digits) > 65535)
    return "error: invalid --listen \"" + flags.listen + "\": the port \"" + digits +
           "\" must be a whole number from 0 to 65535 (0: any free port)\n";
  port = std::stoi(digits);
  host = flags.listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  for (const auto& [flag, value] : {std::pair<const char*, int>{"--threads", flags.threads},
                                    {"--max-pending-pods", flags.max_pending_pods},
                                    {"--bind-concurrency", flags.bind_concurrency},
                                    {"--max-connections", flags.max_connections}})
    if (value < 1)
      return "error: " + std::string(flag) + ": invalid value \"" + std::to_string(value) +
             "\": must be a whole number, 1 or more\n";
  if (!flags.client_ca_file.empty() && flags.tls_cert_file.empty())
    return "error: --client-ca-file needs --tls-cert-file and --tls-private-key-file (client certificates come with TLS)\n";
  return "";
}

// The schedulers of the settings' policy, built once the view has its first
// list: FGD's target workload is the pods the view holds then.
SchedulerFactory Factory(const RunSettings& settings) {
  return [settings](const ClusterView& view) -> Result<SchedulerSet> {
    std::vector<PodShape> shapes;
    for (const PodInfo& p : view.PodRequests()) shapes.push_back(ShapeOf(p));
    return SchedulersFor(settings, settings.policies.front(), ComputeTypicalPods(shapes));
  };
}

// -f: the snapshot into the view, which is then synced. Returns the exit
// code on error; `source` describes it.
std::optional<int> LoadSnapshot(const ServeFlags& flags, ExtenderService& extender, Metrics& metrics,
                                std::string& source, std::ostream& err) {
  if (Status st = CheckManifestDirectories(flags.files, flags.recursive); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  Manifests m;
  if (Status st = LoadManifestPaths(flags.files, LoadOptions{flags.recursive}, m); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  PrintWarnings(err, m.warnings);
  for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
  std::vector<Node> nodes;
  for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
  std::vector<std::pair<Pod, bool>> pods;
  for (auto& p : m.pods) pods.emplace_back(std::move(p.pod), false);
  const size_t num_nodes = nodes.size(), num_pods = pods.size();
  extender.Update([&](ClusterView& v) {
    v.ReplaceNodes(std::move(nodes));
    v.ReplacePods(pods);
    v.UpsertObject("input", "", std::move(m.api_objects));  // PVCs, Services...: what the plugins read
  });
  if (Status st = extender.MarkSynced(); !st.ok()) {
    err << "error: " << st.message() << "\n";
    return kExitUsage;
  }
  metrics.Synced(std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  source = "a static snapshot of " + Plural(static_cast<int64_t>(num_nodes), "node") + " and " +
           Plural(static_cast<int64_t>(num_pods), "pod");
  return std::nullopt;
}

// --in-cluster or --kubeconfig: list and watch nodes and pods; the view is
// synced once both have listed.
class LiveSource {
 public:
  using Log = std::function<void(const std::string&)>;
  LiveSource(const ApiConfig& api, ExtenderService& extender, Metrics& metrics, Log log)
      : extender_(extender), log_(std::move(log)) {
    ReflectorOptions ropts;
    ropts.log = log_;
    nodes_ = std::make_unique<Reflector>(api, Reflector::Resource::kNodes, extender, &metrics, ropts);
    pods_ = std::make_unique<Reflector>(api, Reflector::Resource::kPods, extender, &metrics, ropts);
    for (const ReflectedKind& k : ReflectedObjectKinds())
      objects_.push_back(std::make_unique<Reflector>(api, k, extender, &metrics, ropts));
  }
  ~LiveSource() { Stop(); }

  void Start() {
    nodes_->Start();
    pods_->Start();
    for (auto& r : objects_) r->Start();
    syncer_ = std::thread([this] {
      // Decisions wait for every kind, as kube-scheduler waits for its
      // informers' caches to sync: a claim not listed yet would read as missing.
      auto all_synced = [this] {
        if (!nodes_->synced() || !pods_->synced()) return false;
        for (const auto& r : objects_)
          if (!r->synced()) return false;
        return true;
      };
      while (!done_ && !all_synced()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (done_) return;
      if (Status st = extender_.MarkSynced(); !st.ok()) {
        log_("cannot start deciding: " + st.message());
        return;
      }
      log_("synced: " +
           Plural(static_cast<int64_t>(extender_.Read([](const ClusterView& v) { return v.num_nodes(); })), "node") +
           ", " +
           Plural(static_cast<int64_t>(extender_.Read([](const ClusterView& v) { return v.num_bound_pods(); })), "pod") +
           " on them");
    });
  }
  void Stop() {
    done_ = true;
    if (syncer_.joinable()) syncer_.join();
    nodes_->Stop();
    pods_->Stop();
    for (auto& r : objects_) r->Stop();
  }
  std::vector<ReflectorHealth> Health() const {
    std::vector<ReflectorHealth> out = {HealthOf(*nodes_), HealthOf(*pods_)};
    for (const auto& r : objects_) out.push_back(HealthOf(*r));
    return out;
  }

 private:
  ExtenderService& extender_;
  Log log_;
  std::unique_ptr<Reflector> nodes_, pods_;
  std::vector<std::unique_ptr<Reflector>> objects_;  // one per ReflectedObjectKinds()
  std::atomic<bool> done_{false};
  std::thread syncer_;
};

}  // namespace

int RunServe(const ServeFlags& flags, std::ostream& out, std::ostream& err) {
  (void)out;
  std::string host;
  int port = -1;
  if (std::string wrong = ServeUsageError(flags, host, port); !wrong.empty()) {
    err << wrong;
    return kExitUsage;
  }
  std::vector<std::string> warnings;
  RunResult<RunSettings> settings = ResolveSettings(flags.run, Command::kServe, &warnings);
  PrintWarnings(err, warnings);
  if (!settings.ok()) return PrintRunError(err, settings.error());

  SignalMask mask;  // before any thread starts
  Metrics metrics;
  const bool live = flags.files.empty();
  std::optional<ApiConfig> api;
  if (live) {
    Result<ApiConfig> c = flags.in_cluster ? InClusterConfig() : KubeconfigConfig(flags.kubeconfig);
    if (!c.ok()) {
      err << "error: " << c.status().message() << "\n";
      return kExitUsage;
    }
    api = std::move(c).value();
  }
  std::unique_ptr<ApiBinder> binder = api ? std::make_unique<ApiBinder>(
                                             *api, BindOptions{.concurrency = flags.bind_concurrency,
                                                               .timeout = std::chrono::milliseconds(static_cast<int64_t>(
                                                                   flags.bind_timeout * 1000))}) : nullptr;
  ExtenderService extender(Factory(*settings),
                           ExtenderOptions{.static_snapshot = !live, .assume_ttl_seconds = flags.assume_ttl,
                                           .seed = settings->seed,
                                           .max_pending_pods = static_cast<size_t>(flags.max_pending_pods)},
                           binder.get(), &metrics);
  std::string source = live ? "the API server at " + api->server : "";
  if (!live)
    if (std::optional<int> code = LoadSnapshot(flags, extender, metrics, source, err)) return *code;
  std::mutex log_mu;
  auto log = [&](const std::string& line) {
    std::lock_guard<std::mutex> l(log_mu);
    err << "gpusched serve: " << line << std::endl;
  };
  std::optional<LiveSource> reflectors;
  if (live) reflectors.emplace(*api, extender, metrics, log);
  auto ready = [&](std::string* why) {
    return Readiness(extender.synced(), reflectors ? reflectors->Health() : std::vector<ReflectorHealth>{},
                     flags.stale_after, std::chrono::steady_clock::now(), why);
  };
  ExtenderHttpServer server(extender, metrics,
                            HttpServerOptions{
                                .host = host,
                                .port = port,
                                .max_body_bytes = flags.max_body_bytes,
                                .threads = flags.threads,
                                .max_connections = flags.max_connections,
                                .shutdown_timeout = std::chrono::milliseconds(
                                    static_cast<int64_t>(flags.shutdown_timeout * 1000)),
                                .tls = {flags.tls_cert_file, flags.tls_private_key_file, flags.client_ca_file},
                                .log = log},
                            ready);
  if (Status st = server.LoadTls(); !st.ok()) {
    err << "error: " << st.message() << "\n";
    return kExitUsage;
  }
  if (Status st = server.Listen(); !st.ok()) {
    err << "error: " << st.message() << "; give another --listen ADDR:PORT (port 0: any free port)\n";
    return kExitUsage;
  }
  if (reflectors) reflectors->Start();
  std::atomic<bool> done{false};
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
  log("listening on " + std::string(flags.tls_cert_file.empty() ? "" : "https://") + host + ":" +
      std::to_string(server.port()) + " (policy " + settings->policies.front() + ", " + source +
      (flags.client_ca_file.empty() ? "" : "; client certificates required") + ")");
  server.Run();
  done = true;
  signals.join();
  if (reflectors) reflectors->Stop();
  log("stopped");
  return kExitOk;
}

}  // namespace gpusched

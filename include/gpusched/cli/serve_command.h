// `gpusched serve`: gpusched's policies inside a live cluster, as a
// kube-scheduler HTTP extender (server/). Flags and behaviour in the README
// ("Running inside a cluster: gpusched serve").
#ifndef GPUSCHED_CLI_SERVE_COMMAND_H_
#define GPUSCHED_CLI_SERVE_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/run/run_settings.h"

namespace CLI {
class App;
}

namespace gpusched {

struct ServeFlags {
  std::string listen = "127.0.0.1:8888";
  RunOptions run;  // --policy, --config, --seed (defaults: run/defaults.h)
  std::vector<std::string> files;  // -f: a static snapshot instead of an API server
  bool recursive = false;
  bool in_cluster = false;
  std::string kubeconfig;
  uint64_t max_body_bytes = 64u << 20;
  double assume_ttl = 30;
  double stale_after = 60;
  int threads = 8;
  int max_connections = 1024;   // kDefaultMaxConnections
  double shutdown_timeout = 10;  // kDefaultShutdownTimeoutSeconds
  std::string tls_cert_file, tls_private_key_file, client_ca_file;
  double bind_timeout = 4;  // BindOptions::timeout
  int bind_concurrency = 8;
  int max_pending_pods = 20000;  // kDefaultMaxPendingPods
};

// Adds the `serve` command to `app`; RunServe runs it once parsed.
CLI::App* AddServeCommand(CLI::App& app, ServeFlags& flags);
int RunServe(const ServeFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_SERVE_COMMAND_H_

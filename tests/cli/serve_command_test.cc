// src/cli/serve_command.cc as a process: `gpusched serve -f ...` on a free
// loopback port answers, and SIGTERM or SIGINT make it drain and exit 0
// (the exit status its --help promises). No timing: the test reads the
// server's log until it says where it listens, and its end of file after
// the signal.
#include <gtest/gtest.h>
#include <httplib.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_test_util.h"

extern char** environ;

namespace gpusched {
namespace {

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kBinary = GPUSCHED_BINARY;

// Usage errors, before anything listens: each names the flag and what it takes.
TEST(ServeCommandTest, UsageErrorsNameTheFlag) {
  const std::string snapshot = kSource + "/examples/serve/cluster.yaml";
  const std::string kUsage = "Run 'gpusched serve --help' for usage.\n";
  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"no source", {"serve"},
       "error: serve needs one cluster source: -f FILE (a static snapshot), --in-cluster or --kubeconfig FILE\n"},
      {"two sources", {"serve", "-f", snapshot, "--in-cluster"},
       "error: serve takes one cluster source, and was given -f and --in-cluster; keep one\n"},
      {"three sources", {"serve", "-f", snapshot, "--in-cluster", "--kubeconfig", "k"},
       "error: serve takes one cluster source, and was given -f, --in-cluster and --kubeconfig; keep one\n"},
      {"listen without a port", {"serve", "-f", snapshot, "--listen", "localhost"},
       "error: invalid --listen \"localhost\": expected ADDR:PORT, e.g. 127.0.0.1:8888\n"},
      {"listen with an empty port", {"serve", "-f", snapshot, "--listen", "127.0.0.1:"},
       "error: invalid --listen \"127.0.0.1:\": the port is missing; expected ADDR:PORT, e.g. 127.0.0.1:8888\n"},
      {"listen port too large", {"serve", "-f", snapshot, "--listen", ":99999"},
       "error: invalid --listen \":99999\": the port \"99999\" must be a whole number from 0 to 65535 (0: any free "
       "port)\n"},
      {"listen port not a number", {"serve", "-f", snapshot, "--listen", "localhost:0x"},
       "error: invalid --listen \"localhost:0x\": the port \"0x\" must be a whole number from 0 to 65535 (0: any "
       "free port)\n"},
      {"listen port negative", {"serve", "-f", snapshot, "--listen", "localhost:-1"},
       "error: invalid --listen \"localhost:-1\": the port \"-1\" must be a whole number from 0 to 65535 (0: any "
       "free port)\n"},
      {"no threads", {"serve", "-f", snapshot, "--threads", "0"},
       "error: --threads: invalid value \"0\": must be a whole number, 1 or more\n"},
      {"negative assume ttl", {"serve", "-f", snapshot, "--assume-ttl", "-1"},
       "error: --assume-ttl: invalid value \"-1\": must be a number of seconds, 0 or more\n" + kUsage},
      {"negative stale after", {"serve", "-f", snapshot, "--stale-after", "-5"},
       "error: --stale-after: invalid value \"-5\": must be a number of seconds, 0 or more\n" + kUsage},
      {"listen on an address not of this machine", {"serve", "-f", snapshot, "--listen", "192.0.2.1:8888"},
       "error: cannot listen on 192.0.2.1:8888 (in use, or not an address of this machine); give another --listen "
       "ADDR:PORT (port 0: any free port)\n"},
      {"no connections", {"serve", "-f", snapshot, "--max-connections", "0"},
       "error: --max-connections: invalid value \"0\": must be a whole number, 1 or more\n"},
      {"no binds at once", {"serve", "-f", snapshot, "--bind-concurrency", "0"},
       "error: --bind-concurrency: invalid value \"0\": must be a whole number, 1 or more\n"},
      {"no pending pods kept", {"serve", "-f", snapshot, "--max-pending-pods", "0"},
       "error: --max-pending-pods: invalid value \"0\": must be a whole number, 1 or more\n"},
      {"no time to bind", {"serve", "-f", snapshot, "--bind-timeout", "0"},
       "error: --bind-timeout: invalid value \"0\": must be a number of seconds, 0.001 or more\n" + kUsage},
      {"negative shutdown timeout", {"serve", "-f", snapshot, "--shutdown-timeout", "-1"},
       "error: --shutdown-timeout: invalid value \"-1\": must be a number of seconds, 0 or more\n" + kUsage},
      {"client certificates without TLS", {"serve", "-f", snapshot, "--client-ca-file", "ca.crt"},
       "error: --client-ca-file needs --tls-cert-file and --tls-private-key-file (client certificates come with "
       "TLS)\n"},
      {"a certificate that is not there",
       {"serve", "-f", snapshot, "--listen", "127.0.0.1:0", "--tls-cert-file", "/nonexistent/tls.crt",
        "--tls-private-key-file", "/nonexistent/tls.key"},
       "error: --tls-cert-file /nonexistent/tls.crt: cannot read it: No such file or directory\n"},
      {"kubeconfig missing", {"serve", "--kubeconfig", "/nonexistent/kubeconfig"},
       "error: cannot read \"/nonexistent/kubeconfig\": No such file or directory; --kubeconfig takes a kubeconfig "
       "file, e.g. ~/.kube/config\n"},
      {"kubeconfig a directory", {"serve", "--kubeconfig", kSource + "/examples"},
       "error: \"" + kSource + "/examples\" is a directory, not a file; --kubeconfig takes a kubeconfig file, e.g. "
       "~/.kube/config\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    testing::CliRun r = testing::Cli(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

// An empty kubeconfig, and --in-cluster outside a pod: what to give instead.
TEST(ServeCommandTest, ClusterSourceErrorsSayWhatToGive) {
  const std::string empty = ::testing::TempDir() + "/gpusched-empty-kubeconfig";
  { std::FILE* f = std::fopen(empty.c_str(), "w"); ASSERT_NE(f, nullptr); std::fclose(f); }
  testing::CliRun r = testing::Cli({"serve", "--kubeconfig", empty});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: " + empty + ": empty kubeconfig; --kubeconfig takes a kubeconfig file, e.g. ~/.kube/config\n");
  // Outside a pod (the variables saved and put back: the test may run in one).
  const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
  const std::string saved = host ? host : "";
  unsetenv("KUBERNETES_SERVICE_HOST");
  r = testing::Cli({"serve", "--in-cluster"});
  if (host) setenv("KUBERNETES_SERVICE_HOST", saved.c_str(), 1);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: --in-cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not running in a "
            "pod?); outside a cluster, use --kubeconfig FILE\n");
}

TEST(ServeCommandTest, SignalDrainsAndExitsZero) {
  for (int sig : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(sig == SIGTERM ? "SIGTERM" : "SIGINT");
    int err_pipe[2];
    ASSERT_EQ(pipe(err_pipe), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
    posix_spawn_file_actions_addclose(&actions, err_pipe[1]);
    const std::string cluster = kSource + "/examples/serve/cluster.yaml";
    std::vector<std::string> args = {"gpusched", "serve", "-f", cluster, "--listen", "127.0.0.1:0"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, kBinary.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(err_pipe[1]);
    FILE* err = fdopen(err_pipe[0], "r");
    ASSERT_NE(err, nullptr);

    // The log up to "listening on 127.0.0.1:PORT (...)".
    std::string log;
    int port = 0;
    char buf[4096];
    const std::string listening = "gpusched serve: listening on 127.0.0.1:";
    while (port == 0 && fgets(buf, sizeof buf, err)) {
      const std::string line = buf;
      log += line;
      if (line.rfind(listening, 0) == 0) port = std::stoi(line.substr(listening.size()));
    }
    ASSERT_GT(port, 0) << log;

    httplib::Client client("127.0.0.1", port);
    httplib::Result ready = client.Get("/readyz");
    ASSERT_TRUE(ready) << httplib::to_string(ready.error());
    EXPECT_EQ(ready->status, 200) << ready->body;
    httplib::Result health = client.Get("/healthz");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
    client.stop();

    ASSERT_EQ(kill(pid, sig), 0);
    std::string rest;
    while (fgets(buf, sizeof buf, err)) rest += buf;
    fclose(err);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "signalled: " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0) << "\n" << rest;
    EXPECT_EQ(WEXITSTATUS(status), 0) << rest;
    const std::string name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
    EXPECT_EQ(rest, "gpusched serve: " + name + ": draining the requests in flight\ngpusched serve: stopped\n");
  }
}

}  // namespace
}  // namespace gpusched

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
#include <string>
#include <vector>

extern char** environ;

namespace gpusched {
namespace {

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kBinary = GPUSCHED_BINARY;

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

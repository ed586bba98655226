// End to end, NodePorts as issue 26 asked for it: two pods binding hostPort
// 8080 on one node leave the second pending with kube-scheduler's text
// (examples/host-ports), explain names the pod holding the port, and
// preemption can free it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_test_util.h"

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kEx = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";

TEST(NodePortsCliTest, SecondHostPort8080PodIsPending) {
  for (const char* policy : {"kube-default", "first-fit"}) {
    SCOPED_TRACE(policy);
    CliRun r = Cli({"schedule", "-f", kEx + "host-ports", "--policy", policy, "-o", "json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["placements"].size(), 1u);
    EXPECT_EQ(j["placements"][0]["pod"], "web-0");
    ASSERT_EQ(j["pending"].size(), 1u);
    EXPECT_EQ(j["pending"][0]["pod"], "web-1");
    const std::string msg = j["pending"][0]["message"];
    EXPECT_EQ(msg.rfind("0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.", 0),
              0u)
        << msg;
  }
  // kube-default adds DefaultPreemption's verdict: web-0 has the same priority.
  CliRun r = Cli({"schedule", "-f", kEx + "host-ports", "--policy", "kube-default", "--explain", "-o", "json"});
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pending"][0]["message"],
            "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 "
            "nodes are available: 1 No preemption victims found for incoming pod.");
  // Run, so not named among the profile's unimplemented plugins.
  if (j.contains("unimplemented_plugins")) {
    EXPECT_EQ(j["unimplemented_plugins"].dump().find("NodePorts"), std::string::npos);
  }
}

TEST(NodePortsCliTest, ExplainNamesThePodHoldingThePort) {
  CliRun r = Cli({"explain", "-f", kEx + "host-ports", "--policy", "kube-default", "web-1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("node(s) didn't have free ports for the requested pod ports (node node-a runs web-0, which "
                       "holds hostPort 8080/TCP)"),
            std::string::npos)
      << r.out;
}

TEST(NodePortsCliTest, PreemptionFreesTheHostPort) {
  // NodePorts is Unschedulable: preemption's dry run removes the holder and
  // the port is free (the dry-run node copy lists the node's pods exactly).
  const std::string path = ::testing::TempDir() + "/host-port-preemption.yaml";
  std::ofstream(path) << "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
                         "value: 1000\n---\n"
                         "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\n"
                         "status: {allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}}\n---\n"
                         "apiVersion: v1\nkind: Pod\nmetadata: {name: batch}\nspec:\n"
                         "  containers: [{name: c, image: i, ports: [{containerPort: 80, hostPort: 8080}]}]\n---\n"
                         "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  priorityClassName: high\n"
                         "  containers: [{name: c, image: i, ports: [{containerPort: 80, hostPort: 8080}]}]\n";
  CliRun r = Cli({"schedule", "-f", path, "--policy", "kube-default", "--order", "fifo", "-o", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["preempted"].size(), 1u) << r.out;
  EXPECT_EQ(j["preempted"][0]["pod"], "batch");
  bool web_placed = false;
  for (const auto& p : j["placements"]) web_placed = web_placed || (p["pod"] == "web" && p["node"] == "node-a");
  EXPECT_TRUE(web_placed) << r.out;
}

}  // namespace
}  // namespace gpusched

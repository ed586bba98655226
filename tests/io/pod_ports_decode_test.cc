// Tests for src/io/pod_ports_decode.cc through the manifest loader:
// containers' ports and spec.hostNetwork (NodePorts), decoded, defaulted and
// validated with the API server's messages and their lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/model/host_ports.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

std::vector<std::string> Ports(const Pod& p) {
  std::vector<std::string> out;
  for (const HostPortRef& r : HostPorts(p)) out.push_back(HostPortString(r));
  return out;
}

TEST(PodPortsDecodeTest, PortsAndDefaults) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
      "  initContainers:\n"
      "  - {name: proxy, image: envoy, restartPolicy: Always, ports: [{containerPort: 15001, hostPort: 15001, "
      "hostIP: 127.0.0.1}]}\n"
      "  containers:\n"
      "  - name: web\n    image: nginx\n    ports:\n    - {name: http, containerPort: 80, hostPort: 8080}\n"
      "    - {containerPort: 53, protocol: UDP}\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_TRUE(m.warnings.empty()) << Join(m.warnings);
  ASSERT_EQ(m.pods.size(), 1u);
  const Pod& p = m.pods[0].pod;
  // Protocol defaulted to TCP; the sidecar's port first (GetHostPorts).
  EXPECT_EQ(Ports(p), (std::vector<std::string>{"127.0.0.1:15001/TCP", "8080/TCP"}));
  EXPECT_EQ(PortsOf(p, false, 0).size(), 2u);
  EXPECT_EQ(PortsOf(p, false, 0)[1].protocol, "UDP");
}

TEST(PodPortsDecodeTest, HostNetworkDefaultsHostPorts) {
  Manifests m = Load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: exporter}\nspec:\n  hostNetwork: true\n"
      "  containers: [{name: c, image: i, ports: [{containerPort: 9100}]}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  EXPECT_EQ(Ports(m.pods[0].pod), std::vector<std::string>{"9100/TCP"});
}

TEST(PodPortsDecodeTest, InvalidPortsAreRejected) {
  struct Case {
    const char* name;
    std::string text;
    int line;
    std::string message;
  } cases[] = {
      {"no containerPort",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
       "  - {name: c, image: i, ports: [{hostPort: 8080}]}\n",
       6, "The Pod \"p\" is invalid: spec.containers[0].ports[0].containerPort: Required value"},
      {"unknown protocol",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
       "  - {name: c, image: i, ports: [{containerPort: 80, protocol: HTTP}]}\n",
       6,
       "The Pod \"p\" is invalid: spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported "
       "values: \"SCTP\", \"TCP\", \"UDP\""},
      {"same host port twice",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
       "  - {name: a, image: i, ports: [{containerPort: 80, hostPort: 8080}]}\n"
       "  - {name: b, image: i, ports: [{containerPort: 81, hostPort: 8080}]}\n",
       7, "The Pod \"p\" is invalid: spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text);
    ASSERT_EQ(m.rejected.size(), 1u);
    EXPECT_EQ(m.rejected[0].line, c.line);
    EXPECT_EQ(m.rejected[0].message, c.message);
    EXPECT_TRUE(m.pods.empty());
  }
}

}  // namespace
}  // namespace gpusched

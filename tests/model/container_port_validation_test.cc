// The API server's validation of container ports
// (src/model/container_port_validation.cc): pkg/apis/core/validation
// validateContainerPorts, checkHostPortConflicts and
// validatePodHostNetworkDeps (v1.35), with the messages their code builds,
// through ValidatePod as a Pod is validated.
#include "gpusched/model/container_port_validation.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpusched/model/host_ports.h"
#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

Pod PodWithPorts(std::vector<std::vector<ContainerPort>> ports, bool host_network = false) {
  Pod p;
  p.meta.name = "web";
  p.meta.namespace_ = "default";
  for (size_t i = 0; i < ports.size(); ++i)
    p.containers.push_back(Container{"c" + std::to_string(i), "nginx", {}, {}, "", {}});
  auto x = std::make_shared<PodSpecExtras>();
  x->container_ports = std::move(ports);
  x->has_ports = true;
  x->host_network = host_network;
  p.extras = x;
  return p;
}

std::vector<std::string> Errors(Pod pod) {
  DefaultPod(pod);
  std::vector<std::string> out;
  for (const FieldError& e : ValidatePod(pod)) out.push_back(e.ToString());
  return out;
}

TEST(ContainerPortValidationTest, Ports) {
  using V = std::vector<std::string>;
  const ContainerPort ok{"http", "", "TCP", 80, 0};
  struct Case {
    const char* name;
    std::vector<ContainerPort> ports;
    V want;
  } cases[] = {
      {"valid ports", {{"abc", "", "TCP", 80, 80}, {"easy", "", "TCP", 82, 0}, {"as", "", "UDP", 83, 0},
                       {"do-re-me", "", "SCTP", 84, 0}, {"", "", "", 85, 0}}, {}},
      {"name too long", {{std::string(16, 'a'), "", "TCP", 80, 0}},
       {"spec.containers[0].ports[0].name: Invalid value: \"aaaaaaaaaaaaaaaa\": must be no more than 15 characters"}},
      {"name with dots", {{"a.b.c", "", "TCP", 80, 0}},
       {"spec.containers[0].ports[0].name: Invalid value: \"a.b.c\": must contain only alpha-numeric characters "
        "(a-z, 0-9), and hyphens (-)"}},
      {"name is a number", {{"80", "", "TCP", 80, 0}},
       {"spec.containers[0].ports[0].name: Invalid value: \"80\": must contain at least one letter (a-z)"}},
      {"name with hyphens", {{"-a--b", "", "TCP", 80, 0}},
       {"spec.containers[0].ports[0].name: Invalid value: \"-a--b\": must not contain consecutive hyphens",
        "spec.containers[0].ports[0].name: Invalid value: \"-a--b\": must not begin or end with a hyphen"}},
      {"name not unique", {ok, {"http", "", "TCP", 81, 0}},
       {"spec.containers[0].ports[1].name: Duplicate value: \"http\""}},
      {"zero container port", {{"", "", "TCP", 0, 0}}, {"spec.containers[0].ports[0].containerPort: Required value"}},
      {"container port too big", {{"", "", "TCP", 65536, 0}},
       {"spec.containers[0].ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"}},
      {"host port too big", {{"", "", "TCP", 80, 65536}},
       {"spec.containers[0].ports[0].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive"}},
      {"protocol in lower case", {{"", "", "tcp", 80, 0}},
       {"spec.containers[0].ports[0].protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", "
        "\"UDP\""}},
      {"host port twice", {{"", "", "TCP", 80, 8080}, {"", "", "TCP", 81, 8080}},
       {"spec.containers[0].ports[1].hostPort: Duplicate value: \"TCP//8080\""}},
      {"host port twice, other protocol", {{"", "", "TCP", 80, 8080}, {"", "", "UDP", 81, 8080}}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Errors(PodWithPorts({c.ports})), c.want);
  }
}

TEST(ContainerPortValidationTest, HostPortsConflictAcrossContainers) {
  EXPECT_EQ(Errors(PodWithPorts({{{"", "10.0.0.1", "TCP", 80, 8080}}, {{"", "10.0.0.1", "", 81, 8080}}})),
            std::vector<std::string>{"spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP/10.0.0.1/8080\""});
  // Another IP is another key ("TCP//8080" and "TCP/10.0.0.1/8080").
  EXPECT_TRUE(Errors(PodWithPorts({{{"", "", "TCP", 80, 8080}}, {{"", "10.0.0.1", "TCP", 81, 8080}}})).empty());
}

TEST(ContainerPortValidationTest, HostNetwork) {
  // Defaulting makes an unset hostPort the containerPort first.
  Pod defaulted = PodWithPorts({{{"", "", "TCP", 9100, 0}}}, /*host_network=*/true);
  EXPECT_TRUE(Errors(defaulted).empty());
  DefaultPod(defaulted);
  EXPECT_EQ(HostPorts(defaulted).size(), 1u);
  EXPECT_EQ(HostPorts(defaulted)[0].port, 9100);
  EXPECT_EQ(Errors(PodWithPorts({{{"", "", "TCP", 9100, 9200}}}, true)),
            std::vector<std::string>{"spec.containers[0].ports[0].hostPort: Invalid value: 9200: must match "
                                     "`containerPort` when `hostNetwork` is true"});
}

TEST(ContainerPortValidationTest, UndefaultedTemplates) {
  // An operator's pod template (JobSet, LeaderWorkerSet) is validated as it
  // is written: no protocol is TCP, and with hostNetwork an unset hostPort is
  // allowed outside Pods.
  Pod tmpl = PodWithPorts({{{"", "", "", 9100, 0}}}, /*host_network=*/true);
  EXPECT_TRUE(ValidatePod(tmpl, "spec.template.spec", /*validate_meta=*/false).empty());
}

}  // namespace
}  // namespace gpusched

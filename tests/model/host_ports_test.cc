// The host ports a pod takes (src/model/host_ports.cc): GetHostPorts' order
// and filter, HostPortInfo.CheckConflict's rules and the defaults.
#include "gpusched/model/host_ports.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

TEST(HostPortsTest, GetHostPortsOrderAndFilter) {
  Pod p;
  p.containers.push_back(Container{"web", "nginx", {}, {}, "", {}});
  p.init_containers.push_back(Container{"setup", "busybox", {}, {}, "", {}});
  p.init_containers.push_back(Container{"proxy", "envoy", {}, {}, "Always", {}});
  auto x = std::make_shared<PodSpecExtras>();
  x->container_ports = {{{"", "", "TCP", 80, 8080}, {"", "", "TCP", 81, 0}}};
  x->init_container_ports = {{{"", "", "TCP", 1, 1}}, {{"", "127.0.0.1", "UDP", 53, 5353}}};
  x->has_ports = true;
  p.extras = x;
  // The sidecar's first, the regular init container's never, no hostPort 0.
  std::vector<std::string> got;
  for (const HostPortRef& r : HostPorts(p)) got.push_back(HostPortString(r));
  EXPECT_EQ(got, (std::vector<std::string>{"127.0.0.1:5353/UDP", "8080/TCP"}));
  EXPECT_TRUE(HasHostPorts(p));
  EXPECT_FALSE(HasHostPorts(Pod{}));
}

TEST(HostPortsTest, Conflict) {
  struct Case {
    HostPortRef want, used;
    bool conflict;
  } cases[] = {
      {{"", "", 8080}, {"0.0.0.0", "TCP", 8080}, true},      // empty IP and protocol are 0.0.0.0 and TCP
      {{"0.0.0.0", "TCP", 8080}, {"10.0.0.1", "TCP", 8080}, true},
      {{"10.0.0.1", "TCP", 8080}, {"", "TCP", 8080}, true},
      {{"10.0.0.1", "TCP", 8080}, {"10.0.0.2", "TCP", 8080}, false},
      {{"10.0.0.1", "UDP", 8080}, {"10.0.0.1", "TCP", 8080}, false},
      {{"", "TCP", 8080}, {"", "TCP", 8081}, false},
      {{"", "TCP", 0}, {"", "TCP", 0}, false},  // ports <= 0 are never added nor checked
  };
  for (const Case& c : cases)
    EXPECT_EQ(HostPortConflict(c.want, c.used), c.conflict)
        << HostPortString(c.want) << " vs " << HostPortString(c.used);
}

TEST(HostPortsTest, DefaultsCopyTheSharedExtras) {
  Pod a;
  a.containers.push_back(Container{"web", "nginx", {}, {}, "", {}});
  auto x = std::make_shared<PodSpecExtras>();
  x->container_ports = {{{"", "", "", 80, 8080}}};
  x->has_ports = true;
  a.extras = x;
  Pod b = a;
  DefaultPodPorts(a);
  EXPECT_EQ(a.extras->container_ports[0][0].protocol, "TCP");
  EXPECT_EQ(b.extras->container_ports[0][0].protocol, "");  // the other pod's copy is untouched
}

}  // namespace
}  // namespace gpusched

// The host ports a pod takes on its node, as kube-scheduler reads them:
//   - pkg/apis/core/v1/defaults.go: SetDefaults_ContainerPort (protocol TCP)
//     and SetDefaults_PodSpec's defaultHostNetworkPorts (with hostNetwork, a
//     port's hostPort 0 becomes its containerPort), both applied to a Pod
//     before validation (DefaultPodPorts);
//   - pkg/scheduler/util/utils.go GetHostPorts: the ports with hostPort > 0
//     of the restartable init containers (restartPolicy: Always, sidecars
//     that run as long as the pod), then of the regular containers;
//   - k8s.io/kube-scheduler/framework types.go HostPortInfo.CheckConflict:
//     an empty hostIP is 0.0.0.0 and an empty protocol TCP; a port on
//     0.0.0.0 conflicts with the same protocol and port on any IP, a port on
//     an IP with the same on that IP or on 0.0.0.0.
#ifndef GPUSCHED_MODEL_HOST_PORTS_H_
#define GPUSCHED_MODEL_HOST_PORTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/container_port.h"
#include "gpusched/model/pod.h"

namespace gpusched {

inline constexpr std::string_view kDefaultBindAllHostIP = "0.0.0.0";
inline constexpr std::string_view kProtocolTCP = "TCP";

// One host port a pod takes (GetHostPorts' entries), by reference into the
// pod; `host_ip` and `protocol` as written (HostPortConflict sanitizes).
struct HostPortRef {
  std::string_view host_ip;
  std::string_view protocol;
  int32_t port = 0;
};

// The ports of container `index` of the regular (`init` false) or init
// containers; empty when it has none.
const std::vector<ContainerPort>& PortsOf(const Pod& pod, bool init, size_t index);

// SetDefaults_ContainerPort and defaultHostNetworkPorts on `pod`'s ports
// (copy-on-write of its shared extras; nothing when it has no ports).
void DefaultPodPorts(Pod& pod);

// True when the pod takes a host port (GetHostPorts is not empty).
bool HasHostPorts(const Pod& pod);

// Calls fn(const HostPortRef&) for each of GetHostPorts(pod), in its order;
// stops early when fn returns false. Allocates nothing.
template <typename Fn>
void ForEachHostPort(const Pod& pod, Fn fn);

// GetHostPorts as a list (tests, messages).
std::vector<HostPortRef> HostPorts(const Pod& pod);

// HostPortInfo{used}.CheckConflict(want): the two cannot both be bound on
// one node.
bool HostPortConflict(const HostPortRef& want, const HostPortRef& used);

// "8080/TCP", or "127.0.0.1:8080/UDP" with a specific host IP: how explain
// names a port.
std::string HostPortString(const HostPortRef& p);

template <typename Fn>
void ForEachHostPort(const Pod& pod, Fn fn) {
  if (!pod.extras || !pod.extras->has_ports) return;
  const PodSpecExtras& x = *pod.extras;
  // Restartable init containers first, as GetHostPorts lists them.
  for (size_t i = 0; i < x.init_container_ports.size() && i < pod.init_containers.size(); ++i) {
    if (!pod.init_containers[i].IsRestartableInit()) continue;
    for (const ContainerPort& p : x.init_container_ports[i])
      if (p.host_port > 0 && !fn(HostPortRef{p.host_ip, p.protocol, p.host_port})) return;
  }
  for (const std::vector<ContainerPort>& ports : x.container_ports)
    for (const ContainerPort& p : ports)
      if (p.host_port > 0 && !fn(HostPortRef{p.host_ip, p.protocol, p.host_port})) return;
}

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_HOST_PORTS_H_

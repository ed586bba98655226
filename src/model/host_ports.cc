#include "gpusched/model/host_ports.h"

#include <memory>

namespace gpusched {

const std::vector<ContainerPort>& PortsOf(const Pod& pod, bool init, size_t index) {
  static const std::vector<ContainerPort> kNone;
  if (!pod.extras) return kNone;
  const auto& all = init ? pod.extras->init_container_ports : pod.extras->container_ports;
  return index < all.size() ? all[index] : kNone;
}

void DefaultPodPorts(Pod& pod) {
  if (!pod.extras || !pod.extras->has_ports) return;
  auto needs = [&](const std::vector<std::vector<ContainerPort>>& all) {
    for (const auto& ports : all)
      for (const ContainerPort& p : ports)
        if (p.protocol.empty() || (pod.extras->host_network && p.host_port == 0)) return true;
    return false;
  };
  if (!needs(pod.extras->container_ports) && !needs(pod.extras->init_container_ports)) return;
  // The extras may be shared with other pods of the same template: default a
  // copy (every copy would get the same defaults).
  auto x = std::make_shared<PodSpecExtras>(*pod.extras);
  auto apply = [&](std::vector<std::vector<ContainerPort>>& all) {
    for (auto& ports : all)
      for (ContainerPort& p : ports) {
        if (p.protocol.empty()) p.protocol = std::string(kProtocolTCP);
        // defaultHostNetworkPorts, for containers and init containers alike.
        if (x->host_network && p.host_port == 0) p.host_port = p.container_port;
      }
  };
  apply(x->container_ports);
  apply(x->init_container_ports);
  pod.extras = std::move(x);
}

bool HasHostPorts(const Pod& pod) {
  bool any = false;
  ForEachHostPort(pod, [&](const HostPortRef&) {
    any = true;
    return false;
  });
  return any;
}

std::vector<HostPortRef> HostPorts(const Pod& pod) {
  std::vector<HostPortRef> out;
  ForEachHostPort(pod, [&](const HostPortRef& p) {
    out.push_back(p);
    return true;
  });
  return out;
}

bool HostPortConflict(const HostPortRef& want, const HostPortRef& used) {
  // HostPortInfo.Add and CheckConflict both ignore ports <= 0.
  if (want.port <= 0 || used.port <= 0 || want.port != used.port) return false;
  auto ip = [](std::string_view s) { return s.empty() ? kDefaultBindAllHostIP : s; };
  auto proto = [](std::string_view s) { return s.empty() ? kProtocolTCP : s; };
  if (proto(want.protocol) != proto(used.protocol)) return false;
  const std::string_view wi = ip(want.host_ip), ui = ip(used.host_ip);
  // 0.0.0.0 wanted: taken on any IP; a specific IP: taken on it or on 0.0.0.0.
  return wi == kDefaultBindAllHostIP || ui == kDefaultBindAllHostIP || wi == ui;
}

std::string HostPortString(const HostPortRef& p) {
  std::string s;
  if (!p.host_ip.empty() && p.host_ip != kDefaultBindAllHostIP) s += std::string(p.host_ip) + ":";
  s += std::to_string(p.port) + "/" + std::string(p.protocol.empty() ? kProtocolTCP : p.protocol);
  return s;
}

}  // namespace gpusched

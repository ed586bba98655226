#include "pod_ports_decode.h"

#include <algorithm>
#include <limits>

namespace gpusched {
namespace {

int32_t Int32(DecodeContext& ctx, const DocNode& port, const char* key, const std::string& path) {
  const std::optional<int64_t> v = ctx.Int(port, key, path);
  if (!v) return 0;
  if (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) {
    ctx.Error(path, port[key], "value out of range for int32");
    return 0;
  }
  return static_cast<int32_t>(*v);
}

// The ports of each container of spec[key], indexed as the containers.
std::vector<std::vector<ContainerPort>> DecodePorts(DecodeContext& ctx, const DocNode& spec, const char* key,
                                                    const std::string& path, bool& any) {
  std::vector<std::vector<ContainerPort>> out;
  const DocNode cs = spec[key];
  if (!cs.IsSequence()) return out;
  out.resize(cs.size());
  for (size_t i = 0; i < cs.size(); ++i) {
    const DocNode c = cs[i];
    if (!c.IsMap()) continue;
    const std::string cpath = path + "[" + std::to_string(i) + "].ports";
    for (const auto& [p, ppath] : ctx.Objects(c, "ports", cpath)) {
      ContainerPort port;
      port.name = ctx.Str(p, "name", ppath + ".name");
      port.host_ip = ctx.Str(p, "hostIP", ppath + ".hostIP");
      port.protocol = ctx.Str(p, "protocol", ppath + ".protocol");
      port.container_port = Int32(ctx, p, "containerPort", ppath + ".containerPort");
      port.host_port = Int32(ctx, p, "hostPort", ppath + ".hostPort");
      out[i].push_back(std::move(port));
      any = true;
    }
  }
  return out;
}

}  // namespace

void DecodePodPorts(DecodeContext& ctx, const DocNode& spec, const std::string& path, PodSpecExtras& extras) {
  bool any = false;
  auto containers = DecodePorts(ctx, spec, "containers", path + ".containers", any);
  auto init = DecodePorts(ctx, spec, "initContainers", path + ".initContainers", any);
  if (any) {
    extras.container_ports = std::move(containers);
    extras.init_container_ports = std::move(init);
    extras.has_ports = true;
  }
  extras.host_network = ctx.Bool(spec, "hostNetwork", path + ".hostNetwork").value_or(false);
}

}  // namespace gpusched

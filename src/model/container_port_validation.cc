#include "gpusched/model/container_port_validation.h"

#include <set>

namespace gpusched {
namespace {

// util/validation IsValidPortName: 1-15 of [-a-z0-9], a letter, no "--",
// no hyphen at either end.
std::vector<std::string> IsValidPortName(const std::string& port) {
  std::vector<std::string> errs;
  if (port.size() > 15) errs.push_back("must be no more than 15 characters");
  bool charset = !port.empty(), letter = false;
  for (char c : port) {
    const bool lower = c >= 'a' && c <= 'z';
    letter = letter || lower;
    charset = charset && (lower || (c >= '0' && c <= '9') || c == '-');
  }
  if (!charset) errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (port.find("--") != std::string::npos) errs.push_back("must not contain consecutive hyphens");
  if (!port.empty() && (port.front() == '-' || port.back() == '-'))
    errs.push_back("must not begin or end with a hyphen");
  return errs;
}

// util/validation IsValidPortNum's InclusiveRangeError.
bool ValidPortNum(int32_t port) { return port >= 1 && port <= 65535; }
constexpr const char* kPortRange = "must be between 1 and 65535, inclusive";

// field.Invalid with an int32 BadValue, which %v renders as a number.
FieldError IntInvalid(std::string field, int32_t value, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), std::to_string(value), std::move(detail)};
}

}  // namespace

void ValidateContainerPorts(const std::vector<ContainerPort>& ports, const std::string& path,
                            std::vector<FieldError>& errs) {
  std::set<std::string> names;
  for (size_t i = 0; i < ports.size(); ++i) {
    const ContainerPort& p = ports[i];
    const std::string idx = path + "[" + std::to_string(i) + "]";
    if (!p.name.empty()) {
      const std::vector<std::string> msgs = IsValidPortName(p.name);
      if (!msgs.empty()) {
        for (const std::string& m : msgs) errs.push_back(FieldError::Invalid(idx + ".name", p.name, m));
      } else if (!names.insert(p.name).second) {
        errs.push_back(FieldError::Duplicate(idx + ".name", p.name));
      }
    }
    // BadValue is an int32: rendered as a number.
    if (p.container_port == 0) {
      errs.push_back(FieldError::Required(idx + ".containerPort", ""));
    } else if (!ValidPortNum(p.container_port)) {
      errs.push_back(IntInvalid(idx + ".containerPort", p.container_port, kPortRange));
    }
    if (p.host_port != 0 && !ValidPortNum(p.host_port))
      errs.push_back(IntInvalid(idx + ".hostPort", p.host_port, kPortRange));
    // sets.List of supportedPortProtocols: sorted. An empty protocol is
    // "Required" upstream, but SetDefaults_ContainerPort sets TCP before any
    // Pod or workload template is validated, and the templates of operator
    // CRDs (JobSet, LeaderWorkerSet) are defaulted when their pods are
    // created: empty reads as TCP here.
    if (!p.protocol.empty() && p.protocol != "TCP" && p.protocol != "UDP" && p.protocol != "SCTP") {
      errs.push_back(FieldError::NotSupportedJson(idx + ".protocol", p.protocol, {"SCTP", "TCP", "UDP"}));
    }
  }
}

void CheckHostPortConflicts(const Pod& pod, const std::string& path, std::vector<FieldError>& errs) {
  if (!pod.extras || !pod.extras->has_ports) return;
  std::set<std::string> seen;
  const auto& all = pod.extras->container_ports;
  for (size_t c = 0; c < all.size(); ++c)
    for (size_t i = 0; i < all[c].size(); ++i) {
      const ContainerPort& p = all[c][i];
      if (p.host_port == 0) continue;
      // "<protocol>/<hostIP>/<hostPort>", the hostIP as written.
      const std::string key = p.protocol + "/" + p.host_ip + "/" + std::to_string(p.host_port);
      if (!seen.insert(key).second)
        errs.push_back(FieldError::Duplicate(
            path + "[" + std::to_string(c) + "].ports[" + std::to_string(i) + "].hostPort", key));
    }
}

void ValidatePodHostNetworkDeps(const Pod& pod, const std::string& spec, std::vector<FieldError>& errs) {
  if (!pod.extras || !pod.extras->host_network) return;
  const auto& all = pod.extras->container_ports;
  for (size_t c = 0; c < all.size(); ++c)
    for (size_t i = 0; i < all[c].size(); ++i) {
      const ContainerPort& p = all[c][i];
      // A template's unset hostPort is allowed (defaulted when its pods are
      // created); a Pod's was defaulted to the containerPort already.
      if (p.host_port != 0 && p.host_port != p.container_port)
        errs.push_back(IntInvalid(spec + ".containers[" + std::to_string(c) + "].ports[" + std::to_string(i) + "].hostPort",
                                  p.host_port, "must match `containerPort` when `hostNetwork` is true"));
    }
}

}  // namespace gpusched

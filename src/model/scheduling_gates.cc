#include "gpusched/model/scheduling_gates.h"

#include <set>

namespace gpusched {

void ValidateSchedulingGates(const std::vector<std::string>& gates, const std::string& path,
                             std::vector<FieldError>& errs) {
  std::set<std::string, std::less<>> seen;
  for (size_t i = 0; i < gates.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    // ValidateQualifiedName: the name is a Go string (%q).
    for (const auto& msg : IsQualifiedName(gates[i])) errs.push_back(FieldError::Invalid(p, gates[i], msg));
    if (!seen.insert(gates[i]).second) errs.push_back(FieldError::Duplicate(p, gates[i]));
  }
}

void ValidateGatedNodeName(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs) {
  if (!pod.node_name.empty() && pod.IsSchedulingGated())
    errs.push_back(
        FieldError::Forbidden(spec_path + ".nodeName", "cannot be set until all schedulingGates have been cleared"));
}

std::string SchedulingGatesStatusMessage(const std::vector<std::string>& gates) {
  std::string s = "waiting for scheduling gates: [";
  for (size_t i = 0; i < gates.size(); ++i) s += (i ? " " : "") + gates[i];
  return s + "]";
}

}  // namespace gpusched
